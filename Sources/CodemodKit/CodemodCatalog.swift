import Foundation

/// The codemods a command can use: the bundled definitions, then those of user folders (which
/// replace a bundled definition of the same id).
public struct CodemodCatalog {
    /// The definitions by id, in id order.
    public private(set) var definitions: [CodemodDefinition] = []
    /// User definitions that replace a bundled one: (id, the user file).
    public private(set) var overrides: [(id: String, origin: String)] = []

    /// Loads the bundled definitions and every definition file of the folders.
    /// - Throws: `DefinitionError` for a malformed file, or two user files with one id.
    public init(bundled: [(origin: String, yaml: String)], directories: [String] = [],
                loader: DefinitionLoader = DefinitionLoader()) throws {
        var byID: [String: CodemodDefinition] = [:]
        for entry in bundled {
            let definition = try loader.load(yaml: entry.yaml, origin: entry.origin)
            byID[definition.id] = definition
        }
        var userOrigins: [String: String] = [:]
        var seen = Set<String>()
        for directory in directories where seen.insert((directory as NSString).standardizingPath).inserted {
            for definition in try loader.loadDirectory(directory) {
                if let other = userOrigins[definition.id] {
                    throw DefinitionError(file: definition.origin, line: nil, field: "id",
                                          message: "'\(definition.id)' is already defined in \(other)")
                }
                userOrigins[definition.id] = definition.origin
                if byID[definition.id] != nil { overrides.append((definition.id, definition.origin)) }
                byID[definition.id] = definition
            }
        }
        definitions = byID.values.sorted { $0.id < $1.id }
    }

    /// The definition with an id, or loaded from a path ending in `.yml` / `.yaml`.
    public func definition(named name: String, loader: DefinitionLoader = DefinitionLoader()) throws -> CodemodDefinition? {
        if name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
            return try loader.loadFile(name)
        }
        return definitions.first { $0.id == name }
    }
}
