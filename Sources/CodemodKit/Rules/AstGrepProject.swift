import Foundation
import Workspace
import Yams

/// A folder of codemods as ast-grep lays one out: `sgconfig.yml` names the rule folders
/// (`ruleDirs`), the utility rule folders (`utilDirs`) and the rule test folders
/// (`testConfigs: [{ testDir }]`). A folder without one holds its definition files directly, with
/// utility rules in `utils/` and rule tests in `rule-tests/` beside them.
public struct AstGrepProject {
    /// The definition files, in path order.
    public var ruleFiles: [String] = []
    /// The utility rule files.
    public var utilityFiles: [String] = []
    /// The rule test files (`valid:`/`invalid:` code per rule id).
    public var testFiles: [String] = []

    public init(folder: String) throws {
        let config = (folder as NSString).appendingPathComponent("sgconfig.yml")
        let manager = FileManager.default
        guard manager.fileExists(atPath: config) else {
            ruleFiles = Self.yamlFiles(in: folder, recursive: false).filter { ($0 as NSString).lastPathComponent != "sgconfig.yml" }
            utilityFiles = Self.yamlFiles(in: (folder as NSString).appendingPathComponent("utils"), recursive: true)
            testFiles = Self.yamlFiles(in: (folder as NSString).appendingPathComponent("rule-tests"), recursive: true)
            return
        }
        guard let text = manager.contents(atPath: config).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw LocatedError(file: config, line: nil, field: nil, message: "cannot be read")
        }
        let root = try FieldReader.compose(text, origin: config)
        let fields = FieldReader(origin: config)
        let top = try fields.mapping(root, nil)
        func folders(_ key: String) throws -> [String] {
            try top[key].map { try fields.strings($0, key) }?.map { (folder as NSString).appendingPathComponent($0) } ?? []
        }
        for rules in try folders("ruleDirs") {
            guard Self.isFolder(rules) else { throw fields.fail(top["ruleDirs"], "ruleDirs", "'\(rules)' is not a folder") }
            ruleFiles += Self.yamlFiles(in: rules, recursive: true)
        }
        for utils in try folders("utilDirs") {
            guard Self.isFolder(utils) else { throw fields.fail(top["utilDirs"], "utilDirs", "'\(utils)' is not a folder") }
            utilityFiles += Self.yamlFiles(in: utils, recursive: true)
        }
        if let tests = top["testConfigs"]?.sequence {
            for (index, entry) in tests.enumerated() {
                guard let dir = entry.mapping?["testDir"]?.string else {
                    throw fields.fail(entry, "testConfigs[\(index)].testDir", "is required")
                }
                testFiles += Self.yamlFiles(in: (folder as NSString).appendingPathComponent(dir), recursive: true)
            }
        }
    }

    /// The utility rule files a rule file named by its path can use: those of the nearest
    /// `sgconfig.yml` above it (as `ast-grep scan -r` finds them), else of a `utils` folder beside
    /// it or beside its folder.
    public static func utilityFiles(near file: String) throws -> [String] {
        let folder = folder(of: file)
        if let project = projectFolder(of: file) {
            return try AstGrepProject(folder: project).utilityFiles
        }
        for candidate in [folder, (folder as NSString).deletingLastPathComponent] {
            let utils = yamlFiles(in: (candidate as NSString).appendingPathComponent("utils"), recursive: true)
            if !utils.isEmpty { return utils.filter { $0 != file } }
        }
        return []
    }

    /// The folder of the nearest `sgconfig.yml` above a rule file (not above the repository it is in).
    public static func projectFolder(of file: String) -> String? {
        var current = folder(of: file)
        for _ in 0..<12 {
            if FileManager.default.fileExists(atPath: (current as NSString).appendingPathComponent("sgconfig.yml")) { return current }
            if FileManager.default.fileExists(atPath: (current as NSString).appendingPathComponent(".git")) { return nil }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
        return nil
    }

    /// The absolute, standardized folder of a file.
    static func folder(of file: String) -> String {
        var folder = ((file as NSString).deletingLastPathComponent as NSString).standardizingPath
        if folder.isEmpty { folder = FileManager.default.currentDirectoryPath }
        if !folder.hasPrefix("/") { folder = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder) }
        return folder
    }

    /// Whether a path is a folder (a link to one included).
    public static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func yamlFiles(in folder: String, recursive: Bool) -> [String] {
        guard isFolder(folder) else { return [] }
        let manager = FileManager.default
        let names = recursive ? (manager.subpaths(atPath: folder) ?? []) : ((try? manager.contentsOfDirectory(atPath: folder)) ?? [])
        return names.filter { ($0.hasSuffix(".yml") || $0.hasSuffix(".yaml")) && !$0.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__snapshots__" } }
            .sorted().map { (folder as NSString).appendingPathComponent($0) }
    }
}

/// Utility rule files: `id`, `language` and `rule` (with `utils` of their own), usable from any
/// rule with `matches: ID`.
enum UtilityRules {
    static func load(_ files: [String]) throws -> (RuleUtilities, String) {
        let utilities = RuleUtilities()
        var text = ""
        var parsed: [(id: String, node: Yams.Node, fields: FieldReader, mapping: Yams.Node.Mapping)] = []
        for file in files {
            guard let content = FileManager.default.contents(atPath: file).flatMap({ String(data: $0, encoding: .utf8) }) else {
                throw LocatedError(file: file, line: nil, field: nil, message: "cannot be read")
            }
            text += content + "\n"
            let root = try FieldReader.compose(content, origin: file)
            let fields = FieldReader(origin: file)
            let top = try fields.mapping(root, nil)
            // A project of several languages: another language's utilities are not Swift's (a
            // Swift rule that names one is told it is unknown).
            if let language = top["language"]?.string, language.lowercased() != "swift" { continue }
            try fields.checkKeys(top, allowed: ["id", "language", "rule", "utils", "constraints"], at: nil)
            for key in ["utils", "constraints"] where top[key] != nil {
                throw fields.fail(top[key], key, "swiftmod does not read `\(key)` in a utility file (a file of a utility folder holds one rule): put what it says in the utility's rule, or in a utility file of its own")
            }
            guard let idNode = top["id"] else { throw fields.fail(root, "id", "is required") }
            parsed.append((try fields.string(idNode, "id"), root, fields, top))
        }
        let ids = Set(parsed.map(\.id))
        for entry in parsed {
            guard let ruleNode = entry.mapping["rule"] else { throw entry.fields.fail(entry.node, "rule", "is required") }
            let reader = RuleReader(fields: entry.fields, global: utilities)
            utilities.local[entry.id] = try reader.rule(ruleNode, "rule", utilities: utilities, known: ids)
        }
        for entry in parsed {
            try RuleReader(fields: entry.fields, global: utilities)
                .checkCycles(utilities.local, ids: ids, starts: [entry.id], node: entry.node, field: nil)
        }
        // Each rule file sees these as its global utilities.
        return (RuleUtilities(global: utilities.local), text)
    }
}
