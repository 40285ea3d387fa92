import Foundation
import Workspace

/// The files of modules named by a developer (`--module FeedUI`): a SwiftPM target, an Xcode
/// project folder or a `modules:` entry of `.swiftmod.yml`, so that one can dry-run a codemod on
/// "my module" without knowing its paths. A file is in a module as the module map says: a target
/// nested in another's folder keeps its own files.
public struct ModuleSelection: Sendable {
    /// A name that is no module of the repository.
    public struct UnknownModule: Error, CustomStringConvertible {
        public var name: String
        /// The closest known names first (then the others, alphabetically), at most 20.
        public var suggestions: [String]
        /// How many modules there are.
        public var known: Int

        public var description: String {
            guard known > 0 else {
                return "no module '\(name)': this repository has no modules (SwiftPM targets, folders with an .xcodeproj, or `modules:` in \(Configuration.fileName))"
            }
            let more = known > suggestions.count ? ", … (\(known) in all; `swiftmod modules` lists them)" : ""
            return "no module '\(name)' (known: \(suggestions.joined(separator: ", "))\(more))"
        }
    }

    public let map: ModuleMap
    public let names: [String]

    /// - Throws: `UnknownModule` for the first name that is no module.
    public init(names: [String], root: String, configuration: Configuration?) throws {
        map = ModuleMap.discover(root: root, configuration: configuration)
        self.names = names
        let known = Set(map.folders.map(\.name) + map.explicit.map(\.name))
        for name in names where !known.contains(name) {
            throw UnknownModule(name: name, suggestions: Self.closest(to: name, among: known), known: known.count)
        }
    }

    /// The repo-relative folders to walk for these modules ("" for a `modules:` entry, whose
    /// globs may match anywhere).
    public var folders: [String] {
        var result: [String] = []
        for name in names {
            if map.explicit.contains(where: { $0.name == name }) { return [""] }
            result += map.folders.filter { $0.name == name }.map(\.path)
        }
        return Array(Set(result)).sorted()
    }

    /// Whether a repo-relative file is in one of the modules.
    public func contains(_ relative: String) -> Bool {
        names.contains(map.module(of: relative))
    }

    /// Known names by likeness: the same letters ignoring case, then containing or contained,
    /// then sharing the longest prefix.
    static func closest(to name: String, among known: Set<String>, limit: Int = 20) -> [String] {
        let wanted = name.lowercased()
        func score(_ candidate: String) -> Int {
            let lower = candidate.lowercased()
            if lower == wanted { return 1000 }
            if lower.contains(wanted) || wanted.contains(lower) { return 500 }
            return zip(lower, wanted).prefix { $0 == $1 }.count
        }
        return known.sorted { (score($1), $0) < (score($0), $1) }.prefix(limit).map { $0 }
    }
}
