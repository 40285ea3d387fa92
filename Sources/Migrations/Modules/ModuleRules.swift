import CodemodKit
import Foundation
import Workspace

/// The module rules of a configuration checked over the repository's module graph: each
/// dependency a module type forbids, and each dependency cycle (once, at the edge that closes
/// it), as findings of the rule's migration, so that they are locked down, allowed inline and
/// tracked like uses of a deprecated pattern.
///
/// A violation's text is the import declaration (`import UIKit`) or the manifest's dependency
/// (`"FeedUI"`), a cycle's the cycle (`Coupons → Payments → Coupons`); its declarations are none
/// for an import and the target's name for a manifest dependency. So an import that moves within
/// its file is the same finding, and `check` fails only on new ones.
public struct ModuleRules: Sendable {
    /// The module rules checked (migrations with `settings.rule`).
    public let migrations: [Migration]
    public let map: ModuleMap
    public let graph: ModuleGraph
    /// Every violation and cycle not allowed inline, and wrong allow comments for module rules,
    /// by repo-relative file.
    public private(set) var findingsByFile: [String: [Finding]] = [:]
    /// How many findings allow comments allowed, by file.
    public private(set) var allowedByFile: [String: Int] = [:]

    /// Reads the module graph of the repository (`files`: every file the configuration covers,
    /// absolute) and checks the module rules among `migrations` (others are ignored).
    public init(configuration: Configuration, migrations: [Migration], files: [String], jobs: Int? = nil) {
        self.migrations = migrations.filter(\.isModuleRule)
        map = ModuleMap.discover(root: configuration.root, configuration: configuration)
        graph = ModuleGraph.discover(map: map, root: configuration.root, configuration: configuration, files: files, jobs: jobs)
        var all: [Finding] = []
        for module in graph.modules {
            if let type = module.type, let rule = self.migrations.first(where: { $0.settings.rule == .moduleType(type) }) {
                // One finding per place: an import that breaks both of its type's rules is one use.
                let sites = Dictionary(grouping: module.violations) { "\($0.file)\u{0}\($0.line)\u{0}\($0.dependency.start.byte)" }
                for violations in sites.values {
                    all.append(Self.finding(rule, at: violations[0].dependency, module: module.name,
                                            detail: violations.map(\.message).joined(separator: "; ")))
                }
            }
            if let rule = self.migrations.first(where: { $0.settings.rule == .cycles }) {
                for cycle in module.cycles {
                    // Named by the whole cycle: another cycle closed by the same edge is another finding.
                    let path = cycle.modules.joined(separator: " → ")
                    all.append(Self.finding(rule, at: cycle.closedBy, module: module.name, detail: "dependency cycle \(path)", text: path))
                }
            }
        }
        let byFile = Dictionary(grouping: all, by: \.file)
        for file in Set(byFile.keys).union(graph.allowComments.keys) {
            let (kept, allowed, problems) = applyAllowComments(to: byFile[file] ?? [], comments: graph.allowComments[file] ?? [], file: file)
            let findings = (kept + problems).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            if !findings.isEmpty { findingsByFile[file] = findings }
            if allowed > 0 { allowedByFile[file] = allowed }
        }
    }

    /// The findings in some files (repo-relative), in file order, and how many were allowed inline.
    public func results(in files: [String]) -> (findings: [Finding], allowed: Int) {
        var findings: [Finding] = []
        var allowed = 0
        for file in Set(files).sorted() {
            findings += findingsByFile[file] ?? []
            allowed += allowedByFile[file] ?? 0
        }
        return (findings, allowed)
    }

    /// The files (repo-relative) where cycles through the modules of `files` are reported: a
    /// partial check (`--changed-since`, some paths) must look at them too, since a change in one
    /// module can close a cycle reported at another module's edge. A manifest stands for the
    /// targets it declares (a dependency added there is an edge of theirs).
    public func cycleFiles(touching files: [String]) -> [String] {
        let modules = Set(files.flatMap { file -> [String] in
            let declared = map.folders.filter { $0.source == file }.map(\.name)
            return declared.isEmpty ? [map.module(of: file)] : declared
        })
        var result = Set<String>()
        for module in graph.modules {
            for cycle in module.cycles where cycle.modules.contains(where: modules.contains) {
                result.insert(cycle.closedBy.file)
            }
        }
        return result.sorted()
    }

    static func finding(_ rule: Migration, at edge: ModuleGraph.Dependency, module: String, detail: String, text: String? = nil) -> Finding {
        var finding = Finding(kind: .use, migration: rule.id, codemod: Migration.moduleRulesID, file: edge.file, line: edge.line,
                              column: edge.start.byte, endLine: edge.line, endColumn: edge.end.byte, text: text ?? edge.text,
                              // A manifest names many targets' dependencies: the target tells them apart.
                              scope: edge.kind == "package" ? module : "", inErrorRegion: false)
        finding.setColumns(start: edge.start, end: edge.end)
        finding.detail = detail
        finding.module = module
        return finding
    }

    /// Removes the findings that allow comments naming a module rule allow (on their line or the
    /// line before); returns what is left, how many were allowed, and findings for comments that
    /// allow nothing or give no reason. Comments naming other migrations are the scanner's.
    func applyAllowComments(to findings: [Finding], comments: [ImportScanner.Comment], file: String) -> ([Finding], Int, [Finding]) {
        var remaining = findings
        var allowed = 0
        var problems: [Finding] = []
        for comment in comments {
            guard case let .allow(id, reason) = AllowComment.form(of: comment.text, kind: "comment"),
                  migrations.contains(where: { $0.id == id }) else { continue }
            func problem(_ kind: Finding.Kind, _ message: String) -> Finding {
                var finding = Finding(kind: kind, migration: id, codemod: "", file: file, line: comment.line, column: comment.start.byte,
                                      endLine: comment.line, endColumn: comment.end.byte, text: message, scope: "", inErrorRegion: false)
                finding.setColumns(start: comment.start, end: comment.end)
                return finding
            }
            if let index = remaining.firstIndex(where: { $0.migration == id && ($0.line == comment.line || $0.line == comment.line + 1) }) {
                remaining.remove(at: index)
                allowed += 1
                if reason == nil {
                    problems.append(problem(.allowWithoutReason, "swiftmod:allow \(id) needs a reason: // swiftmod:allow \(id) -- why"))
                }
            } else {
                problems.append(problem(.unusedAllow, "swiftmod:allow \(id) allows nothing: no violation of \(id) on this line or the next"))
            }
        }
        return (remaining, allowed, problems)
    }
}

extension Finding {
    /// Fills the character and UTF-16 columns from a lexer's columns.
    mutating func setColumns(start: ImportScanner.Columns, end: ImportScanner.Columns) {
        characterColumn = start.character
        endCharacterColumn = end.character
        utf16Column = start.utf16
        endUTF16Column = end.utf16
    }
}
