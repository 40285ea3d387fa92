import CodemodKit
import Foundation
import Migrations
import SwiftTree
import Workspace

/// The modules of a repository and what depends on what: SwiftPM target dependencies (from every
/// `Package.swift`) and `import`s between known modules (from the Swift files of each module),
/// with each module's type (`module-types:` of `.swiftmod.yml`) and owners (CODEOWNERS).
public struct ModuleGraph: Sendable {
    /// One edge: a module that a module depends on, and where that is written.
    public struct Dependency: Codable, Sendable, Equatable {
        public var module: String
        /// `package` (a SwiftPM target dependency) or `import` (an `import` in a Swift file).
        public var kind: String
        /// Repo-relative.
        public var file: String
        public var line: Int
    }

    /// A dependency a module's type forbids: an `import` of a module its type may not import, or
    /// a dependency (SwiftPM or `import`) on a module whose type or name its type may not depend on.
    public struct Violation: Codable, Sendable, Equatable {
        /// `may-not-import` or `may-not-depend-on`.
        public var rule: String
        /// The module depended on.
        public var target: String
        /// `package` or `import`.
        public var kind: String
        /// Repo-relative.
        public var file: String
        public var line: Int
        public var message: String
    }

    /// A dependency cycle, reported once, at the edge that closes it: `modules` runs from the
    /// cycle's first module (by name) around to the module whose dependency closes it.
    public struct Cycle: Codable, Sendable, Equatable {
        public var modules: [String]
        /// The closing edge: from the last module of `modules` back to the first.
        public var closedBy: Dependency
    }

    public struct Module: Codable, Sendable {
        public var name: String
        /// The module's folder, repo-relative ("" is the root; for a `modules:` entry, its first pattern).
        public var path: String
        /// Where the module was found: a `Package.swift`, an `.xcodeproj`, or `.swiftmod.yml`.
        public var source: String
        /// The first module type of `.swiftmod.yml` whose patterns match the name or the path.
        public var type: String?
        public var owners: [String]
        /// Modules of this repository it depends on, one edge per module and kind (the first place
        /// it is written), sorted.
        public var dependencies: [Dependency]
        /// Every module its Swift files import (`UIKit` too), sorted.
        public var imports: [String]
        /// What its type forbids, at every place it is written, in file order.
        public var violations: [Violation]
        /// The dependency cycles one of its dependencies closes.
        public var cycles: [Cycle] = []
    }

    /// Sorted by name.
    public var modules: [Module]

    /// Builds the graph from the module map and the Swift files (absolute paths under the root).
    public static func discover(root: String, configuration: Configuration, files: [String], jobs: Int? = nil) -> ModuleGraph {
        let map = ModuleMap.discover(root: root, configuration: configuration)
        let owners = CodeOwners.load(root: root)
        var folders: [String: (path: String, source: String)] = [:]
        for folder in map.folders where folders[folder.name] == nil { folders[folder.name] = (folder.path, folder.source) }
        for (name, globs) in map.explicit where folders[name] == nil {
            folders[name] = (globs.first?.pattern ?? "", Configuration.fileName)
        }
        var edges: [String: [Dependency]] = [:]
        var imports: [String: Set<String>] = [:]
        for (module, dependencies) in map.packageDependencies {
            edges[module, default: []] += dependencies.map { Dependency(module: $0.name, kind: "package", file: $0.file, line: $0.line) }
        }
        // Only the files of a module are read for their imports (a manifest is no module's source).
        let inModules = files.compactMap { path -> (path: String, relative: String, module: String)? in
            let name = (path as NSString).lastPathComponent
            guard name != "Package.swift", !name.hasPrefix("Package@swift"),
                  let relative = RepositoryPath.relative(path, root: root) else { return nil }
            let module = map.module(of: relative)
            return module == ModuleMap.noModule ? nil : (path, relative, module)
        }
        let found = FilePipeline(jobs: jobs).run(inModules.map(\.path), through: ImportFinder())
        for ((_, relative, module), fileImports) in zip(inModules, found) {
            for found in fileImports {
                if found.module != module {
                    imports[module, default: []].insert(found.module)
                    edges[module, default: []].append(Dependency(module: found.module, kind: "import", file: relative, line: found.line))
                }
            }
        }
        let types = Dictionary(uniqueKeysWithValues: folders.map { name, folder in
            (name, configuration.moduleTypes.first { $0.matches(name: name, path: folder.path) })
        })
        let modules = folders.keys.sorted().map { name -> Module in
            let (path, source) = folders[name]!
            var violations: [Violation] = []
            if let type = types[name] ?? nil {
                for edge in edges[name] ?? [] where edge.module != name {
                    if edge.kind == "import", type.mayNotImport.contains(edge.module) {
                        violations.append(Violation(rule: "may-not-import", target: edge.module, kind: edge.kind, file: edge.file, line: edge.line,
                                                    message: "\(name) (\(type.name)) may not import \(edge.module)"))
                    }
                    let targetType = (types[edge.module] ?? nil)?.name
                    if folders[edge.module] != nil,
                       type.mayNotDependOn.contains(edge.module) || targetType.map(type.mayNotDependOn.contains) == true {
                        violations.append(Violation(rule: "may-not-depend-on", target: edge.module, kind: edge.kind, file: edge.file, line: edge.line,
                                                    message: "\(name) (\(type.name)) may not depend on \(edge.module)\(targetType.map { " (\($0))" } ?? "")"))
                    }
                }
            }
            violations.sort { ($0.file, $0.line, $0.rule) < ($1.file, $1.line, $1.rule) }
            // One edge per module and kind, at the first place it is written; only known modules.
            var seen = Set<String>()
            let dependencies = (edges[name] ?? [])
                .filter { folders[$0.module] != nil && $0.module != name }
                .sorted { ($0.module, $0.kind, $0.file, $0.line) < ($1.module, $1.kind, $1.file, $1.line) }
                .filter { seen.insert("\($0.module) \($0.kind)").inserted }
            return Module(name: name, path: path, source: source, type: (types[name] ?? nil)?.name,
                          owners: owners.owners(of: path.isEmpty ? "" : path + "/"),
                          dependencies: dependencies, imports: (imports[name] ?? []).sorted(), violations: violations)
        }
        var graph = ModuleGraph(modules: modules)
        graph.findCycles()
        return graph
    }

