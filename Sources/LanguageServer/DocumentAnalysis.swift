import CodemodKit
import Foundation
import Lockdown
import Migrations
import SwiftTree

/// What the language server knows of one open document: its findings, each new or allowed by the
/// baseline, computed from the editor's text (saved or not).
struct DocumentAnalysis {
    struct Item {
        var finding: Finding
        /// Allowed by the baseline (a use that was there when it was recorded).
        var baselined: Bool
    }

    let source: SourceText
    let tree: SyntaxTree
    /// Repo-relative.
    let file: String
    let items: [Item]
    /// How many uses the document's allow comments allow.
    let allowed: Int

    init(text: String, file: String, project: Project, parser: Parser) throws {
        source = SourceText(text)
        tree = parser.parse(source)
        self.file = file
        // A file `include:` leaves out (a manifest) is only read for module rules.
        let scanner = Scanner(root: project.configuration.root,
                              migrations: project.configuration.covers(file) ? project.migrations : [], jobs: 1,
                              knownIDs: Set(project.migrations.map(\.id)))
        var (findings, allowed) = try scanner.scan(tree, file: file)
        // Module rules, over the module graph with this text in place of the file.
        var repositoryWide: Set<String> = []
        if !project.modules.isEmpty {
            let rules = project.modules.rules(file: file, text: text)
            let (found, allowedByRules) = rules.results(in: [file])
            findings = (findings + found).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            allowed += allowedByRules
            repositoryWide = rules.repositoryWideIDs
        }
        // Outlet rules, over the repository's storyboards and xibs with this text in place of the file.
        if project.configuration.covers(file), !project.outlets.isEmpty {
            let (found, allowedByRules) = project.outlets.findings(file: file, tree: tree, scanned: &findings)
            findings = (findings + found).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            allowed += allowedByRules
            repositoryWide.formUnion(project.migrations.filter(\.isOutletRule).map(\.id))
        }
        self.allowed = allowed
        let uses = findings.filter { $0.kind == .use }
        // A dependency on a cycle is one of a kind in the repository: its entry may be any file's.
        // A file of the baseline that is gone may have become this one (`git mv`): its entries
        // are followed here as `check` follows them.
        let history = project.history
        let gone = history.gone
        let entries = ((project.baselineByFile[file] ?? []) + history.goneEntries.filter { $0.file != file })
            .filter { !repositoryWide.contains($0.migration) }
            + project.baselineEntries(of: repositoryWide)
        // The baseline's rule, for this file alone (as `swiftmod check FILE`): uses beyond its
        // entries, and those of the files it was renamed from, are new.
        let comparison = Comparison(uses: uses, baseline: Baseline(entries: entries), scannedFiles: [file],
                                    fileExists: { $0 == file || !gone.contains($0) }, history: history, repositoryWide: repositoryWide)
        var newCount: [String: Int] = [:]
        for use in comparison.newUses { newCount["\(use.line):\(use.column):\(use.migration)", default: 0] += 1 }
        items = findings.map { finding in
            guard finding.kind == .use else { return Item(finding: finding, baselined: false) }
            let key = "\(finding.line):\(finding.column):\(finding.migration)"
            if let count = newCount[key], count > 0 {
                newCount[key] = count - 1
                return Item(finding: finding, baselined: false)
            }
            return Item(finding: finding, baselined: true)
        }
    }

    // MARK: - Positions (LSP counts lines from 0 and columns in UTF-16 code units)

    /// The LSP position of a byte offset.
    func position(ofByte offset: Int) -> [String: Int] {
        let location = source.location(ofByte: offset)
        let lineStart = source.lineStarts[location.line - 1]
        return ["line": location.line - 1, "character": source.text(in: lineStart..<location.offset).utf16.count]
    }

    /// The byte offset of an LSP position (clamped to the text).
    func byte(of position: [String: Any]) -> Int { Self.byte(of: position, in: source) }

    /// The byte offset of an LSP position in a text (clamped to it).
    static func byte(of position: [String: Any], in source: SourceText) -> Int {
        let line = max(0, min((position["line"] as? Int) ?? 0, source.lineStarts.count - 1))
        let start = source.lineStarts[line]
        let end = line + 1 < source.lineStarts.count ? source.lineStarts[line + 1] : source.bytes.count
        var units = max(0, (position["character"] as? Int) ?? 0)
        var offset = start
        for scalar in source.text(in: start..<end).unicodeScalars {
            guard units > 0, scalar != "\n" else { break }
            units -= scalar.utf16.count
            offset += scalar.utf8.count
        }
        return offset
    }

    /// A finding's range in LSP terms.
    func range(of finding: Finding) -> [String: Any] {
        let start = ["line": finding.line - 1, "character": (finding.utf16Column ?? finding.column) - 1]
        let end = ["line": finding.endLine - 1, "character": (finding.endUTF16Column ?? finding.endColumn) - 1]
        return ["start": start, "end": end]
    }

    /// The byte range of a finding (its columns count UTF-8 bytes).
    func byteRange(of finding: Finding) -> Range<Int> {
        let start = source.lineStarts[finding.line - 1] + finding.column - 1
        return start..<max(start, source.lineStarts[finding.endLine - 1] + finding.endColumn - 1)
    }

    /// The findings whose range holds a byte offset, or touches the byte range.
    func items(at range: Range<Int>) -> [Item] {
        items.filter { item in
            let found = byteRange(of: item.finding)
            return found.lowerBound <= range.upperBound && range.lowerBound <= found.upperBound
        }
    }
}
