import CodemodKit
import Foundation
import Workspace

/// The module rules of a configuration checked over the repository's module graph: each
/// dependency a module type forbids, and each dependency that lies on a cycle, as findings of the
/// rule's migration, so that they are locked down, allowed inline and tracked like uses of a
/// deprecated pattern.
///
/// A violation's text is the import declaration (`import UIKit`) or the manifest's dependency
/// (`"FeedUI"`, however spelled), with the target's name as its declarations in a manifest; it is
/// counted per file like any use, so an import that moves within its file is the same finding. A
/// dependency on a cycle is `A → B`, one of a kind in the repository (`repositoryWideIDs`): its
/// baseline entry matches it in whichever file it is first written.
public struct ModuleRules: Sendable, FindingsByFile {
    /// The module rules checked (migrations with `settings.rule`).
    public let migrations: [Migration]
    public let map: ModuleMap
    public let graph: ModuleGraph
    /// Every violation and cycle not allowed inline, and wrong allow comments for module rules,
    /// by repo-relative file.
    public private(set) var findingsByFile: [String: [Finding]] = [:]
    /// How many findings allow comments allowed, by file.
    public private(set) var allowedByFile: [String: Int] = [:]
    /// What in the configuration matches nothing in this repository (a type no module has, a
    /// `may-not-depend-on` naming neither a type nor a module): most likely a typo.
    public private(set) var warnings: [String] = []

    /// Reads the module graph of the repository (`files`: every file the configuration covers,
    /// absolute) and checks the module rules among `migrations` (others are ignored).
    public init(configuration: Configuration, migrations: [Migration], files: [String], jobs: Int? = nil) {
        let map = ModuleMap.discover(root: configuration.root, configuration: configuration)
        let graph = ModuleGraph.discover(map: map, root: configuration.root, configuration: configuration,
                                         files: Self.filesToRead(files, map: map, root: configuration.root), jobs: jobs)
        self.init(configuration: configuration, migrations: migrations, map: map, graph: graph)
    }

    /// The files whose imports and allow comments the graph needs: the files covered, and the
    /// manifests, read for their allow comments even when `include:` leaves them out.
    public static func filesToRead(_ files: [String], map: ModuleMap, root: String) -> [String] {
        let listed = Set(files)
        let manifests = Set(map.folders.map(\.source).filter { PackageManifest.isManifest($0) })
            .map { (root as NSString).appendingPathComponent($0) }.filter { !listed.contains($0) }.sorted()
        return files + manifests
    }

    /// Checks the module rules among `migrations` (others are ignored) over a module graph already
    /// built (a language server rebuilds it from an editor's text).
    public init(configuration: Configuration, migrations: [Migration], map: ModuleMap, graph: ModuleGraph) {
        self.migrations = migrations.filter(\.isModuleRule)
        self.map = map
        self.graph = graph
        warnings = Self.warnings(map: map, graph: graph, configuration: configuration)
        var all: [Finding] = []
        for module in graph.modules {
            if let type = module.type, let rule = self.migrations.first(where: { $0.settings.rule == .moduleType(type) }) {
                // One finding per place: an import that breaks both of its type's rules is one use.
                var sites: [String: [ModuleGraph.Violation]] = [:]
                var order: [String] = []
                for violation in module.violations {
                    let key = "\(violation.file)\u{0}\(violation.line)\u{0}\(violation.dependency.start.byte)"
                    if sites[key] == nil { order.append(key) }
                    sites[key, default: []].append(violation)
                }
                for key in order {
                    let violations = sites[key]!
                    all.append(Self.finding(rule, at: violations[0].dependency, module: module.name,
                                            detail: violations.map(\.message).joined(separator: "; ")))
                }
            }
            if let rule = self.migrations.first(where: { $0.settings.rule == .cycles }) {
                for cycle in module.cycles {
                    // Named by the dependency (one module on another), wherever it is written first.
                    let edge = "\(cycle.modules[0]) → \(cycle.modules[1])"
                    var finding = Self.finding(rule, at: cycle.closedBy, module: module.name,
                                               detail: "\(edge) is on the dependency cycle \(cycle.modules.joined(separator: " → "))", text: edge)
                    // One of a kind in the repository: no declarations, whether written in an
                    // import or a manifest (the place may move from one to the other).
                    finding.scope = ""
                    all.append(finding)
                }
            }
        }
        all.sort { ($0.file, $0.line, $0.column, $0.migration, $0.text) < ($1.file, $1.line, $1.column, $1.migration, $1.text) }
        // A dependency on a cycle is allowed by a comment at any place that writes it (its first
        // place moves as files come and go; the comment stays where it was written).
        var commentsByFile = graph.allowComments
        var cycleProblems: [Finding] = []
        if let rule = self.migrations.first(where: { $0.settings.rule == .cycles }) {
            var dependencyAt: [String: String] = [:]
            for finding in all where finding.migration == rule.id {
                let modules = finding.text.components(separatedBy: " → ")
                for place in graph.places[ModuleGraph.key(from: modules[0], to: modules[1])] ?? [] {
                    dependencyAt["\(place.file)\u{0}\(place.line)"] = finding.text
                }
            }
            var allowedDependencies = Set<String>()
            for (file, comments) in commentsByFile {
                commentsByFile[file] = comments.filter { comment in
                    guard case let .allow(id, reason) = AllowComment.form(of: comment.text, kind: "comment"), id == rule.id else { return true }
                    let dependency = dependencyAt["\(file)\u{0}\(comment.line)"] ?? dependencyAt["\(file)\u{0}\(comment.line + 1)"]
                    if let dependency {
                        allowedDependencies.insert(dependency)
                        if reason == nil {
                            cycleProblems.append(Self.problem(.allowWithoutReason, id, comment, file: file,
                                                              "swiftmod:allow \(id) needs a reason: // swiftmod:allow \(id) -- why"))
                        }
                    } else {
                        cycleProblems.append(Self.problem(.unusedAllow, id, comment, file: file,
                                                          "swiftmod:allow \(id) allows nothing: no dependency on a cycle is written on this line or the next"))
                    }
                    return false
                }
            }
            let allowedHere = all.filter { $0.migration == rule.id && allowedDependencies.contains($0.text) }
            for finding in allowedHere { allowedByFile[finding.file, default: 0] += 1 }
            all.removeAll { $0.migration == rule.id && allowedDependencies.contains($0.text) }
        }
        let byFile = Dictionary(grouping: all + cycleProblems, by: \.file)
        for file in Set(byFile.keys).union(commentsByFile.keys) {
            let (kept, allowed, problems) = applyAllowComments(to: byFile[file] ?? [], comments: commentsByFile[file] ?? [], file: file)
            let findings = (kept + problems).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            if !findings.isEmpty { findingsByFile[file] = findings }
            if allowed > 0 { allowedByFile[file, default: 0] += allowed }
        }
    }

