import Foundation
import CodemodKit
import Workspace

/// A configured migration, bound to its codemod, or a module rule: what is locked down, and why.
public struct Migration: Sendable {
    public let settings: MigrationSettings
    /// The codemod whose uses are found; nil for a module rule (its uses are the module
    /// dependencies it forbids, found by `ModuleRules`).
    public let codemod: Codemod?
    /// One line on what the migration is (`{{param}}` holes of the codemod's text filled in).
    public let summary: String
    /// Why the pattern is deprecated.
    public let why: String
    /// What replaces it.
    public let replacement: String?

    public var id: String { settings.id }
    /// The codemod's definition; nil for a module rule.
    public var definition: CodemodDefinition? { codemod?.definition }
    /// What finds the uses: the codemod's id, `module-rules` or `outlet-rules`.
    public var codemodID: String { definition?.id ?? (isOutletRule ? OutletRules.codemodID : Self.moduleRulesID) }
    /// Whether this is a module rule (a module type's, or cycles).
    public var isModuleRule: Bool { settings.rule.map { !$0.isOutletRule } ?? false }
    /// Whether this is an outlet rule (`outlet-not-guaranteed`, `stale-connection`).
    public var isOutletRule: Bool { settings.rule?.isOutletRule ?? false }
    /// Where to read more: the migration's docs, else the codemod's.
    public var docs: String? { settings.docs ?? definition?.docs }
    /// Whether `swiftmod run` can fix a use.
    public var fixable: Bool { definition?.rewrites ?? false }

    /// What stands for the codemod of a module rule's findings.
    public static let moduleRulesID = "module-rules"

    /// The texts are filled in once here (every finding of a report shows them).
    public init(settings: MigrationSettings, codemod: Codemod) {
        self.settings = settings
        self.codemod = codemod
        let fill = { (text: String) in codemod.definition.filled(text, params: codemod.params) }
        summary = settings.summary ?? fill(codemod.definition.summary)
        why = settings.why ?? fill(codemod.definition.why)
        replacement = settings.replacement ?? codemod.definition.replacement.map(fill)
    }

    /// A module rule: what a module type forbids (`type`), or dependency cycles.
    public init(rule settings: MigrationSettings, type: ModuleTypeSettings?) {
        self.settings = settings
        codemod = nil
        if let type {
            var forbids: [String] = []
            if !type.mayNotImport.isEmpty { forbids.append("may not import \(type.mayNotImport.joined(separator: ", "))") }
            if !type.mayNotDependOn.isEmpty { forbids.append("may not depend on \(type.mayNotDependOn.joined(separator: ", "))") }
            summary = settings.summary ?? "\(type.name) modules \(forbids.joined(separator: "; "))"
            why = settings.why ?? "module type \(type.name) keeps the codebase's shape: its modules \(forbids.joined(separator: " and "))"
            replacement = settings.replacement
        } else if settings.rule == .outletNotGuaranteed {
            summary = settings.summary ?? "implicitly unwrapped outlets whose view may be absent (not connected in a storyboard or xib that uses the class, or removed from its superview)"
            why = settings.why ?? "`T!` promises the view exists whenever code touches it; where a storyboard or xib leaves it unconnected, or code removes it, the next access crashes (Unexpectedly found nil while implicitly unwrapping an Optional value)"
            replacement = settings.replacement ?? "an optional outlet (`T?`) with optional handling at its uses: `swiftmod run iboutlet-optional`"
        } else if settings.rule == .staleConnection {
            summary = settings.summary ?? "storyboard and xib connections to outlets or actions the class does not declare"
            why = settings.why ?? "loading the scene sets an outlet the class does not have (this class is not key value coding-compliant for the key …) or sends an action it does not implement (unrecognized selector): a crash"
            replacement = settings.replacement ?? "remove the connection in Interface Builder, or declare the outlet or action again"
        } else {
            summary = settings.summary ?? "modules that depend on each other (a dependency cycle)"
            why = settings.why ?? "modules in a cycle cannot be built, tested or owned apart: each change to one rebuilds the others"
            replacement = settings.replacement ?? "break the cycle: move what both need into a module of its own, or depend on an interface module"
        }
    }

    /// Binds every migration of a configuration to a codemod of the catalog.
    /// - Throws: `LocatedError` at the migration's line for an unknown codemod or a bad parameter.
    /// Queries are compiled on first use, so this is cheap.
    /// - Parameter checkingParameters: wait for queries that use parameters to compile, and throw
    ///   for a value that breaks one; pass false to let them compile while other work goes on,
    ///   then call `checkParameters(of:in:)`.
    public static func resolve(_ configuration: Configuration, catalog: CodemodCatalog, checkingParameters: Bool = true) throws -> [Migration] {
        let migrations = try configuration.migrations.enumerated().map { index, settings in
            try resolve(settings, index: index, configuration: configuration, catalog: catalog, checkingParameters: checkingParameters)
        }
        if checkingParameters { try checkParameters(of: migrations, in: configuration) }
        return migrations
    }

    /// Throws, at the migration's line, for a parameter value that breaks its codemod's query.
    public static func checkParameters(of migrations: [Migration], in configuration: Configuration) throws {
        for migration in migrations {
            do {
                try migration.codemod?.checkParameters()
            } catch let error as ParameterError {
                let index = configuration.migrations.firstIndex { $0.id == migration.id } ?? 0
                throw LocatedError(file: configuration.path, line: migration.settings.line, field: "migrations[\(index)].params",
                                   message: error.message)
            }
        }
    }

    static func resolve(_ settings: MigrationSettings, index: Int, configuration: Configuration,
                        catalog: CodemodCatalog, checkingParameters: Bool) throws -> Migration {
        if let rule = settings.rule {
            if case let .moduleType(name) = rule {
                return Migration(rule: settings, type: configuration.moduleTypes.first { $0.name == name })
            }
            return Migration(rule: settings, type: nil)
        }
        do {
            guard let definition = catalog.definitions.first(where: { $0.id == settings.codemod }) else {
                throw LocatedError(file: configuration.path, line: settings.line, field: "migrations[\(index)].codemod",
                                   message: "unknown codemod '\(settings.codemod)' (known: \(catalog.definitions.map(\.id).joined(separator: ", ")))")
            }
            return Migration(settings: settings, codemod: try Codemod(definition, params: settings.params, lazily: true,
                                                                               checkingParameters: checkingParameters))
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
        if let migration = configuration?.migrations.first(where: { $0.id == name && $0.rule == nil }),
           definitions.first(where: { $0.id == name }) == nil || migration.codemod != name || !migration.params.isEmpty,
           let definition = definitions.first(where: { $0.id == migration.codemod }) {
            return (definition, migration.params)
        }
        return try definition(named: name).map { ($0, [:]) }
    }
}
