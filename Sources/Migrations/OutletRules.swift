import CodemodKit
import Foundation
import InterfaceBuilder
import SwiftTree
import Workspace

/// The outlet rules of a configuration (`rules:` of kind `outlet-not-guaranteed` and
/// `stale-connection`) checked over the repository's storyboards, xibs and Swift code, as
/// findings that are locked down, allowed and tracked like uses of a deprecated pattern.
///
/// - `outlet-not-guaranteed`: an implicitly unwrapped outlet whose view may be absent (not
///   connected in some storyboard or xib that uses its class, or removed from its superview),
///   at the outlet's name in Swift; `// swiftmod:allow ID -- reason` there allows it. Its text is
///   `Class.outlet`, so it follows the outlet across moves.
/// - `stale-connection`: a storyboard's or xib's connection to an outlet or action its class
///   does not declare, at the connection's line in the Interface Builder file (which takes no
///   comments: the baseline allows it). Its text is `Class.name`.
public struct OutletRules: Sendable {
    public let migrations: [Migration]
    /// The findings not allowed inline, and wrong allow comments, by repo-relative file.
    public private(set) var findingsByFile: [String: [Finding]] = [:]
    public private(set) var allowedByFile: [String: Int] = [:]
    /// Interface Builder files that could not be read: the verdicts of the classes they use may be wrong.
    public private(set) var warnings: [String] = []
    /// Storyboards and xibs that could not be read: what they connect is not judged, so a check
    /// must fail rather than take their findings as gone.
    public private(set) var failures: [FileFailure] = []

    public static let codemodID = "outlet-rules"

    /// Reads the repository under the configuration's root and checks the outlet rules among
    /// `migrations` (others are ignored).
    /// - Parameter cacheVersion: keep what each file gave in the root's `.swiftmod/cache` (nil: no cache).
    public init(configuration: Configuration, migrations: [Migration], jobs: Int? = nil, cacheVersion: String? = nil) {
        self.migrations = migrations.filter { $0.settings.rule?.isOutletRule == true }
        let root = configuration.root
        let repository = OutletRepository(root: root, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                          display: { RepositoryPath.relative($0, root: root) ?? $0 }, cacheVersion: cacheVersion)
        failures = repository.unreadableFiles.map { FileFailure(file: $0.file, reason: "\($0.reason); its outlets and connections are not judged") }
        var all: [Finding] = []
        if let rule = self.migrations.first(where: { $0.settings.rule == .outletNotGuaranteed }) {
            for entry in repository.classification.entries where entry.verdict.mayBeAbsent && entry.outlet.isImplicitlyUnwrapped {
                let outlet = entry.outlet
                var finding = Finding(kind: .use, migration: rule.id, codemod: Self.codemodID, file: entry.file, line: outlet.line,
                                      column: outlet.nameColumn, endLine: outlet.line, endColumn: outlet.nameColumn + outlet.name.utf8.count,
                                      text: "\(outlet.className).\(outlet.name)", scope: outlet.className, inErrorRegion: false)
                finding.detail = "`\(outlet.className).\(outlet.name)` may be absent: \(entry.reason)"
                all.append(finding)
            }
        }
        if let rule = self.migrations.first(where: { $0.settings.rule == .staleConnection }) {
            for stale in repository.classification.stale {
                var finding = Finding(kind: .use, migration: rule.id, codemod: Self.codemodID, file: stale.file, line: stale.line,
                                      column: 1, endLine: stale.line, endColumn: 1, text: "\(stale.className).\(stale.name)",
                                      scope: stale.className, inErrorRegion: false)
                finding.detail = stale.kind == .action
                    ? "`\(stale.className)` declares no action `\(stale.name)`: the app crashes when the control sends it (unrecognized selector)"
                    : "`\(stale.className)` declares no outlet `\(stale.name)`: the scene crashes when it loads (not key value coding-compliant)"
                all.append(finding)
            }
        }
        // Allow comments in the Swift files of the findings (and any naming these rules).
        let ids = Set(self.migrations.map(\.id))
        let byFile = Dictionary(grouping: all, by: \.file)
        var files = Set(byFile.keys.filter { $0.hasSuffix(".swift") })
        for id in ids { files.formUnion(repository.allowComments[id] ?? []) }
        for file in Set(byFile.keys).union(files) {
            var comments: [ImportScanner.Comment] = []
            if file.hasSuffix(".swift"), let bytes = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(file)).map([UInt8].init) {
                comments = ImportScanner.scan(bytes).allowComments
            }
            let (remaining, allowed, problems) = ModuleRules.applyAllowComments(to: byFile[file] ?? [], comments: comments, file: file, ids: ids, what: "finding")
            let findings = (remaining + problems).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            if !findings.isEmpty { findingsByFile[file] = findings }
            if allowed > 0 { allowedByFile[file] = allowed }
        }
    }

    /// The findings in some files (repo-relative; nil: every file), and how many were allowed inline.
    public func results(in files: [String]? = nil) -> (findings: [Finding], allowed: Int) {
        var findings: [Finding] = []
        var allowed = 0
        for file in Set(files ?? Array(findingsByFile.keys) + Array(allowedByFile.keys)).sorted() {
            findings += findingsByFile[file] ?? []
            allowed += allowedByFile[file] ?? 0
        }
        return (findings, allowed)
    }
}