    /// Finds one cycle through each group of modules that depend on each other (a strongly
    /// connected component of more than one module), and records it on the module that closes it.
    mutating func findCycles() {
        let index = Dictionary(uniqueKeysWithValues: modules.enumerated().map { ($1.name, $0) })
        let successors = modules.map { module in Array(Set(module.dependencies.compactMap { index[$0.module] })).sorted() }
        // Tarjan's algorithm, iteratively (a deep chain of modules must not exhaust the stack).
        var order = [Int](repeating: -1, count: modules.count), low = order
        var onStack = [Bool](repeating: false, count: modules.count)
        var stack: [Int] = [], components: [[Int]] = [], counter = 0
        for start in modules.indices where order[start] < 0 {
            var work: [(node: Int, next: Int)] = [(start, 0)]
            order[start] = counter; low[start] = counter; counter += 1
            stack.append(start); onStack[start] = true
            while let (node, next) = work.last {
                if next < successors[node].count {
                    work[work.count - 1].next += 1
                    let successor = successors[node][next]
                    if order[successor] < 0 {
                        order[successor] = counter; low[successor] = counter; counter += 1
                        stack.append(successor); onStack[successor] = true
                        work.append((successor, 0))
                    } else if onStack[successor] {
                        low[node] = min(low[node], order[successor])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                if low[node] == order[node] {
                    var component: [Int] = []
                    while let top = stack.popLast() {
                        onStack[top] = false
                        component.append(top)
                        if top == node { break }
                    }
                    if component.count > 1 { components.append(component) }
                }
            }
        }
        for component in components {
            // From the first module by name, along the first dependency within the group that
            // leads back (breadth first: the shortest way round).
            let members = Set(component)
            let start = component.min { modules[$0].name < modules[$1].name }!
            var cameFrom: [Int: Int] = [:]
            var queue = [start], head = 0
            var closing: Int?
            search: while head < queue.count {
                let node = queue[head]; head += 1
                for successor in successors[node] where members.contains(successor) {
                    if successor == start { closing = node; break search }
                    if cameFrom[successor] == nil, successor != start {
                        cameFrom[successor] = node
                        queue.append(successor)
                    }
                }
            }
            guard let last = closing else { continue }
            var path = [last]
            while let previous = cameFrom[path[0]] { path.insert(previous, at: 0) }
            if path.first != start { path.insert(start, at: 0) }
            let names = path.map { modules[$0].name } + [modules[start].name]
            guard let edge = modules[last].dependencies.first(where: { $0.module == modules[start].name }) else { continue }
            modules[last].cycles.append(Cycle(modules: names, closedBy: edge))
        }
    }
}

/// Finds the `import` declarations of a file: each imported module (`import struct A.B` imports
/// `A`) and its line. Attributes (`@testable`, `@_exported`, `@_implementationOnly`) and `#if`
/// around it do not matter.
struct ImportFinder: FileConsumer {
    struct Found: Sendable {
        var module: String
        var line: Int
    }

    static let keyword = Array("import".utf8)

    func needsTree(_ bytes: [UInt8]) -> Bool { ByteSearch.contains(bytes, Self.keyword) }
    func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> [Found] { [] }
    func unreadable(_ file: PipelineFile, error: SourceFileError) -> [Found] { [] }

    func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> [Found] {
        var found: [Found] = []
        tree.root.walk { node in
            if node.kind == "import_declaration" {
                if let path = node.namedChildren.first(where: { $0.kind == "identifier" }),
                   let first = path.namedChildren.first(where: { $0.kind == "simple_identifier" }) {
                    // At the module's name (an attribute may sit on the line before); `` `A` `` is `A`.
                    let name = first.text.hasPrefix("`") && first.text.hasSuffix("`") && first.text.count > 2
                        ? String(first.text.dropFirst().dropLast()) : first.text
                    found.append(Found(module: name, line: first.start.line))
                }
                return false
            }
            // Imports are top-level declarations (the grammar keeps `#if` lines beside them, flat).
            return node.kind == "source_file"
        }
        return found
    }
}
