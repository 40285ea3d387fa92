import CodemodKit
import Foundation
import SwiftTree
import Workspace

/// The modules of a repository and what depends on what: SwiftPM target dependencies (from every
/// `Package.swift`) and `import`s between known modules (from the Swift files of each module),
/// with each module's type (`module-types:` of `.swiftmod.yml`) and owners (CODEOWNERS).
public struct ModuleGraph: Sendable {
    /// One edge: a module that a module depends on, and where that is written.
    public struct Dependency: Encodable, Sendable, Equatable {
        public var module: String
        /// `package` (a SwiftPM target dependency) or `import` (an `import` in a Swift file).
        public var kind: String
        /// Repo-relative.
        public var file: String
        public var line: Int
        /// The import declaration (`import FeedCore`) or the dependency (`"FeedCore"`) as written.
        public var text: String
        /// Where it is written on its line.
        public var start: ImportScanner.Columns
        public var end: ImportScanner.Columns

        enum CodingKeys: String, CodingKey { case module, kind, file, line, column, text }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(module, forKey: .module)
            try container.encode(kind, forKey: .kind)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(start.byte, forKey: .column)
            try container.encode(text, forKey: .text)
        }
    }

    /// A dependency a module's type forbids: an `import` of a module its type may not import, or
    /// a dependency (SwiftPM or `import`) on a module whose type or name its type may not depend on.
    public struct Violation: Encodable, Sendable, Equatable {
        /// `may-not-import` or `may-not-depend-on`.
        public var rule: String
        /// The module's type.
        public var type: String
        /// The module depended on (`target`), where (`kind`, `file`, `line`, …).
        public var dependency: Dependency
        public var message: String

        public var target: String { dependency.module }
        public var kind: String { dependency.kind }
        public var file: String { dependency.file }
        public var line: Int { dependency.line }

        enum CodingKeys: String, CodingKey { case rule, type, message }

        /// The rule, the type and the message, beside the dependency's fields (`module` is the
        /// module depended on).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(type, forKey: .type)
            try container.encode(message, forKey: .message)
            try dependency.encode(to: encoder)
        }
    }

    /// A dependency that lies on a dependency cycle, with the shortest cycle through it:
    /// `modules` runs from the module that depends, along the dependency, back to itself.
    public struct Cycle: Encodable, Sendable, Equatable {
        public var modules: [String]
        /// The dependency: from the first module of `modules` to the second (its first place).
        public var closedBy: Dependency
    }

    public struct Module: Encodable, Sendable {
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
        /// Its dependencies that lie on a cycle, each with the shortest cycle through it.
        public var cycles: [Cycle] = []
    }

    /// Sorted by name.
    public var modules: [Module]
    /// The `swiftmod:allow` line comments of the files read (module files and manifests), by
    /// repo-relative file: allow comments for module rules are matched against them.
    public var allowComments: [String: [ImportScanner.Comment]] = [:]
    /// Files that could not be read (their imports are unknown).
    public var failures: [FileFailure] = []
    /// Every place where a module of the repository depends on another (all its imports and
    /// manifest entries, not only the first), by `ModuleGraph.key(from:to:)`.
    public var places: [String: [Dependency]] = [:]

    /// The key of the places where `from` depends on `to`.
    public static func key(from: String, to: String) -> String { "\(from)\u{0}\(to)" }

    /// Builds the graph from the module map and the Swift files (absolute paths under the root).
    public static func discover(root: String, configuration: Configuration, files: [String], jobs: Int? = nil) -> ModuleGraph {
        discover(map: ModuleMap.discover(root: root, configuration: configuration), root: root,
                 configuration: configuration, files: files, jobs: jobs)
    }

    /// Builds the graph from a module map and the Swift files (absolute paths under the root).
    public static func discover(map: ModuleMap, root: String, configuration: Configuration, files: [String], jobs: Int? = nil) -> ModuleGraph {
        let (sources, failures) = readSources(files, root: root, configuration: configuration, jobs: jobs)
        return build(map: map, root: root, configuration: configuration, sources: sources, failures: failures)
    }

    /// What one file read for the graph says: its imports and its `swiftmod:allow` comments.
    public struct SourceFile: Sendable, Equatable {
        /// Repo-relative.
        public var file: String
        public var scan: ImportScanner.Result

        public init(file: String, scan: ImportScanner.Result) {
            self.file = file
            self.scan = scan
        }
    }

    /// Reads the imports and allow comments of files (absolute paths under the root; others are
    /// left out), on all cores, in their order; files that cannot be read are failures (unless
    /// skipped on purpose, as a file over the size limit).
    /// How big a file's imports may be read: sixteen times `max-file-size`.
    static func importSizeLimit(_ configuration: Configuration) -> Int {
        let limit = configuration.maxFileSize ?? SourceFileReader.defaultMaxFileSize
        return limit > Int.max / 16 ? Int.max : limit * 16
    }

    public static func readSources(_ files: [String], root: String, configuration: Configuration, jobs: Int? = nil)
        -> (sources: [SourceFile], failures: [FileFailure]) {
        let read = files.compactMap { path in RepositoryPath.relative(path, root: root).map { (path: path, relative: $0) } }
        // Reading imports is linear and needs no tree: a file too large to parse (a generated one,
        // say) still has its imports judged, up to sixteen times the limit.
        let reader = SourceFileReader(maxFileSize: Self.importSizeLimit(configuration))
        let scanned = ParallelMap.map(read, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, worker: {}) { _, file -> Result<ImportScanner.Result, SourceFileError> in
            do {
                var bytes = try reader.bytes(ofFile: file.path)
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
                return .success(ImportScanner.scan(bytes))
            } catch let error as SourceFileError {
                return .failure(error)
            } catch {
                return .failure(.unreadable(path: file.path, reason: "\(error)"))
            }
        }
        var sources: [SourceFile] = []
        var failures: [FileFailure] = []
        for (file, outcome) in zip(read, scanned) {
            switch outcome {
            case let .success(scan): sources.append(SourceFile(file: file.relative, scan: scan))
            case let .failure(error):
                // A file too large even for its imports cannot be judged by the module rules: a
                // failure, never a silent skip.
                var reason = error.reason
                if case let .tooLarge(_, size, limit) = error {
                    reason = "its imports were not read: \(ByteSize.describe(size)) is over \(ByteSize.describe(limit)), sixteen times max-file-size; raise max-file-size or exclude the file"
                }
                failures.append(FileFailure(file: file.relative, reason: reason))
            }
        }
        return (sources, failures)
    }

    /// Builds the graph from a module map and what the files say (`readSources`).
    /// - Parameters:
    ///   - owners: the repository's CODEOWNERS (default: read from the root).
    ///   - moduleOf: the module of a repo-relative file (default: the map's answer; a caller that
    ///     builds graphs again and again remembers it).
    public static func build(map: ModuleMap, root: String, configuration: Configuration, sources: [SourceFile],
                             failures: [FileFailure] = [], owners: CodeOwners? = nil,
                             moduleOf: ((String) -> String)? = nil) -> ModuleGraph {
        let owners = owners ?? CodeOwners.load(root: root)
        let moduleOf = moduleOf ?? map.module(of:)
        var folders: [String: (path: String, source: String)] = [:]
        for folder in map.folders where folders[folder.name] == nil { folders[folder.name] = (folder.path, folder.source) }
        for (name, globs) in map.explicit where folders[name] == nil {
            folders[name] = (globs.first?.pattern ?? "", Configuration.fileName)
        }
        var edges: [String: [Dependency]] = [:]
        var imports: [String: Set<String>] = [:]
        for (module, dependencies) in map.packageDependencies {
            edges[module, default: []] += dependencies.map {
                Dependency(module: $0.name, kind: "package", file: $0.file, line: $0.line, text: $0.text, start: $0.start, end: $0.end)
            }
        }
        // The files of modules are read for their imports. A manifest, or a file in no module, is
        // no module's source, but may hold allow comments for module rules: one there allows
        // nothing, and must be reported (the scanner leaves module rules' comments to us).
        var allowComments: [String: [ImportScanner.Comment]] = [:]
        for source in sources {
            if !source.scan.allowComments.isEmpty { allowComments[source.file] = source.scan.allowComments }
            guard !PackageManifest.isManifest(source.file) else { continue }
            let module = moduleOf(source.file)
            guard module != ModuleMap.noModule else { continue }
            for found in source.scan.imports where found.module != module {
                imports[module, default: []].insert(found.module)
                edges[module, default: []].append(Dependency(module: found.module, kind: "import", file: source.file, line: found.line,
                                                             text: found.text, start: found.start, end: found.end))
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
                        violations.append(Violation(rule: "may-not-import", type: type.name, dependency: edge,
                                                    message: "\(name) (\(type.name)) may not import \(edge.module)"))
                    }
                    let targetType = (types[edge.module] ?? nil)?.name
                    if folders[edge.module] != nil,
                       type.mayNotDependOn.contains(edge.module) || targetType.map(type.mayNotDependOn.contains) == true {
                        violations.append(Violation(rule: "may-not-depend-on", type: type.name, dependency: edge,
                                                    message: "\(name) (\(type.name)) may not depend on \(edge.module)\(targetType.map { " (\($0))" } ?? "")"))
                    }
                }
            }
            violations.sort { ($0.file, $0.line, $0.dependency.start.byte, $0.rule) < ($1.file, $1.line, $1.dependency.start.byte, $1.rule) }
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
        var graph = ModuleGraph(modules: modules, allowComments: allowComments, failures: failures)
        for (name, list) in edges where folders[name] != nil {
            for edge in list where edge.module != name && folders[edge.module] != nil {
                graph.places[key(from: name, to: edge.module), default: []].append(edge)
            }
        }
        graph.findCycles()
        return graph
    }

    /// Finds the dependencies that lie on cycles: those within a group of modules that depend on
    /// each other (a strongly connected component of more than one module), each with the
    /// shortest cycle through it, recorded on the module that depends.
    ///
    /// Dependencies, not cycles, are what is locked down: removing a dependency can only take
    /// dependencies off cycles, never put one on, so fixing never makes a finding; adding one
    /// puts on cycles exactly the dependencies that are newly on one.
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
        var predecessors = [[Int]](repeating: [], count: modules.count)
        for (node, list) in successors.enumerated() { for next in list { predecessors[next].append(node) } }
        for component in components {
            let members = Set(component)
            // One breadth-first search from each module `to` of the group gives the shortest way
            // from it back to every module that depends on it: O(modules × dependencies) per group.
            var cameFrom = [Int](repeating: -1, count: modules.count)
            for to in component.sorted() {
                for node in component { cameFrom[node] = -1 }
                cameFrom[to] = to
                var queue = [to], head = 0
                while head < queue.count {
                    let node = queue[head]; head += 1
                    for next in successors[node] where members.contains(next) && cameFrom[next] < 0 {
                        cameFrom[next] = node
                        queue.append(next)
                    }
                }
                for from in predecessors[to] where members.contains(from) && from != to && cameFrom[from] >= 0 {
                    guard let edge = modules[from].dependencies.first(where: { $0.module == modules[to].name }) else { continue }
                    // from → to → … → from.
                    var back = [from]
                    while back.last != to { back.append(cameFrom[back.last!]) }
                    let ring = [from] + back.reversed()
                    modules[from].cycles.append(Cycle(modules: ring.map { modules[$0].name }, closedBy: edge))
                }
            }
        }
        for index in modules.indices { modules[index].cycles.sort { $0.modules.lexicographicallyPrecedes($1.modules) } }
    }
}
