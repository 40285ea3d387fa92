import Foundation
import SwiftTree
import Workspace

/// Which module each file belongs to, derived from the repository's layout: explicit `modules:`
/// globs of `.swiftmod.yml` first, then the nearest enclosing SwiftPM target (its `path:`, or
/// `Sources/<Target>`, `Tests/<Target>`, `Plugins/<Target>` by default, from any `Package.swift`)
/// or Xcode project folder (a folder holding `Name.xcodeproj` is module `Name`). Files in none
/// are in no module.
public struct ModuleMap: Sendable {
    /// A folder that is a module.
    public struct Folder: Sendable, Equatable {
        /// Repo-relative, without a trailing slash ("" is the root).
        public var path: String
        public var name: String
        /// Where the module was found (`Packages/Feed/Package.swift`, an `.xcodeproj`).
        public var source: String
    }

    public static let noModule = "(no module)"

    public var explicit: [(name: String, globs: [Glob])]
    public var folders: [Folder]
    /// The SwiftPM target dependencies of each module, each where it is written (the manifest,
    /// repo-relative).
    public var packageDependencies: [String: [DependencySite]] = [:]
    /// Manifests that could not be read (not UTF-8, say): their targets are unknown.
    public var unreadableManifests: [FileFailure] = []

    /// A module named where a dependency is declared: an element of a target's `dependencies:`.
    public struct DependencySite: Sendable, Equatable {
        /// The module depended on.
        public var name: String
        /// Repo-relative.
        public var file: String
        public var line: Int
        public var start: ImportScanner.Columns
        public var end: ImportScanner.Columns
        /// The dependency as its simplest spelling writes it (`"FeedCore"`, for
        /// `.target(name: "FeedCore")` too), so that respelling it changes nothing.
        public var text: String
    }

    public init(explicit: [(name: String, globs: [Glob])], folders: [Folder]) {
        self.explicit = explicit
        // Deepest first, so the nearest folder wins.
        self.folders = folders.sorted { ($0.path.count, $0.path) > ($1.path.count, $1.path) }
        for folder in self.folders where byPath[folder.path] == nil { byPath[folder.path] = folder.name }
    }

    /// The module of each folder that is one: a file's module is found by its folders, nearest
    /// first, not by trying every module.
    private var byPath: [String: String] = [:]

    /// Discovers the modules of a repository.
    /// - Parameter manifestTexts: texts to read instead of some manifests' files (repo-relative
    ///   path → text: an editor's unsaved `Package.swift`).
    public static func discover(root: String, configuration: Configuration?, manifestTexts: [String: String] = [:]) -> ModuleMap {
        var folders: [Folder] = []
        var dependencies: [String: [DependencySite]] = [:]
        var unreadable: [FileFailure] = []
        // What `exclude:` leaves out (test fixtures, vendored code) declares no module.
        let excluded = { (relative: String) in configuration?.exclude.contains { $0.matches(relative) } == true }
        var manifests = FileWalker().entries(under: root, named: { $0 == "Package.swift" }).compactMap { manifest -> (String, String)? in
            let relative = RepositoryPath.relative(manifest, root: root) ?? manifest
            return excluded(relative) ? nil : (manifest, relative)
        }
        // A manifest known only by its text (an editor's new, unsaved `Package.swift`).
        let found = Set(manifests.map(\.1))
        for relative in manifestTexts.keys.sorted() where !found.contains(relative) && !excluded(relative)
            && (relative as NSString).lastPathComponent == "Package.swift" {
            manifests.append(((root as NSString).appendingPathComponent(relative), relative))
        }
        // Manifests are parsed on all cores (hundreds of packages), then read in order.
        let parsed = ParallelMap.map(manifests, jobs: ProcessInfo.processInfo.activeProcessorCount, worker: { Parser() }) { parser, manifest in
            Result { () -> (SourceText, [PackageManifest.Target]) in
                let source = try manifestTexts[manifest.1].map { SourceText($0) } ?? SourceText(contentsOfFile: manifest.0)
                return (source, PackageManifest.targets(in: parser.parse(source)))
            }
        }
        for ((_, relative), outcome) in zip(manifests, parsed) {
            let packageFolder = (relative as NSString).deletingLastPathComponent
            let source: SourceText, targets: [PackageManifest.Target]
            switch outcome {
            case let .success((text, found)): (source, targets) = (text, found)
            case let .failure(error):
                unreadable.append(FileFailure(file: relative, reason: "\(error)"))
                continue
            }
            for target in targets {
                let path = target.path ?? PackageManifest.defaultPath(of: target, in: RepositoryPath.absolute(packageFolder, root: root))
                let full = packageFolder.isEmpty ? path : "\(packageFolder)/\(path)"
                // `path: "."` is the package's own folder; `A/../B` is `B`.
                let tidy = DisplayPath.lexicallyNormalized(full)
                folders.append(Folder(path: tidy == "." ? "" : tidy, name: target.name, source: relative))
                dependencies[target.name, default: []] += target.dependencies.map { dependency in
                    DependencySite(name: dependency.name, file: relative, line: dependency.start.line,
                                   start: ImportScanner.Columns(dependency.start, in: source),
                                   end: ImportScanner.Columns(dependency.end, in: source),
                                   // Named as written most simply: `.target(name: "X")` and `"X"` are one dependency.
                                   text: "\"\(dependency.name)\"")
                }
            }
        }
        for project in FileWalker().entries(under: root, named: { $0.hasSuffix(".xcodeproj") }, folders: true) {
            let relative = RepositoryPath.relative(project, root: root) ?? project
            if excluded(relative) || excluded(relative + "/project.pbxproj") { continue }
            let name = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            folders.append(Folder(path: (relative as NSString).deletingLastPathComponent, name: name, source: relative))
        }
        var map = ModuleMap(explicit: configuration?.modules ?? [], folders: folders)
        map.packageDependencies = dependencies
        map.unreadableManifests = unreadable
        return map
    }

