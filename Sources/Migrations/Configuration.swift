import CodemodKit
import Foundation
import SwiftTree
import Yams
import Workspace

/// How urgent a migration is: P0 (must, external deadline) to P3 (for your information).
public enum Priority: String, Codable, Sendable, CaseIterable, Comparable {
    case p0 = "P0", p1 = "P1", p2 = "P2", p3 = "P3"

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a rule checks (a migration whose uses are found over the whole repository, not as code
/// patterns file by file): module dependencies, or outlets against Interface Builder's files.
public enum ModuleRuleKind: Sendable, Equatable {
    /// What the module type of this name forbids (`may-not-import`, `may-not-depend-on`).
    case moduleType(String)
    /// Module dependency cycles (`rules:` entry with `kind: cycles`).
    case cycles
    /// Implicitly unwrapped outlets whose view may be absent (`kind: outlet-not-guaranteed`).
    case outletNotGuaranteed
    /// Storyboard and xib connections to what the class does not declare (`kind: stale-connection`).
    case staleConnection

    /// The `kind:` of a `rules:` entry.
    public static let kinds: [String: ModuleRuleKind] = ["cycles": .cycles, "outlet-not-guaranteed": .outletNotGuaranteed, "stale-connection": .staleConnection]

    /// Whether the rule is about outlets (`OutletRules`) rather than modules (`ModuleRules`).
    public var isOutletRule: Bool { self == .outletNotGuaranteed || self == .staleConnection }

    /// The `kind:` that names it (a module type's: `module-type NAME`).
    public var name: String {
        switch self {
        case let .moduleType(type): "module-type \(type)"
        case .cycles: "cycles"
        case .outletNotGuaranteed: "outlet-not-guaranteed"
        case .staleConnection: "stale-connection"
        }
    }
}

/// One migration of `.swiftmod.yml`: a codemod (with parameters) whose uses are locked down, or a
/// module rule (a module type's restrictions, or `rules:`) whose violations are.
public struct MigrationSettings: Sendable, Equatable {
    /// Unique; defaults to the codemod id (for a module type, `module-type.NAME`).
    public var id: String
    /// The codemod's id; empty for a module rule.
    public var codemod: String
    /// Set for a module rule.
    public var rule: ModuleRuleKind?
    public var params: [String: String]
    public var priority: Priority
    /// The day the migration must be done by, `YYYY-MM-DD`.
    public var deadline: String?
    /// The day the migration started, `YYYY-MM-DD`: the tracker's trend counts from it.
    public var started: String?
    /// The day each team (a CODEOWNERS owner) committed to be done by, when it differs from the
    /// deadline: the team is judged against it.
    public var commitments: [String: String] = [:]
    /// Where to read more (falls back to the codemod's own docs).
    public var docs: String?
    /// Who to ask (a channel, a team, a person).
    public var contact: String?
    /// Overrides of the codemod's summary, reasons and replacement, for this migration.
    public var summary: String?
    public var why: String?
    public var replacement: String?
    /// 1-based line of the entry in the configuration file.
    public var line: Int

    public init(id: String, codemod: String, rule: ModuleRuleKind? = nil, params: [String: String] = [:], priority: Priority = .p2,
                deadline: String? = nil, docs: String? = nil, contact: String? = nil, summary: String? = nil,
                why: String? = nil, replacement: String? = nil, line: Int) {
        self.id = id
        self.codemod = codemod
        self.rule = rule
        self.params = params
        self.priority = priority
        self.deadline = deadline
        self.started = nil
        self.docs = docs
        self.contact = contact
        self.summary = summary
        self.why = why
        self.replacement = replacement
        self.line = line
    }
}

extension MigrationSettings {
    /// The day a team committed to, its name matched in any case (GitHub's owners are not
    /// case-sensitive).
    public func commitment(of team: String) -> String? {
        commitments[team] ?? commitments.first { CodeOwners.isSameOwner($0.key, team) }?.value
    }
}

/// A module type of `.swiftmod.yml` (`module-types:`): which modules have it, and what they may
/// not use. A module's type is the first whose patterns match its name or its path.
public struct ModuleTypeSettings: Sendable {
    public var name: String
    /// Matched against a module's name (`*UI`) and its repo-relative folder (`Services/**`).
    public var modules: [Glob]
    /// Modules (such as `UIKit`) the modules of this type may not import.
    public var mayNotImport: [String]
    /// Module types or module names the modules of this type may not depend on.
    public var mayNotDependOn: [String]
    /// 1-based line of the entry in the configuration file.
    public var line: Int

    /// Whether its modules may depend on anything at all: a type without restrictions is no rule.
    public var restricts: Bool { !mayNotImport.isEmpty || !mayNotDependOn.isEmpty }

    /// The id of the migration that locks down what this type forbids.
    public static func ruleID(ofType name: String) -> String { "module-type.\(name)" }

    /// Whether a module of this name and path has this type.
    public func matches(name: String, path: String) -> Bool {
        modules.contains { $0.matches(name) || $0.matches(path) }
    }
}

/// The repository's `.swiftmod.yml`.
public struct Configuration: Sendable {
    /// The file's name, looked for in the working folder and every folder above it.
    public static let fileName = ".swiftmod.yml"

    /// Where the configuration was read from.
    public var path: String
    /// The repository root: the configuration's folder. Paths in findings and the baseline are
    /// relative to it.
    public var root: String
    public var migrations: [MigrationSettings]
    public var include: [Glob]
    public var exclude: [Glob]
    /// The baseline file, relative to the root.
    public var baseline: String
    /// Extra codemod definition folders, relative to the root.
    public var codemodFolders: [String]
    /// Module definitions (name → globs), for the tracker.
    public var modules: [(name: String, globs: [Glob])]
    /// Module types, in the order written (the first that matches a module gives its type).
    public var moduleTypes: [ModuleTypeSettings] = []
    /// `max-file-size`: files bigger than this many bytes are skipped with a note (nil: the
    /// default of `SourceFileReader`).
    public var maxFileSize: Int?
    /// `repository-url`: a code browser's address of a line, with `{commit}`, `{path}` and
    /// `{line}` in it (`https://github.com/acme/ios/blob/{commit}/{path}#L{line}`): the tracker
    /// links each remaining use to it.
    public var repositoryURL: String?

    /// Finds `.swiftmod.yml` in a folder or the nearest folder above it.
    public static func find(from folder: String = FileManager.default.currentDirectoryPath) -> String? {
        RootDiscovery.nearest(fileName, from: folder)
    }

    /// Reads and checks a configuration file.
    /// - Throws: `LocatedError` with the file, line and field of any problem.
    public static func load(_ path: String) throws -> Configuration {
        // A regular file of a sensible size: never a FIFO to hang on, nor gigabytes to load.
        let data: [UInt8]
        do {
            data = try SourceFileReader(maxFileSize: 4 << 20).bytes(ofFile: path)
        } catch let error as SourceFileError {
            throw LocatedError(file: path, line: nil, field: nil, message: error.reasonForDataFile)
        }
        guard var text = String(bytes: data, encoding: .utf8) else {
            throw LocatedError(file: path, line: nil, field: nil, message: "is not UTF-8")
        }
        // As git may leave it on another platform: a byte order mark, CRLF line endings.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = text.replacingOccurrences(of: "\r\n", with: "\n")
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        return try parse(text, path: path, root: absolute.deletingLastPathComponent().path)
    }

    /// Parses configuration text.
    public static func parse(_ yaml: String, path: String, root: String) throws -> Configuration {
        let reader = FieldReader(origin: path)
        let top = try reader.mapping(try FieldReader.compose(yaml, origin: path), nil)
        try reader.checkKeys(top, allowed: ["migrations", "include", "exclude", "baseline", "codemods", "modules", "module-types", "rules", "max-file-size", "repository-url"], at: nil)
        func globs(_ key: String, default value: [String]) throws -> [Glob] {
            let patterns = try top[key].map { try reader.strings($0, key) } ?? value
            return try patterns.enumerated().map { index, pattern in
                do { return try Glob(pattern) } catch {
                    throw reader.fail(top[key], "\(key)[\(index)]", "'\(pattern)' is not a valid pattern")
                }
            }
        }
        var configuration = Configuration(
            path: path, root: root, migrations: [],
            include: try globs("include", default: ["**/*.swift"]),
            exclude: try globs("exclude", default: []),
            baseline: try top["baseline"].map { try reader.string($0, "baseline") } ?? ".swiftmod-baseline.jsonl",
            codemodFolders: try top["codemods"].map { try reader.strings($0, "codemods") } ?? [],
            modules: [])
        if let node = top["max-file-size"] {
            let text = try reader.string(node, "max-file-size")
            guard let size = ByteSize.parse(text) else {
                throw reader.fail(node, "max-file-size", "'\(text)' is not a size; write bytes or a size like 4MB or 512KB")
            }
            configuration.maxFileSize = size
        }
        if let node = top["repository-url"] {
            let text = try reader.string(node, "repository-url")
            let placeholders = text.split(separator: "{", omittingEmptySubsequences: false).dropFirst()
                .map { "{" + ($0.split(separator: "}", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") + "}" }
            if let placeholder = placeholders.first(where: { !["{path}", "{commit}", "{line}"].contains($0) }) {
                throw reader.fail(node, "repository-url", "\(placeholder) is not a placeholder; write {path}, {commit} or {line}")
            }
            guard text.contains("{path}"), text.hasPrefix("https://") || text.hasPrefix("http://") else {
                throw reader.fail(node, "repository-url", "must be an http(s) address with {path} in it (and {commit}, {line}), like https://github.com/acme/ios/blob/{commit}/{path}#L{line}")
            }
            configuration.repositoryURL = text
        }
        if let modules = top["modules"] {
            configuration.modules = try reader.mapping(modules, "modules").map { key, value in
                let name = key.string ?? ""
                let patterns = try reader.strings(value, "modules.\(name)")
                return (name, try patterns.map { try Glob($0) })
            }
        }
        var seen: [String: Int] = [:]
        /// What every migration-like entry may carry: its priority, deadline and help.
        func settings(_ fields: Yams.Node.Mapping, entry: Yams.Node, field: String, id: String, idNode: Yams.Node?,
                      codemod: String, rule: ModuleRuleKind?) throws -> MigrationSettings {
            let line = entry.mark?.line ?? 0
            guard id.range(of: "^[A-Za-z0-9_.-]+$", options: .regularExpression) != nil else {
                throw reader.fail(idNode ?? entry, "\(field).id", "'\(id)' must be letters, digits, '.', '_' or '-' (allow comments name it)")
            }
            if let other = seen[id] {
                throw reader.fail(idNode ?? entry, "\(field).id", "'\(id)' is used by another migration or rule (line \(other)); give each an id")
            }
            seen[id] = line
            var priority = Priority.p2
            if let node = fields["priority"] {
                let text = try reader.string(node, "\(field).priority").uppercased()
                guard let value = Priority(rawValue: text) else {
                    throw reader.fail(node, "\(field).priority", "must be P0, P1, P2 or P3")
                }
                priority = value
            }
            func day(_ node: Yams.Node?, _ name: String) throws -> String? {
                guard let node else { return nil }
                let text = try reader.string(node, name)
                guard Deadline.date(text) != nil else { throw reader.fail(node, name, "must be a date like 2027-03-31") }
                return text
            }
            let deadline = try day(fields["deadline"], "\(field).deadline")
            let started = try day(fields["started"], "\(field).started")
            if let started, let deadline, started > deadline {
                throw reader.fail(fields["started"], "\(field).started", "\(started) is after the deadline \(deadline)")
            }
            var commitments: [String: String] = [:]
            if let node = fields["commitments"] {
                for (key, value) in try reader.mapping(node, "\(field).commitments") {
                    let team = key.string ?? ""
                    guard !team.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw reader.fail(key, "\(field).commitments", "a commitment needs a team: an owner as CODEOWNERS names it, like \"@acme/payments\": 2027-05-15")
                    }
                    commitments[team] = try day(value, "\(field).commitments.\(team)")
                    if let started, let date = commitments[team], date < started {
                        throw reader.fail(value, "\(field).commitments.\(team)", "\(date) is before the migration started (\(started))")
                    }
                }
            }
            var settings = MigrationSettings(
                id: id, codemod: codemod, rule: rule, params: try reader.stringMap(fields["params"], "\(field).params"),
                priority: priority, deadline: deadline,
                docs: try fields["docs"].map { try reader.string($0, "\(field).docs") },
                contact: try fields["contact"].map { try reader.string($0, "\(field).contact") },
                summary: try fields["summary"].map { try reader.string($0, "\(field).summary") },
                why: try fields["why"].map { try reader.string($0, "\(field).why") },
                replacement: try fields["replacement"].map { try reader.string($0, "\(field).replacement") },
                line: line)
            settings.started = started
            settings.commitments = commitments
            return settings
        }
        let help = ["priority", "deadline", "started", "commitments", "docs", "contact", "summary", "why", "replacement"]
        /// Module names (or type names) of `may-not-import` / `may-not-depend-on`: a non-empty list
        /// of plain names (`UIKit.UIView` names a declaration, which no import matches).
        func names(_ node: Yams.Node?, _ field: String) throws -> [String] {
            guard let node else { return [] }
            let list = try reader.strings(node, field)
            if list.isEmpty { throw reader.fail(node, field, "is empty: name the modules (or module types), or leave the key out") }
            for (index, name) in list.enumerated() where name.isEmpty || name.contains(".") || name.contains(where: \.isWhitespace) {
                throw reader.fail(node, "\(field)[\(index)]", "'\(name)' is not a module name (imports are matched by module: write UIKit, not UIKit.UIView)")
            }
            return list
        }
        if let list = top["migrations"] {
            guard let entries = list.sequence else { throw reader.fail(list, "migrations", "must be a list") }
            for (index, entry) in entries.enumerated() {
                let field = "migrations[\(index)]"
                let fields = try reader.mapping(entry, field)
                try reader.checkKeys(fields, allowed: ["id", "codemod", "params"] + help, at: field)
                guard let codemodNode = fields["codemod"] else { throw reader.fail(entry, "\(field).codemod", "is required") }
                let codemod = try reader.string(codemodNode, "\(field).codemod")
                let id = try fields["id"].map { try reader.string($0, "\(field).id") } ?? codemod
                configuration.migrations.append(try settings(fields, entry: entry, field: field, id: id, idNode: fields["id"],
                                                             codemod: codemod, rule: nil))
            }
        }
        if let types = top["module-types"] {
            for (key, value) in try reader.mapping(types, "module-types") {
                let name = key.string ?? ""
                let field = "module-types.\(name)"
                guard key.scalar != nil, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw reader.fail(key, "module-types", "a module type needs a name (a plain word such as UI or Service)")
                }
                let fields = try reader.mapping(value, field)
                try reader.checkKeys(fields, allowed: ["modules", "may-not-import", "may-not-depend-on", "id"] + help, at: field)
                guard let modulesNode = fields["modules"] else { throw reader.fail(value, "\(field).modules", "is required: the module names or paths of this type") }
                let patterns = try reader.strings(modulesNode, "\(field).modules")
                if patterns.isEmpty { throw reader.fail(modulesNode, "\(field).modules", "is empty: give the module names or paths of this type") }
                let type = ModuleTypeSettings(
                    name: name,
                    modules: try patterns.enumerated().map { index, pattern in
                        do { return try Glob(pattern) } catch {
                            throw reader.fail(modulesNode, "\(field).modules[\(index)]", "'\(pattern)' is not a valid pattern")
                        }
                    },
                    mayNotImport: try names(fields["may-not-import"], "\(field).may-not-import"),
                    mayNotDependOn: try names(fields["may-not-depend-on"], "\(field).may-not-depend-on"),
                    line: key.mark?.line ?? 0)
                configuration.moduleTypes.append(type)
                if type.restricts {
                    let id = try fields["id"].map { try reader.string($0, "\(field).id") } ?? ModuleTypeSettings.ruleID(ofType: name)
                    configuration.migrations.append(try settings(fields, entry: key, field: field, id: id, idNode: fields["id"],
                                                                 codemod: "", rule: .moduleType(name)))
                } else if let extra = help.first(where: { fields[$0] != nil }) ?? (fields["id"] != nil ? "id" : nil) {
                    throw reader.fail(fields[extra], "\(field).\(extra)", "a module type without may-not-import or may-not-depend-on is no rule, so it takes no \(extra)")
                }
            }
        }
        if let list = top["rules"] {
            guard let entries = list.sequence else { throw reader.fail(list, "rules", "must be a list") }
            for (index, entry) in entries.enumerated() {
                let field = "rules[\(index)]"
                let fields = try reader.mapping(entry, field)
                try reader.checkKeys(fields, allowed: ["id", "kind"] + help, at: field)
                let kinds = ModuleRuleKind.kinds.keys.sorted().joined(separator: ", ")
                guard let kindNode = fields["kind"] else { throw reader.fail(entry, "\(field).kind", "is required (kinds: \(kinds))") }
                let kind = try reader.string(kindNode, "\(field).kind")
                guard let rule = ModuleRuleKind.kinds[kind] else { throw reader.fail(kindNode, "\(field).kind", "unknown kind '\(kind)' (kinds: \(kinds))") }
                if let other = configuration.migrations.first(where: { $0.rule == rule }) {
                    throw reader.fail(kindNode, "\(field).kind", "a second rule of kind \(kind) (the first is '\(other.id)', line \(other.line)): every \(kind == "cycles" ? "cycle" : "finding") would be reported twice")
                }
                guard let idNode = fields["id"] else { throw reader.fail(entry, "\(field).id", "is required: allow comments and the baseline name the rule by it") }
                let id = try reader.string(idNode, "\(field).id")
                configuration.migrations.append(try settings(fields, entry: entry, field: field, id: id, idNode: idNode,
                                                             codemod: "", rule: rule))
            }
        }
        if top["migrations"] == nil, configuration.migrations.isEmpty {
            throw LocatedError(file: path, line: nil, field: "migrations", message: "is required: list the migrations to lock down")
        }
        return configuration
    }

    /// The absolute path of the baseline file.
    public var baselinePath: String { Self.absolute(baseline, in: root) }

    /// The absolute paths of the extra codemod folders.
    public var codemodFolderPaths: [String] { codemodFolders.map { Self.absolute($0, in: root) } }

    /// Whether a repo-relative path is one the configuration covers.
    public func covers(_ relativePath: String) -> Bool {
        include.contains { $0.matches(relativePath) } && !exclude.contains { $0.matches(relativePath) }
    }

    static func absolute(_ path: String, in root: String) -> String {
        path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
    }
}

/// Calendar dates written `YYYY-MM-DD`, in UTC.
public enum Deadline {
    public static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.isLenient = false
        guard text.range(of: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", options: .regularExpression) != nil,
              let date = formatter.date(from: text), formatter.string(from: date) == text else { return nil }
        return date
    }
}
