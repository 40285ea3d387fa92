import Foundation

/// The codemods a command can use: the bundled definitions, then those of user folders (which
/// replace a bundled definition of the same id).
public struct CodemodCatalog {
    /// The definitions by id, in id order.
    public private(set) var definitions: [CodemodDefinition] = []
    /// User definitions that replace a bundled one: (id, the user file).
    public private(set) var overrides: [(id: String, origin: String)] = []
    /// User rules left out of `definitions` (`severity: off`, another language): (id, the user
    /// file, why).
    public private(set) var leftOut: [(id: String, origin: String, reason: String)] = []

    /// Loads the bundled definitions and every definition file of the folders.
    /// - Throws: `LocatedError` for a malformed file, or two user files with one id.
    public init(bundled: [(origin: String, yaml: String)], directories: [String] = [],
                loader: DefinitionLoader = DefinitionLoader()) throws {
        var byID: [String: CodemodDefinition] = [:]
        var bundledLoader = loader
        bundledLoader.checksQueries = false
        for entry in bundled {
            let definition = try bundledLoader.load(yaml: entry.yaml, origin: entry.origin)
            byID[definition.id] = definition
        }
        var userOrigins: [String: String] = [:]
        var seen = Set<String>()
        // A folder named twice (`codemods: [.]` in the configuration and `--codemods .`) is read once.
        for directory in directories where seen.insert(URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path).inserted {
            for definition in try loader.loadDirectory(directory) {
                if let reason = definition.leftOut {
                    leftOut.append((definition.id, definition.origin, reason))
                    continue
                }
                if let other = userOrigins[definition.id] {
                    throw LocatedError(file: definition.origin, line: nil, field: "id",
                                          message: "'\(definition.id)' is already defined in \(other)")
                }
                userOrigins[definition.id] = definition.origin
                if byID[definition.id] != nil { overrides.append((definition.id, definition.origin)) }
                byID[definition.id] = definition
            }
        }
        definitions = try byID.values.map { try Self.resolve($0, in: byID) }.sorted { $0.id < $1.id }
    }

    /// A params-only definition (`extends:`) completed with its base codemod's match and rewrite.
    /// - Throws: `LocatedError` for an unknown base, or a `with:` value the base does not take.
    public static func resolve(_ definition: CodemodDefinition, in byID: [String: CodemodDefinition]) throws -> CodemodDefinition {
        guard let baseID = definition.extends else { return definition }
        guard let base = byID[baseID], base.extends == nil else {
            throw LocatedError(file: definition.origin, line: nil, field: "extends",
                                  message: "'\(baseID)' is not a codemod that can be extended (known: \(byID.values.filter { $0.extends == nil }.map(\.id).sorted().joined(separator: ", ")))")
        }
        var resolved = base
        resolved.id = definition.id
        resolved.summary = definition.summary
        resolved.why = definition.why
        resolved.replacement = definition.replacement ?? base.replacement
        resolved.docs = definition.docs ?? base.docs
        resolved.origin = definition.origin
        resolved.extends = baseID
        resolved.fixedParams = definition.fixedParams
        for (name, value) in definition.fixedParams {
            guard let index = resolved.params.firstIndex(where: { $0.name == name }) else {
                throw LocatedError(file: definition.origin, line: nil, field: "with.\(name)",
                                      message: "'\(baseID)' has no parameter '\(name)' (it takes: \(base.params.map(\.name).joined(separator: ", ")))")
            }
            resolved.params[index].defaultValue = value
        }
        resolved.matchExamples = definition.matchExamples
        resolved.noMatchExamples = definition.noMatchExamples
        resolved.fixExamples = definition.fixExamples
        return resolved
    }

    /// Completes a definition loaded on its own (a file named on the command line).
    public func resolve(_ definition: CodemodDefinition) throws -> CodemodDefinition {
        try Self.resolve(definition, in: Dictionary(uniqueKeysWithValues: definitions.map { ($0.id, $0) }))
    }

    /// The definition with an id, or loaded from a path ending in `.yml` / `.yaml`.
    public func definition(named name: String, loader: DefinitionLoader = DefinitionLoader()) throws -> CodemodDefinition? {
        if name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
            return try resolve(loader.loadFile(name))
        }
        return definitions.first { $0.id == name }
    }
}
