import InterfaceBuilder

/// Classes of one name declared in several files that targets build (an iOS app's and a macOS
/// app's `ProfileViewController`, an app's and its extension's), told apart before the verdicts:
/// Interface Builder names a class by its name and module (`customModule`, or the target that
/// builds the storyboard with `customModuleProvider="target"`), and a storyboard is UIKit's or
/// AppKit's.
///
/// An object of such a class goes to the declaration in its module, else to the one of its
/// platform (a file importing UIKit, or AppKit); each declaration is then named apart, with what
/// tells it from the others (`ProfileViewController (AppKit)`, `ShareCell (ShareExtension)`), in
/// the Interface Builder objects that use it and in the code of its module (its extensions, its
/// subclasses). When some object could be either, the classes stay one (as their name is all
/// that is known).
public enum SameNamedClasses {
    typealias SwiftFile = (path: String, outlets: SwiftOutlets)

    /// The documents and files with same-named classes named apart.
    /// - Parameter modules: the modules (targets) that build each file, by its path as given.
    static func separate(documents: [IBDocument], swift: [SwiftFile], modules: [String: Set<String>]) -> ([IBDocument], [SwiftFile]) {
        // (Each file's names are looked at in place, not gathered into sets: thousands of files.)
        var declaring: [String: [Int]] = [:]
        for index in swift.indices {
            for declared in swift[index].outlets.classes where declaring[declared.name]?.last != index {
                declaring[declared.name, default: []].append(index)
            }
        }
        let shared = declaring.filter { $0.value.count > 1 }
        guard !shared.isEmpty else { return (documents, swift) }
        var documents = documents
        var swift = swift
        let fileModules = swift.map { modules[$0.path] ?? [] }
        let platforms = swift.map(\.outlets.platform)
        /// The declarations (file indexes) of a name a file, a module set and a platform point to.
        func narrowed(_ candidates: [Int], modules wanted: Set<String>, platform: IBDocument.Platform) -> [Int] {
            var left = candidates
            if !wanted.isEmpty {
                let inModule = left.filter { !fileModules[$0].isDisjoint(with: wanted) }
                if !inModule.isEmpty { left = inModule }
            }
            if platform != .unknown {
                let onPlatform = left.filter { platforms[$0] == platform }
                if !onPlatform.isEmpty { left = onPlatform }
            }
            return left
        }
        // The files that say something of each shared name, and its objects (found once: a
        // repository of several apps shares hundreds of names).
        var mentioning: [String: [Int]] = [:]
        for index in swift.indices {
            swift[index].outlets.forEachMentionedClass { name in
                if shared[name] != nil, mentioning[name]?.last != index { mentioning[name, default: []].append(index) }
            }
        }
        var objects: [String: [(document: Int, object: Int)]] = [:]
        for (documentIndex, document) in documents.enumerated() {
            for (objectIndex, object) in document.objects.enumerated() {
                if let name = object.customClass, shared[name] != nil { objects[name, default: []].append((documentIndex, objectIndex)) }
            }
        }
        for (name, candidates) in shared.sorted(by: { $0.key < $1.key }) {
            // Every other file that says something of the class (an extension, a subclass) must
            // be of the module (or platform) of one declaration: a file two targets build could
            // be either's.
            var code: [(file: Int, declaration: Int)] = []
            var resolved = true
            for index in mentioning[name] ?? [] where !candidates.contains(index) {
                let left = narrowed(candidates, modules: fileModules[index], platform: platforms[index])
                guard left.count == 1 else { resolved = false; break }
                code.append((index, left[0]))
            }
            guard resolved else { continue }
            // Every object of the class must point to one declaration.
            var chosen: [(document: Int, object: Int, file: Int)] = []
            for (documentIndex, objectIndex) in objects[name] ?? [] {
                let document = documents[documentIndex], object = document.objects[objectIndex]
                let wanted = object.moduleFromTarget ? (modules[document.path] ?? []) : Set(object.customModule.map { [$0] } ?? [])
                let left = narrowed(candidates, modules: wanted, platform: document.platform)
                guard left.count == 1 else { resolved = false; break }
                chosen.append((documentIndex, objectIndex, left[0]))
            }
            // (No object of it: a base class whose subclasses are used; its code decides.)
            guard resolved else { continue }
            let labels = Self.labels(of: candidates, in: swift, modules: modules)
            for (documentIndex, objectIndex, file) in chosen {
                documents[documentIndex].objects[objectIndex].customClass = "\(name) (\(labels[file]!))"
            }
            for declaration in candidates { swift[declaration].outlets.rename(name, to: "\(name) (\(labels[declaration]!))") }
            for (file, declaration) in code { swift[file].outlets.rename(name, to: "\(name) (\(labels[declaration]!))") }
        }
        return (documents, swift)
    }