    /// Whether a repo-relative path is a package manifest (`Package.swift`, `Package@swift-X.swift`).
    public static func isManifest(_ path: String) -> Bool { PackageManifest.isManifest(path) }

    /// The module of a repo-relative file path.
    public func module(of path: String) -> String {
        for (name, globs) in explicit where globs.contains(where: { $0.matches(path) }) { return name }
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if let name = byPath[String(folder)] { return name }
        }
        return byPath[""] ?? Self.noModule
    }
}

import CodemodKit

/// Reads the targets of a `Package.swift` from its syntax tree (it is never run).
enum PackageManifest {
    /// Whether a (repo-relative) path is a package manifest: `Package.swift` or a version-specific
    /// `Package@swift-5.9.swift` (only `Package.swift` is read for targets).
    static func isManifest(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name == "Package.swift" || (name.hasPrefix("Package@swift") && name.hasSuffix(".swift"))
    }

    struct Target {
        var name: String
        var path: String?
        var defaultFolder: String
        /// The target's dependencies (targets, products, by-name), each where it is written.
        var dependencies: [(name: String, start: SourceLocation, end: SourceLocation)] = []
    }

    /// Where SwiftPM looks for a target without `path:`: the first of its predefined folders
    /// (`Sources`, `Source`, `src`, `srcs`; tests also `Tests` first; plugins `Plugins`) that holds
    /// a folder named like the target, else the first.
    static func defaultPath(of target: Target, in packageFolder: String) -> String {
        let candidates: [String]
        switch target.defaultFolder {
        case "Tests": candidates = ["Tests", "Sources", "Source", "src", "srcs"]
        case "Plugins": candidates = ["Plugins"]
        default: candidates = ["Sources", "Source", "src", "srcs"]
        }
        let found = candidates.first { folder in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(packageFolder)/\(folder)/\(target.name)", isDirectory: &isFolder) && isFolder.boolValue
        }
        return "\(found ?? candidates[0])/\(target.name)"
    }

    static let kinds: [String: String] = [
        "target": "Sources", "executableTarget": "Sources", "macro": "Sources", "systemLibrary": "Sources",
        "binaryTarget": "Sources", "testTarget": "Tests", "plugin": "Plugins",
    ]

    /// The value of a string literal as the compiler reads it (raw strings, escapes); nil for
    /// other expressions and interpolations.
    static func stringValue(_ literal: Node) -> String? {
        // `"Feed" + "Service"` is "FeedService" to SwiftPM, and to the module map.
        if literal.kind == "additive_expression", literal.namedChildren.count == 2,
           literal.children.contains(where: { $0.text == "+" }) {
            guard let left = stringValue(literal.namedChildren[0]), let right = stringValue(literal.namedChildren[1]) else { return nil }
            return left + right
        }
        if literal.kind == "tuple_expression", literal.namedChildren.count == 1 { return stringValue(literal.namedChildren[0]) }
        return StringLiteral.value(of: literal)
    }

    /// The name a dependency names: `"X"`, `.target(name: "X")`, `.product(name: "X", package:)`,
    /// `.byName(name: "X")`.
    static func dependency(_ element: Node) -> String? {
        if element.kind != "call_expression" { return stringValue(element) }
        guard element.kind == "call_expression",
              let argument = element.descendants.first(where: { $0.kind == "value_argument" && $0.child(field: "name")?.text == "name" }),
              let value = argument.child(field: "value") else { return nil }
        return stringValue(value)
    }

    static func targets(in tree: SyntaxTree) -> [Target] {
        var result: [Target] = []
        tree.root.walk { node in
            // What names targets without declaring one: products (`.plugin(name:targets:)`),
            // dependencies, and values typed as a dependency (`let d: Target.Dependency = .target(…)`).
            if node.kind == "value_argument", let label = node.child(field: "name")?.text,
               label == "products" || label == "dependencies" { return false }
            if node.kind == "property_declaration",
               node.namedChildren.contains(where: { $0.kind == "type_annotation" && $0.text.contains("Dependency") }) { return false }
            guard node.kind == "call_expression",
                  let callee = node.namedChildren.first, callee.kind == "prefix_expression" || callee.kind == "navigation_expression",
                  // `.target(…)`, or spelled out: `Target.target(…)`, `PackageDescription.Target.target(…)`.
                  let kind = kinds[String(callee.text.split(separator: ".").last ?? "")],
                  callee.kind == "prefix_expression" || callee.text.hasSuffix("Target.\(callee.text.split(separator: ".").last ?? "")")
            else { return true }
            var name: String?
            var path: String?
            var dependencies: [(name: String, start: SourceLocation, end: SourceLocation)] = []
            for argument in node.descendants where argument.kind == "value_argument" && argument.parent?.parent?.parent == node {
                let label = argument.child(field: "name")?.text
                guard let value = argument.child(field: "value") else { continue }
                if label == "dependencies", value.kind == "array_literal" {
                    dependencies = value.namedChildren.compactMap { element in
                        dependency(element).map { ($0, element.start, element.end) }
                    }
                    continue
                }
                guard let text = stringValue(value) else { continue }
                if label == "name" { name = text } else if label == "path" { path = text }
            }
            if let name { result.append(Target(name: name, path: path, defaultFolder: kind, dependencies: dependencies)) }
            // Not into its arguments: `.target(name: "X")` among its dependencies names a
            // dependency, not another target.
            return false
        }
        return result
    }
}