    /// The migrations whose findings are one of a kind in the repository (a dependency on a
    /// cycle is found once, wherever it is first written): a baseline entry of one matches it in
    /// any file (`Comparison`'s `repositoryWide`).
    public var repositoryWideIDs: Set<String> { Set(migrations.filter { $0.settings.rule == .cycles }.map(\.id)) }


    /// What in the configuration matches nothing in the repository (most likely a typo), and
    /// manifests that could not be read.
    public static func warnings(map: ModuleMap, graph: ModuleGraph, configuration: Configuration) -> [String] {
        var warnings: [String] = []
        for failure in map.unreadableManifests {
            warnings.append("\(failure.file): \(failure.reason); its targets are not known as modules")
        }
        let names = Set(graph.modules.map(\.name))
        let types = Set(configuration.moduleTypes.map(\.name))
        let file = (configuration.path as NSString).lastPathComponent
        for type in configuration.moduleTypes {
            // A type without rules that no rule names (one that only claims modules first, say)
            // checks nothing whether it matches or not.
            let named = configuration.moduleTypes.contains { $0.mayNotDependOn.contains(type.name) }
            if type.restricts || named, !graph.modules.contains(where: { $0.type == type.name }) {
                warnings.append("module type \(type.name) (\(file):\(type.line)) matches no module: \(type.restricts ? "its rule checks" : "the rules naming it check") nothing")
            }
            for name in type.mayNotDependOn where !types.contains(name) && !names.contains(name) {
                warnings.append("module type \(type.name) (\(file):\(type.line)) may not depend on '\(name)', which is neither a module type nor a module")
            }
        }
        return warnings
    }

    /// A finding for an allow comment that is wrong.
    static func problem(_ kind: Finding.Kind, _ id: String, _ comment: ImportScanner.Comment, file: String, _ message: String) -> Finding {
        var finding = Finding(kind: kind, migration: id, codemod: "", file: file, line: comment.line, column: comment.start.byte,
                              endLine: comment.line, endColumn: comment.end.byte, text: message, scope: "", inErrorRegion: false)
        finding.setColumns(start: comment.start, end: comment.end)
        return finding
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
        Self.applyAllowComments(to: findings, comments: comments, file: file, ids: Set(migrations.map(\.id)), what: "violation")
    }

    /// The same for the rules of some ids (`what` names a finding in the message: "violation").
    static func applyAllowComments(to findings: [Finding], comments: [ImportScanner.Comment], file: String, ids: Set<String>,
                                   what: String) -> ([Finding], Int, [Finding]) {
        var remaining = findings
        var allowed = 0
        var problems: [Finding] = []
        for comment in comments {
            guard case let .allow(id, reason) = AllowComment.form(of: comment.text, kind: "comment"), ids.contains(id) else { continue }
            // A comment after code allows what is on its own line first, else the line after it.
            if let index = remaining.firstIndex(where: { $0.migration == id && $0.line == comment.line })
                ?? remaining.firstIndex(where: { $0.migration == id && $0.line == comment.line + 1 }) {
                remaining.remove(at: index)
                allowed += 1
                if reason == nil {
                    problems.append(Self.problem(.allowWithoutReason, id, comment, file: file, "swiftmod:allow \(id) needs a reason: // swiftmod:allow \(id) -- why"))
                }
            } else {
                problems.append(Self.problem(.unusedAllow, id, comment, file: file, "swiftmod:allow \(id) allows nothing: no \(what) of \(id) on this line or the next"))
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
