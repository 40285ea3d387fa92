import ArgumentParser
import CodemodKit
import Foundation
import Migrations
import Tracker
import Workspace

/// `swiftmod modules`: the modules of the repository, their types, owners and dependencies.
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "List the modules with their type, owners, folder and dependencies (text, json, or dot for Graphviz).",
        discussion: """
        Modules are SwiftPM targets (of every Package.swift), folders holding an .xcodeproj, and \
        the `modules:` of .swiftmod.yml. A module's type is the first of `module-types:` whose \
        patterns match its name or folder. Dependencies are SwiftPM target dependencies and the \
        `import`s of a module's Swift files that name another module of the repository.

        Examples:
          swiftmod modules
          swiftmod modules --format dot | dot -Tsvg > modules.svg

        Guide: docs/module-rules.md
        """
    )

    @OptionGroup var options: LockdownOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, dot }

    @Option(help: "Output format: text, json or dot.")
    var format: Format = .text

    func run() throws {
        let (configuration, _, files, _, _, _, _) = try options.load()
        let map = ModuleMap.discover(root: configuration.root, configuration: configuration)
        let graph = ModuleGraph.discover(map: map, root: configuration.root, configuration: configuration, files: files, jobs: options.jobs)
        for warning in ModuleRules.warnings(map: map, graph: graph, configuration: configuration) {
            printError("warning: \(SafeText.oneLine(warning))")
        }
        switch format {
        case .json:
            print(try JSONText.pretty(graph.modules))
        case .dot:
            print(Self.dot(graph), terminator: "")
        case .text:
            let known = Set(graph.modules.map(\.name))
            for module in graph.modules {
                var head = SafeText.oneLine(module.name)
                if let type = module.type { head += " (\(SafeText.oneLine(type)))" }
                head += "  \(module.path.isEmpty ? "." : SafeText.oneLine(module.path))"
                if !module.owners.isEmpty { head += "  \(module.owners.map(SafeText.oneLine).joined(separator: " "))" }
                print(head)
                let kinds = Dictionary(grouping: module.dependencies, by: \.module)
                if !kinds.isEmpty {
                    let listed = kinds.keys.sorted().map { "\(SafeText.oneLine($0)) (\(kinds[$0]!.map(\.kind).joined(separator: ", ")))" }
                    print("  depends on: \(listed.joined(separator: ", "))")
                }
                let external = module.imports.filter { !known.contains($0) }
                if !external.isEmpty { print("  imports: \(external.map(SafeText.oneLine).joined(separator: ", "))") }
                for cycle in module.cycles {
                    let edge = cycle.closedBy
                    print("  cycle: \(cycle.modules.map(SafeText.oneLine).joined(separator: " -> ")), closed at \(SafeText.oneLine(edge.file)):\(edge.line) (\(edge.kind))")
                }
                for violation in module.violations {
                    print("  violation: \(SafeText.oneLine(violation.file)):\(violation.line): \(SafeText.oneLine(violation.message)) (\(violation.rule))")
                }
            }
            let violations = graph.modules.reduce(0) { $0 + $1.violations.count }
            // One per dependency on a cycle (a two-module cycle has two), not per cycle.
            let cycles = graph.modules.reduce(0) { $0 + $1.cycles.count }
            printError("swiftmod modules: \(graph.modules.count) module\(graph.modules.count == 1 ? "" : "s"), \(violations) violation\(violations == 1 ? "" : "s") of module types, \(cycles) dependenc\(cycles == 1 ? "y" : "ies") on cycles")
        }
    }

    /// The graph for Graphviz: a box per module, labelled with its type; an edge per dependency.
    static func dot(_ graph: ModuleGraph) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        var lines = ["digraph modules {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for module in graph.modules {
            let label = module.type.map { "\(module.name)\n\($0)" } ?? module.name
            lines.append("  \(quoted(module.name)) [label=\(quoted(label))];")
        }
        for module in graph.modules {
            let forbidden = Set(module.violations.map(\.target))
            for target in Set(module.dependencies.map(\.module)).sorted() {
                // A dependency the module's type forbids is drawn in red.
                lines.append("  \(quoted(module.name)) -> \(quoted(target))\(forbidden.contains(target) ? " [color=red]" : "");")
            }
        }
        return (lines + ["}"]).joined(separator: "\n") + "\n"
    }
}

extension ModuleSelection {
    /// Says on stderr that `--module` selected no file, and why it may be.
    static func warnEmpty(_ selection: ModuleSelection, paths: [String]) {
        let names = selection.names.map { "'\(SafeText.oneLine($0))'" }.joined(separator: ", ")
        let why = paths.isEmpty
            ? "its folder holds no Swift file of its own (another module declared for the same folder, or nested ones, take them)"
            : "no file under the paths given is in it"
        printError("warning: --module \(names) selects no file: \(why)")
    }

    /// Says on stderr that `--changed-since` left no file of the modules: they have files, and
    /// none changed (not a problem, nothing to check).
    static func noteUnchanged(_ selection: ModuleSelection, since revision: String) {
        let names = selection.names.map { "'\(SafeText.oneLine($0))'" }.joined(separator: ", ")
        printError("note: --module \(names): no file of \(selection.names.count == 1 ? "it" : "them") changed since \(SafeText.oneLine(revision))")
    }
}
