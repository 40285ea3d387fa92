import Foundation
import Migrations

/// The shape of the repository for the report: each module with its type and what is left of
/// its violations, each dependency (forbidden, or on a cycle), and per module type how many
/// violations are left.
public struct ModuleOverview: Codable, Sendable, Equatable {
    public struct Module: Codable, Sendable, Equatable {
        public var name: String
        public var type: String?
        public var owners: [String]
        /// Violations of module rules left in the module (not allowed inline).
        public var violations: Int
        /// A module from outside the repository (`UIKit`), shown because a module may not import it.
        public var external: Bool = false
    }

    public struct Edge: Codable, Sendable, Equatable {
        public var from: String
        public var to: String
        /// `import`, `package`, or both.
        public var kinds: [String]
        /// A dependency the module's type forbids (and not allowed inline everywhere it is written).
        public var forbidden: Bool
        /// A dependency the module's type forbids, allowed by a comment everywhere it is written.
        public var allowed: Bool = false
        /// A dependency on a cycle.
        public var inCycle: Bool
    }

    /// One module type and its rule.
    public struct TypeRow: Codable, Sendable, Equatable {
        public var type: String
        /// The rule's migration id; nil for a type that forbids nothing.
        public var rule: String?
        public var forbids: String
        public var modules: Int
        public var violations: Int
        public var violatingModules: Int
    }

    public var modules: [Module]
    public var edges: [Edge]
    public var types: [TypeRow]
    /// Each cycle found (the shortest through a dependency), from its first module by name, which
    /// is repeated at the end.
    public var cycles: [[String]]

    /// The overview of a module graph, with the violations left (findings of module rules).
    public init(graph: ModuleGraph, configuration: Configuration, uses: [Finding]) {
        var left: [String: Int] = [:]
        var leftByRule: [String: Int] = [:]
        for use in uses where use.kind == .use {
            guard let module = use.module else { continue }
            left[module, default: 0] += 1
            leftByRule[use.migration, default: 0] += 1
        }
        modules = graph.modules.map { Module(name: $0.name, type: $0.type, owners: $0.owners, violations: left[$0.name] ?? 0) }
        var cycleEdges = Set<String>()
        // Each cycle once (a cycle of n modules is found through each of its n dependencies),
        // starting at its first module by name.
        var distinct = Set<[String]>()
        for cycle in graph.modules.flatMap({ $0.cycles.map(\.modules) }) {
            let ring = Array(cycle.dropLast())
            guard let first = ring.indices.min(by: { ring[$0] < ring[$1] }) else { continue }
            let turned = Array(ring[first...] + ring[..<first])
            distinct.insert(turned + [turned[0]])
        }
        cycles = distinct.sorted { $0.lexicographicallyPrecedes($1) }
        for cycle in cycles { for (from, to) in zip(cycle, cycle.dropFirst()) { cycleEdges.insert("\(from)\u{0}\(to)") } }
        // A violation is left where a use of a module rule still stands at its place.
        let standing = Set(uses.filter { $0.kind == .use && $0.module != nil }.map { "\($0.file)\u{0}\($0.line)" })
        func stands(_ violation: ModuleGraph.Violation) -> Bool { standing.contains("\(violation.file)\u{0}\(violation.line)") }
        edges = graph.modules.flatMap { module -> [Edge] in
            let forbidden = Set(module.violations.map(\.target))
            let standingTargets = Set(module.violations.filter(stands).map(\.target))
            return Dictionary(grouping: module.dependencies, by: \.module).keys.sorted().map { target in
                Edge(from: module.name, to: target, kinds: module.dependencies.filter { $0.module == target }.map(\.kind),
                     forbidden: standingTargets.contains(target), allowed: forbidden.contains(target) && !standingTargets.contains(target),
                     inCycle: cycleEdges.contains("\(module.name)\u{0}\(target)"))
            }
        }
        // What a type may not import is outside the repository: drawn, so that the import is.
        let known = Set(modules.map(\.name))
        var outside = Set<String>()
        for module in graph.modules {
            let outsideViolations = module.violations.filter { $0.rule == "may-not-import" && !known.contains($0.target) }
            for target in Set(outsideViolations.map(\.target)).sorted() {
                let standing = outsideViolations.contains { $0.target == target && stands($0) }
                edges.append(Edge(from: module.name, to: target, kinds: ["import"], forbidden: standing, allowed: !standing, inCycle: false))
                outside.insert(target)
            }
        }
        modules += outside.sorted().map { Module(name: $0, type: nil, owners: [], violations: 0, external: true) }
        types = configuration.moduleTypes.map { type in
            let rule = configuration.migrations.first { $0.rule == .moduleType(type.name) }?.id
            let members = graph.modules.filter { $0.type == type.name }
            var forbids: [String] = []
            if !type.mayNotImport.isEmpty { forbids.append("may not import \(type.mayNotImport.joined(separator: ", "))") }
            if !type.mayNotDependOn.isEmpty { forbids.append("may not depend on \(type.mayNotDependOn.joined(separator: ", "))") }
            return TypeRow(type: type.name, rule: rule, forbids: forbids.joined(separator: "; "), modules: members.count,
                           violations: rule.flatMap { leftByRule[$0] } ?? 0,
                           violatingModules: members.filter { (left[$0.name] ?? 0) > 0 && rule != nil }.count)
        }
    }
}
