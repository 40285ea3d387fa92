import CodemodKit
import Foundation
import Migrations
import SwiftTree
import Workspace

/// The outlet rules as the language server sees them: the repository's storyboards, xibs and
/// Swift files as they are on disk (read again when one of them changes), with an open
/// document's text in place of its file, so that an outlet the developer has just made `!`, or a
/// removal just typed, is judged at once.
final class OutletState {
    private let configuration: Configuration
    private let migrations: [Migration]
    private let allMigrations: [Migration]
    private let cacheVersion: String?
    private var repository: OutletRepository?
    /// What the files on disk were when they were read (`OutletRules.state`).
    private var state: String?
    private var refreshed = Date.distantPast

    /// - Parameter migrations: the project's migrations (only its outlet rules are checked).
    /// - Parameter cacheVersion: share the command line's cache of what each file says (nil: none).
    init(configuration: Configuration, migrations: [Migration], cacheVersion: String?) {
        self.configuration = configuration
        self.migrations = migrations.filter(\.isOutletRule)
        allMigrations = migrations
        self.cacheVersion = cacheVersion
        refresh()
    }

    /// Whether the project has outlet rules, or a codemod that leaves may-be-absent outlets alone
    /// (`strong-iboutlet`).
    var isEmpty: Bool { migrations.isEmpty && !OutletRules.judgeOutlets(allMigrations) }

    /// Reads the repository again when a Swift file, storyboard, xib or Xcode project came, went
    /// or changed on disk, unless it was looked at less than `seconds` ago.
    /// - Returns: whether anything changed (then every open document needs checking again).
    @discardableResult
    func refresh(unlessDoneWithin seconds: TimeInterval = 0) -> Bool {
        guard !isEmpty, Date().timeIntervalSince(refreshed) >= seconds else { return false }
        defer { refreshed = Date() }
        let root = configuration.root
        let files = (try? OutletRepository.files(under: [root])) ?? []
        let now = OutletRules.state(files: files, rules: migrations, version: cacheVersion ?? "", configuration: configuration)
        if now == state, repository != nil || migrations.isEmpty { return false }
        state = now
        // Without outlet rules, only storyboards and xibs have something to say.
        guard !migrations.isEmpty || OutletRules.holdInterfaceBuilderFiles(files) else {
            repository = nil
            return true
        }
        repository = OutletRepository(root: root, display: { RepositoryPath.relative($0, root: root) ?? $0 }, cacheVersion: cacheVersion, walked: files)
        return true
    }

    /// The outlet rules' findings for a Swift file (repo-relative) whose text is `tree`'s: its
    /// outlets that may be absent, and the stale connections of storyboards and xibs to its
    /// classes, shown at the class (their own place is the storyboard's line, which the editor
    /// does not show; the message names it). Also how many its allow comments allow.
    /// - Parameter scanned: the file's other findings: the uses of codemods that leave a
    ///   may-be-absent outlet alone (`strong-iboutlet`) at such outlets are taken out of them.
    func findings(file: String, tree: SyntaxTree, scanned: inout [Finding]) -> (findings: [Finding], allowed: Int) {
        guard let repository, file.hasSuffix(".swift") else { return ([], 0) }
        let outlets = SwiftOutlets(tree, readingUses: false)
        let judged = repository.replacing(file, with: outlets)
        let rules = OutletRules(configuration: configuration, migrations: migrations, repository: judged, texts: [file: tree.source.bytes])
        rules.removeUsesLeftAlone(from: &scanned, of: allMigrations)
        var found = rules.findingsByFile[file] ?? []
        for (other, findings) in rules.findingsByFile where !other.hasSuffix(".swift") {
            for var finding in findings where finding.kind == .use {
                // (Its scope is the class as judged: of two of one name, the one declared here, if so.)
                guard let line = judged.classification.declarations[finding.scope]?.first(where: { $0.file == file })?.line else { continue }
                let place = "\(other):\(finding.line)"
                // The whole line of the class's declaration.
                let starts = tree.source.lineStarts
                guard line - 1 < starts.count else { continue }
                let end = line < starts.count ? starts[line] - 1 : tree.source.bytes.count
                let text = tree.source.text(in: starts[line - 1]..<max(starts[line - 1], end)).trimmingCharacters(in: .newlines)
                finding.file = file
                finding.line = line
                finding.endLine = line
                finding.column = 1
                finding.endColumn = text.utf8.count + 1
                finding.characterColumn = 1
                finding.endCharacterColumn = text.count + 1
                finding.utf16Column = 1
                finding.endUTF16Column = text.utf16.count + 1
                finding.detail = "\(place): " + (finding.detail ?? finding.text)
                found.append(finding)
            }
        }
        return (found, rules.allowedByFile[file] ?? 0)
    }
}
