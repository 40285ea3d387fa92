import Foundation
import CodemodKit
import Workspace

/// A configured migration, bound to its codemod: what is locked down, and why.
public struct Migration: Sendable {
    public var settings: MigrationSettings
    public var codemod: Codemod

    public var id: String { settings.id }
    public var definition: CodemodDefinition { codemod.definition }
    /// Where to read more: the migration's docs, else the codemod's.
    public var docs: String? { settings.docs ?? definition.docs }
    /// Whether `swiftmod run` can fix a use.
    public var fixable: Bool { definition.rewrites }
    /// One line on what the migration is (`{{param}}` holes of the codemod's text filled in).
    public var summary: String { settings.summary ?? fill(definition.summary) }
    /// Why the pattern is deprecated.
    public var why: String { settings.why ?? fill(definition.why) }
    /// What replaces it.
    public var replacement: String? { settings.replacement ?? definition.replacement.map(fill) }

    private func fill(_ text: String) -> String {
        definition.filled(text, params: codemod.params)
    }

    /// Binds every migration of a configuration to a codemod of the catalog.
    /// - Throws: `LocatedError` at the migration's line for an unknown codemod or a bad parameter.
    /// Queries are compiled on first use, so this is cheap.
    public static func resolve(_ configuration: Configuration, catalog: CodemodCatalog) throws -> [Migration] {
        try configuration.migrations.enumerated().map { index, settings in
            try resolve(settings, index: index, configuration: configuration, catalog: catalog)
        }
    }

    static func resolve(_ settings: MigrationSettings, index: Int, configuration: Configuration,
                        catalog: CodemodCatalog) throws -> Migration {
        do {
            guard let definition = catalog.definitions.first(where: { $0.id == settings.codemod }) else {
                throw LocatedError(file: configuration.path, line: settings.line, field: "migrations[\(index)].codemod",
                                   message: "unknown codemod '\(settings.codemod)' (known: \(catalog.definitions.map(\.id).joined(separator: ", ")))")
            }
            return Migration(settings: settings, codemod: try Codemod(definition, params: settings.params, lazily: true))
        } catch let error as ParameterError {
            throw LocatedError(file: configuration.path, line: settings.line, field: "migrations[\(index)].params",
                               message: error.message)
        }
    }
}

extension CodemodCatalog {
    /// What `run NAME` runs, and with which parameters: a migration of the configuration (its
    /// codemod with its parameters) when NAME is a migration id that is not simply a bundled
    /// codemod's own id, else the codemod with that id, or the definition file at that path.
    /// Nil when NAME is none of these.
    /// - Throws: `LocatedError` for a definition file that cannot be loaded.
    public func runnable(named name: String, configuration: Configuration?) throws -> (definition: CodemodDefinition, params: [String: String])? {
        if let migration = configuration?.migrations.first(where: { $0.id == name }),
           definitions.first(where: { $0.id == name }) == nil || migration.codemod != name || !migration.params.isEmpty,
           let definition = definitions.first(where: { $0.id == migration.codemod }) {
            return (definition, migration.params)
        }
        return try definition(named: name).map { ($0, [:]) }
    }
}