    /// A class's name without what tells it apart: `Cell (AppKit)` → `Cell`.
    public static func name(of separated: String) -> String {
        guard separated.hasSuffix(")"), let open = separated.range(of: " (") else { return separated }
        return String(separated[..<open.lowerBound])
    }

    /// What tells each declaration apart: its platform when theirs differ, else its module, else its file.
    static func labels(of candidates: [Int], in swift: [SwiftFile], modules: [String: Set<String>]) -> [Int: String] {
        let platforms = candidates.map { swift[$0].outlets.platform }
        if Set(platforms).count == candidates.count, !platforms.contains(.unknown) {
            return Dictionary(uniqueKeysWithValues: candidates.map { ($0, swift[$0].outlets.platform == .uiKit ? "UIKit" : "AppKit") })
        }
        let moduleNames = candidates.map { (modules[swift[$0].path] ?? []).sorted().joined(separator: ", ") }
        if Set(moduleNames).count == candidates.count, !moduleNames.contains("") {
            return Dictionary(uniqueKeysWithValues: zip(candidates, moduleNames).map { ($0, $1) })
        }
        return Dictionary(uniqueKeysWithValues: candidates.map { ($0, swift[$0].path) })
    }
}

extension SwiftOutlets {
    /// Calls `body` with each class the file says something of (some more than once): those it
    /// declares, extends or subclasses (every type it extends, read whole or by its text), or
    /// whose code does something to views.
    func forEachMentionedClass(_ body: (String) -> Void) {
        for declared in classes {
            body(declared.name)
            if let superclass = declared.superclass { body(superclass) }
        }
        // What it extends, whatever the extension holds (read whole or by its text alone, it
        // says the same: a file two targets build may extend either class).
        for name in deferredExtensions ?? extendedTypes { body(name) }
        for outlet in outlets { body(outlet.className) }
        for name in actions.keys { body(name) }
        for name in members.keys { body(name) }
        for name in memberUses.keys { body(name) }
        // (Each list on its own: an array of them would be made for every file.)
        for use in removals { body(use.className) }
        for use in containerRemovals { body(use.className) }
        for use in additions { body(use.className) }
        for call in helperCalls { body(call.className) }
    }

    /// The same file with a class (its declaration, its extensions' members and code, and where
    /// it is a superclass) under another name.
    mutating func rename(_ name: String, to newName: String) {
        for index in classes.indices {
            if classes[index].name == name { classes[index].name = newName }
            if classes[index].superclass == name { classes[index].superclass = newName }
        }
        for index in extendedTypes.indices where extendedTypes[index] == name { extendedTypes[index] = newName }
        for index in outlets.indices where outlets[index].className == name { outlets[index].className = newName }
        if let found = actions.removeValue(forKey: name) { actions[newName] = found }
        if let found = members.removeValue(forKey: name) { members[newName] = found }
        if let found = memberUses.removeValue(forKey: name) { memberUses[newName] = found }
        for index in removals.indices where removals[index].className == name { removals[index].className = newName }
        for index in containerRemovals.indices where containerRemovals[index].className == name { containerRemovals[index].className = newName }
        for index in additions.indices where additions[index].className == name { additions[index].className = newName }
        for index in helperCalls.indices where helperCalls[index].className == name { helperCalls[index].className = newName }
        // (Made again only when one is the class's: a file is renamed in once per shared name.)
        if helpers.contains(where: { $0.owner == name }) {
            helpers = Set(helpers.map { helper in
                var renamed = helper
                if renamed.owner == name { renamed.owner = newName }
                return renamed
            })
        }
    }
}
