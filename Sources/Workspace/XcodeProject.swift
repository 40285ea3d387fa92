import Foundation

/// An Xcode project (`Foo.xcodeproj/project.pbxproj`) as far as which files its targets build:
/// the files of their build phases (sources, resources: a localized storyboard's every variant)
/// and their synchronized folders (Xcode 16: every file under the folder, but those an exception
/// set takes out of the target, and with those an exception set of another folder puts in).
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder.
    public var path: String
    /// The folder the project's paths start from (the one holding the `.xcodeproj`).
    public var sourceRoot: String
    /// Each target: its name, its module's name, and what it builds.
    public var targets: [Target] = []

    /// A target of the project.
    public struct Target: Sendable {
        public var name: String
        /// The names of its module, as Interface Builder's `customModule` spells them:
        /// `PRODUCT_MODULE_NAME` where a configuration sets one, else the product's (or target's)
        /// name with what an identifier cannot hold as `_` (`Rocket.Chat` → `Rocket_Chat`,
        /// `2Widget` → `_2Widget`).
        public var modules: Set<String>
        public var files: Set<String> = []
        /// Synchronized folders: every file under them, but `excluded`.
        public var folders: [String] = []
        /// Files and folders (all they hold) an exception set takes out of `folders`.
        public var excluded: Set<String> = []
        /// Its id in the project.
        public var id = ""

        public func builds(_ file: String) -> Bool {
            files.contains(file) || folders.contains { file.hasPrefix($0 + "/") } && !excluded.contains { file == $0 || file.hasPrefix($0 + "/") }
        }
    }

    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads `project.pbxproj` inside an `.xcodeproj` folder.
    public init(path: String) throws {
        // Absolute: the paths it builds are compared with absolute ones.
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = path
        sourceRoot = (path as NSString).deletingLastPathComponent
        let file = (path as NSString).appendingPathComponent("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: file) else { throw ReadError(path: file, reason: "cannot be read") }
        let plist: PropertyList
        do {
            plist = try PropertyList(bytes: [UInt8](data))
        } catch {
            throw ReadError(path: file, reason: "not a property list (\(error))")
        }
        guard let objects = plist["objects"]?.dictionary, let rootID = plist["rootObject"]?.string, let root = objects[rootID] else {
            throw ReadError(path: file, reason: "not an Xcode project (no objects or root object)")
        }
        var paths: [String: [String]] = [:]
        var visited: Set<String> = []
        let standardizer = PathStandardizer()
        func visit(_ id: String, parent: String) {
            guard let object = objects[id], visited.insert(id).inserted else { return }
            let kind = object["isa"]?.string ?? ""
            let base: String
            switch object["sourceTree"]?.string ?? "<group>" {
            case "<group>": base = parent
            case "SOURCE_ROOT": base = sourceRoot
            case "<absolute>": base = "/"
            default: return
            }
            let own = object["path"]?.string.map { (base as NSString).appendingPathComponent($0) } ?? base
            switch kind {
            case "PBXGroup":
                for child in object["children"]?.strings ?? [] { visit(child, parent: own) }
            case "PBXVariantGroup":
                // `Base.lproj/Main.storyboard`, `fr.lproj/Main.strings`: relative to the group's folder.
                let children = object["children"]?.strings ?? []
                for child in children { visit(child, parent: base) }
                paths[id] = children.flatMap { paths[$0] ?? [] }
            case "PBXFileReference", "PBXFileSystemSynchronizedRootGroup":
                paths[id] = [standardizer.standardized(own)]
            default:
                return
            }
        }
        if let main = root["mainGroup"]?.string { visit(main, parent: sourceRoot) }
        for target in root["targets"]?.strings ?? [] {
            guard let object = objects[target] else { continue }
            let name = object["name"]?.string ?? target
            let product = object["productName"]?.string ?? name
            var identifier = String(product.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            if identifier.first?.isNumber == true { identifier = "_" + identifier }
            // `PRODUCT_MODULE_NAME`, where a configuration sets one, is the module's name.
            let configurations = object["buildConfigurationList"]?.string.flatMap { objects[$0]?["buildConfigurations"]?.strings } ?? []
            let named = Set(configurations.compactMap { configuration in
                objects[configuration]?["buildSettings"]?["PRODUCT_MODULE_NAME"]?.string.flatMap { $0.contains("$") ? nil : $0 }
            })
            var built = Target(name: name, modules: named.isEmpty ? [identifier] : named)
            built.id = target
            for phase in object["buildPhases"]?.strings ?? [] {
                for buildFile in objects[phase]?["files"]?.strings ?? [] {
                    guard let reference = objects[buildFile]?["fileRef"]?.string else { continue }
                    built.files.formUnion(paths[reference] ?? [])
                }
            }
            for group in object["fileSystemSynchronizedGroups"]?.strings ?? [] {
                if objects[group] != nil, paths[group] == nil { visit(group, parent: sourceRoot) }
                built.folders += paths[group] ?? []
            }
            targets.append(built)
        }
        // Exception sets of synchronized folders: files a target that has the folder does not
        // build, or that a target without it builds.
        // (Found once: a project holds thousands of objects, and few of them are such folders.)
        let synchronized = objects.filter { $0.value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" }
        for groupID in synchronized.keys where paths[groupID] == nil { visit(groupID, parent: sourceRoot) }
        for index in targets.indices {
            let target = targets[index].id
            let own = Set(objects[target]?["fileSystemSynchronizedGroups"]?.strings ?? [])
            for (groupID, group) in synchronized {
                guard let folder = paths[groupID]?.first else { continue }
                for exception in group["exceptions"]?.strings ?? [] {
                    guard let set = objects[exception], set["target"]?.string == target else { continue }
                    let listed = (set["membershipExceptions"]?.strings ?? []).map { standardizer.standardized((folder as NSString).appendingPathComponent($0)) }
                    if own.contains(groupID) {
                        targets[index].excluded.formUnion(listed.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
                    } else {
                        // A folder listed is every file it holds.
                        for path in listed {
                            var isFolder: ObjCBool = false
                            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                                targets[index].folders.append(path)
                            } else {
                                targets[index].files.insert(path)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether a target of the project builds a file (a standardized absolute path).
    public func builds(_ file: String) -> Bool {
        targets.contains { $0.builds(file) }
    }

    /// Whether a file lies under the project's folder (so the project would build it if anything does).
    public func covers(_ file: String) -> Bool {
        file.hasPrefix(sourceRoot + "/")
    }
}
