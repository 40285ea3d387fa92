import Foundation
import SwiftTree
import Yams
import Workspace

/// Reads codemod definitions from YAML, checking every field and naming the file, line and field
/// of any problem.
public struct DefinitionLoader {
    /// Built-in actions a definition may name.
    public var actions: ActionRegistry
    /// Whether to compile each query to check it (and the captures it names) while loading.
    /// Bundled definitions skip it: the test suite checks them, and compiling a query is costly.
    public var checksQueries: Bool
    /// Utility rules that ast-grep rule files may name with `matches` (from utility folders).
    public var utilities = RuleUtilities()
    /// The text of the utility rules, for cache keys.
    public var utilitiesText = ""
    /// Whether a rule for another language is loaded as left out (in a folder: an ast-grep
    /// project may hold rules for several languages) rather than an error (a file named alone).
    public var readsOtherLanguages = false

    public init(actions: ActionRegistry = .standard, checksQueries: Bool = true) {
        self.actions = actions
        self.checksQueries = checksQueries
    }

    /// Loads every `.yml` / `.yaml` file of a directory, in name order. A folder of ast-grep
    /// rules is read as ast-grep reads it: with an `sgconfig.yml`, the rules of its `ruleDirs`
    /// (recursively) with the utility rules of its `utilDirs`; without one, the folder's files,
    /// with the utility rules of a `utils` folder beside them.
    public func loadDirectory(_ path: String) throws -> [CodemodDefinition] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LocatedError(file: path, line: nil, field: nil, message: "no such codemods directory")
        }
        let project = try AstGrepProject(folder: path)
        var loader = self
        loader.readsOtherLanguages = true
        if !project.utilityFiles.isEmpty {
            (loader.utilities, loader.utilitiesText) = try UtilityRules.load(project.utilityFiles)
        }
        return try project.ruleFiles.flatMap { try loader.loadDefinitions(inFile: $0) }
    }

    /// Loads every definition of a file: ast-grep rule files may hold several rules, as YAML
    /// documents separated by `---` lines.
    public func loadDefinitions(inFile path: String) throws -> [CodemodDefinition] {
        let text = try Self.read(path)
        let documents = Self.documents(of: text)
        guard documents.count > 1 else { return [try loadFile(path)] }
        let loader = try withUtilities(near: path, for: text)
        var seen: [String: Int] = [:]
        return try documents.map { document in
            let definition = try loader.load(yaml: document.text, origin: path)
            if let line = seen[definition.id] {
                throw LocatedError(file: path, line: document.line, field: "id", message: "'\(definition.id)' is already defined in this file (line \(line))")
            }
            seen[definition.id] = document.line
            return definition
        }
    }

    /// This loader with the utility rules of the project a rule file named by its path is in,
    /// when the file uses utilities (`matches:`) and none were given.
    private func withUtilities(near path: String, for text: String) throws -> DefinitionLoader {
        guard utilities.isEmpty, text.contains("rule:"), text.contains("matches:") else { return self }
        let files = try AstGrepProject.utilityFiles(near: path)
        guard !files.isEmpty else { return self }
        var loader = self
        (loader.utilities, loader.utilitiesText) = try UtilityRules.load(files)
        return loader
    }

    /// The YAML documents of a file (split at `---` lines), each padded with the line breaks
    /// before it so that errors name the file's own lines; documents with no content are left out.
    static func documents(of text: String) -> [(text: String, line: Int)] {
        var documents: [(text: String, line: Int)] = []
        var current: [Substring] = [], start = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func finish() {
            let hasContent = current.contains { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.isEmpty && !trimmed.hasPrefix("#")
            }
            if hasContent {
                documents.append((String(repeating: "\n", count: start) + current.joined(separator: "\n"), start + 1))
            }
        }
        for (index, line) in lines.enumerated() {
            if line.trimmingCharacters(in: .whitespacesAndNewlines) == "---" || line.hasPrefix("--- ") {
                finish()
                current = []
                start = index + 1
                if line.hasPrefix("--- ") { current = [line.dropFirst(4)] }
            } else {
                current.append(line)
            }
        }
        finish()
        return documents
    }

    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LocatedError(file: path, line: nil, field: nil, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LocatedError(file: path, line: nil, field: nil, message: "is not UTF-8")
        }
        return text
    }

    /// Loads one definition file.
    /// - Throws: `LocatedError` for a malformed file, or one that holds several rules (`---`).
    public func loadFile(_ path: String) throws -> CodemodDefinition {
        let text = try Self.read(path)
        let documents = Self.documents(of: text)
        if documents.count > 1 {
            let ids = documents.map { document in
                (try? Yams.compose(yaml: document.text))?.flatMap { $0.mapping?["id"]?.string } ?? "?"
            }
            throw LocatedError(file: path, line: documents[1].line, field: nil,
                               message: "holds \(documents.count) rules (\(ids.joined(separator: ", "))), separated by '---'; name one by its id with --codemods \((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent), or put each in a file of its own")
        }
        return try withUtilities(near: path, for: text).load(yaml: text, origin: path)
    }

    /// Loads a definition from YAML text; `origin` names it in errors.
    public func load(yaml: String, origin: String) throws -> CodemodDefinition {
        let root = try FieldReader.compose(yaml, origin: origin)
        let reader = FieldReader(origin: origin)
        if let top = root.mapping, top["rule"] != nil {
            var definition = try reader.ruleDefinition(from: root, utilities: utilities, readsOtherLanguages: readsOtherLanguages)
            definition.ruleText = yaml + "\n" + utilitiesText
            return definition
        }
        return try reader.definition(from: root, actions: actions, checksQueries: checksQueries)
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _):
            return mark.line
        default:
            return nil
        }
    }

    static func summary(of error: YamlError) -> String {
        switch error {
        case let .scanner(context, problem, _, _), let .parser(context, problem, _, _),
             let .composer(context, problem, _, _):
            return [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        default:
            return "\(error)"
        }
    }
}

/// Reads fields of a YAML file, locating every problem at its file, line and field.
public struct FieldReader {
    public let origin: String

    public init(origin: String) { self.origin = origin }

    /// Parses YAML text into a node tree, or fails with the line of the syntax error.
    public static func compose(_ yaml: String, origin: String) throws -> Yams.Node {
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw LocatedError(file: origin, line: nil, field: nil, message: "the file is empty")
            }
            return node
        } catch let error as YamlError {
            var message = "invalid YAML: \(DefinitionLoader.summary(of: error))"
            if message.contains("mapping values are not allowed") {
                message += " (a value that contains ': ' must be quoted, or written as a block after '|')"
            }
            throw LocatedError(file: origin, line: DefinitionLoader.line(of: error), field: nil, message: message)
        }
    }

    public func fail(_ node: Yams.Node?, _ field: String?, _ message: String) -> LocatedError {
        LocatedError(file: origin, line: node?.mark?.line, field: field, message: message)
    }

    public func mapping(_ node: Yams.Node, _ field: String?) throws -> Yams.Node.Mapping {
        guard let mapping = node.mapping else { throw fail(node, field, "must be a mapping (key: value)") }
        return mapping
    }

    public func string(_ node: Yams.Node, _ field: String) throws -> String {
        guard case let .scalar(scalar) = node else { throw fail(node, field, "must be a string") }
        // `fix: !$A` is a YAML tag named `$A` on an empty value, not the text `!$A`.
        let tag = node.tag.description
        if tag.hasPrefix("!"), !tag.hasPrefix("!!") {
            throw fail(node, field, "YAML reads `\(tag)` at the start of a value as a tag, not as text: quote the value ('\(tag)\(scalar.string.isEmpty ? "" : " " + scalar.string)')")
        }
        return scalar.string
    }

    public func strings(_ node: Yams.Node, _ field: String) throws -> [String] {
        if case .scalar = node { return [try string(node, field)] }
        guard let sequence = node.sequence else { throw fail(node, field, "must be a list of strings") }
        return try sequence.enumerated().map { try string($1, "\(field)[\($0)]") }
    }

    public func checkKeys(_ mapping: Yams.Node.Mapping, allowed: [String], at field: String?) throws {
        for (key, _) in mapping {
            let name = key.string ?? ""
            if !allowed.contains(name) {
                let path = field.map { "\($0).\(name)" } ?? name
                throw fail(key, path, "unknown field; expected one of: \(allowed.joined(separator: ", "))")
            }
        }
    }

    func definition(from root: Yams.Node, actions: ActionRegistry, checksQueries: Bool) throws -> CodemodDefinition {
        let top = try mapping(root, nil)
        try checkKeys(top, allowed: ["id", "summary", "why", "replacement", "docs", "params", "match", "rewrite", "examples", "extends", "with"], at: nil)
        func required(_ key: String) throws -> Yams.Node {
            guard let value = top[key] else { throw fail(root, key, "is required") }
            return value
        }
        let idNode = try required("id")
        let id = try string(idNode, "id")
        guard id.range(of: "^[a-z0-9][a-z0-9-]*$", options: .regularExpression) != nil else {
            throw fail(idNode, "id", "must be lowercase letters, digits and dashes, like 'strong-iboutlet'")
        }
        let summary = try string(try required("summary"), "summary")
        let why = try top["why"].map { try string($0, "why") } ?? ""
        let replacement = try top["replacement"].map { try string($0, "replacement") }
        let docs = try top["docs"].map { try string($0, "docs") }
        let params = try parameters(top["params"])

        if let extendsNode = top["extends"] {
            // A params-only definition: the catalog fills in the base codemod's match and rewrite.
            for key in ["match", "rewrite", "params"] where top[key] != nil {
                throw fail(top[key], key, "a definition that extends another takes its \(key) from it; set parameter values under 'with'")
            }
            var definition = CodemodDefinition(
                id: id, summary: summary, why: why, replacement: replacement, docs: docs, params: [],
                query: "", useCapture: nil, constraints: [], rewrite: [], requires: nil,
                matchExamples: [], noMatchExamples: [], fixExamples: [], origin: origin)
            definition.extends = try string(extendsNode, "extends")
            definition.fixedParams = try exampleParams(top["with"], "with")
            try examples(top["examples"], into: &definition)
            return definition
        }
        if let withNode = top["with"] { throw fail(withNode, "with", "only a definition with 'extends' takes 'with'") }

        let matchNode = try required("match")
        let match = try mapping(matchNode, "match")
        try checkKeys(match, allowed: ["query", "use", "requires", "constraints"], at: "match")
        guard let queryNode = match["query"] else { throw fail(matchNode, "match.query", "is required") }
        let query = try string(queryNode, "match.query")
        let use = try match["use"].map { try string($0, "match.use") }
        let requires = try match["requires"].map { try string($0, "match.requires") }
        let constraints = try self.constraints(match["constraints"])
        let rewrite = try rewriteSteps(top["rewrite"], actions: actions)

        var definition = CodemodDefinition(
            id: id, summary: summary, why: why, replacement: replacement, docs: docs, params: params,
            query: query, useCapture: use, constraints: constraints, rewrite: rewrite, requires: requires,
            matchExamples: [], noMatchExamples: [], fixExamples: [], origin: origin)
        try examples(top["examples"], into: &definition)
        if checksQueries {
            try validate(definition, queryNode: queryNode, rewriteNode: top["rewrite"], matchNode: matchNode, actions: actions)
        } else {
            // Without compiling the query, its captures are read from its text.
            try checkContracts(of: definition, captures: Codemod.captureNames(in: definition.query),
                               rewriteNode: top["rewrite"], actions: actions)
        }
        return definition
    }

    /// An ast-grep rule file (it has `rule:`): `message` is the summary, `note` the why, `url` the
    /// docs; swiftmod's `examples:` may be given too.
    func ruleDefinition(from root: Yams.Node, utilities: RuleUtilities, readsOtherLanguages: Bool = false) throws -> CodemodDefinition {
        let top = try mapping(root, nil)
        guard let idNode = top["id"] else { throw fail(root, "id", "is required") }
        let id = try string(idNode, "id")
        guard id.range(of: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$", options: .regularExpression) != nil else {
            throw fail(idNode, "id", "must be letters, digits, '-', '_' and '.', like 'no-xct-assert-true'")
        }
        if readsOtherLanguages, let language = top["language"]?.string, language.lowercased() != "swift" {
            // A project of rules for several languages: this one is left out, and said so.
            var definition = CodemodDefinition(
                id: id, summary: id, why: "", replacement: nil, docs: nil, params: [],
                query: "", useCapture: nil, constraints: [], rewrite: [], requires: nil,
                matchExamples: [], noMatchExamples: [], fixExamples: [], origin: origin)
            definition.leftOut = "is for \(language) (swiftmod reads Swift only)"
            return definition
        }
        let contents = try RuleReader(fields: self, global: utilities).contents(of: top, root: root, id: id)
        var definition = CodemodDefinition(
            id: id, summary: contents.message ?? id, why: contents.note ?? "", replacement: nil, docs: contents.url, params: [],
            query: "", useCapture: nil, constraints: [], rewrite: [], requires: nil,
            matchExamples: [], noMatchExamples: [], fixExamples: [], origin: origin)
        definition.patternRule = contents.rule
        definition.files = contents.files
        definition.ignores = contents.ignores
        if contents.isTurnedOff { definition.leftOut = "has severity: off" }
        try examples(top["examples"], into: &definition)
        return definition
    }

    func parameters(_ node: Yams.Node?) throws -> [CodemodDefinition.Parameter] {
        guard let node else { return [] }
        let entries = try mapping(node, "params")
        return try entries.map { key, value in
            let name = key.string ?? ""
            let field = "params.\(name)"
            guard name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
                throw fail(key, field, "a parameter name must be an identifier")
            }
            var parameter = CodemodDefinition.Parameter(name: name, summary: "", defaultValue: nil, choices: nil, pattern: nil)
            if case .scalar = value {
                parameter.defaultValue = try string(value, field)
                return parameter
            }
            let fields = try mapping(value, field)
            try checkKeys(fields, allowed: ["summary", "default", "choices", "pattern", "kind"], at: field)
            if let kindNode = fields["kind"] {
                let text = try string(kindNode, "\(field).kind")
                guard let kind = CodemodDefinition.ValueKind(rawValue: text) else {
                    throw fail(kindNode, "\(field).kind", "must be one of \(CodemodDefinition.ValueKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                parameter.kind = kind
            }
            parameter.summary = try fields["summary"].map { try string($0, "\(field).summary") } ?? ""
            parameter.defaultValue = try fields["default"].map { try string($0, "\(field).default") }
            parameter.choices = try fields["choices"].map { try strings($0, "\(field).choices") }
            if let patternNode = fields["pattern"] {
                let pattern = try string(patternNode, "\(field).pattern")
                guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                    throw fail(patternNode, "\(field).pattern", "is not a valid regular expression")
                }
                parameter.pattern = pattern
            }
            return parameter
        }
    }

    func constraints(_ node: Yams.Node?) throws -> [CodemodDefinition.Constraint] {
        guard let node else { return [] }
        return try mapping(node, "match.constraints").map { key, value in
            let capture = key.string ?? ""
            let field = "match.constraints.\(capture)"
            let fields = try mapping(value, field)
            try checkKeys(fields, allowed: ["inside", "not-inside", "matches", "not-matches", "at-most", "note"], at: field)
            var constraint = CodemodDefinition.Constraint(capture: capture)
            constraint.inside = try fields["inside"].map { try strings($0, "\(field).inside") } ?? []
            constraint.notInside = try fields["not-inside"].map { try strings($0, "\(field).not-inside") } ?? []
            for (name, keyPath) in [("matches", \CodemodDefinition.Constraint.matches), ("not-matches", \.notMatches)] {
                guard let patternNode = fields[name] else { continue }
                let pattern = try string(patternNode, "\(field).\(name)")
                guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                    throw fail(patternNode, "\(field).\(name)", "is not a valid regular expression")
                }
                constraint[keyPath: keyPath] = pattern
            }
            if let limits = fields["at-most"] {
                for (kindNode, countNode) in try mapping(limits, "\(field).at-most") {
                    guard let count = countNode.int, count >= 0 else {
                        throw fail(countNode, "\(field).at-most", "must map node kinds to whole numbers")
                    }
                    constraint.atMost[kindNode.string ?? ""] = count
                }
            }
            constraint.note = try fields["note"].map { Template(try string($0, "\(field).note")) }
            let kinds = SwiftLanguage.nodeKinds
            for kind in constraint.inside + constraint.notInside + constraint.atMost.keys where !kinds.contains(kind) {
                throw fail(value, field, "'\(kind)' is not a node kind of the Swift grammar")
            }
            return constraint
        }
    }

    func rewriteSteps(_ node: Yams.Node?, actions: ActionRegistry) throws -> [CodemodDefinition.RewriteStep] {
        guard let node else { return [] }
        let items: [Yams.Node]
        if let sequence = node.sequence { items = Array(sequence) } else { items = [node] }
        return try items.enumerated().map { index, item in
            let field = node.sequence == nil ? "rewrite" : "rewrite[\(index)]"
            let fields = try mapping(item, field)
            try checkKeys(fields, allowed: ["replace", "with", "action"], at: field)
            if let actionNode = fields["action"] {
                let name = try string(actionNode, "\(field).action")
                guard actions.action(named: name) != nil else {
                    throw fail(actionNode, "\(field).action",
                               "unknown built-in action '\(name)'; known: \(actions.names.joined(separator: ", "))")
                }
                return .action(name: name)
            }
            guard let replaceNode = fields["replace"] else {
                throw fail(item, field, "needs either 'action' or 'replace' and 'with'")
            }
            guard let withNode = fields["with"] else { throw fail(item, "\(field).with", "is required with 'replace'") }
            let capture = try string(replaceNode, "\(field).replace")
            return .replace(capture: capture, with: Template(try string(withNode, "\(field).with")))
        }
    }

    func examples(_ node: Yams.Node?, into definition: inout CodemodDefinition) throws {
        guard let node else { return }
        let fields = try mapping(node, "examples")
        try checkKeys(fields, allowed: ["match", "no-match", "fix"], at: "examples")
        func simpleExamples(_ key: String) throws -> [CodemodDefinition.Example] {
            guard let list = fields[key] else { return [] }
            guard let sequence = list.sequence else { throw fail(list, "examples.\(key)", "must be a list") }
            return try sequence.enumerated().map { index, item in
                let field = "examples.\(key)[\(index)]"
                if case .scalar = item {
                    return .init(code: try string(item, field), params: [:], line: item.mark?.line ?? 0)
                }
                let entry = try mapping(item, field)
                try checkKeys(entry, allowed: key == "no-match" ? ["code", "params", "note"] : ["code", "params"], at: field)
                guard let code = entry["code"] else { throw fail(item, "\(field).code", "is required") }
                return .init(code: try string(code, "\(field).code"), params: try exampleParams(entry["params"], field),
                             line: code.mark?.line ?? 0, note: try entry["note"].map { try string($0, "\(field).note") })
            }
        }
        definition.matchExamples = try simpleExamples("match")
        definition.noMatchExamples = try simpleExamples("no-match")
        if let list = fields["fix"] {
            guard let sequence = list.sequence else { throw fail(list, "examples.fix", "must be a list") }
            definition.fixExamples = try sequence.enumerated().map { index, item in
                let field = "examples.fix[\(index)]"
                let entry = try mapping(item, field)
                try checkKeys(entry, allowed: ["before", "after", "params"], at: field)
                guard let before = entry["before"] else { throw fail(item, "\(field).before", "is required") }
                guard let after = entry["after"] else { throw fail(item, "\(field).after", "is required") }
                return .init(before: try string(before, "\(field).before"), after: try string(after, "\(field).after"),
                             params: try exampleParams(entry["params"], field), line: before.mark?.line ?? 0)
            }
        }
    }

    /// A mapping of strings (`with:`, `params:`).
    public func stringMap(_ node: Yams.Node?, _ field: String) throws -> [String: String] {
        try exampleParams(node, field)
    }

    func exampleParams(_ node: Yams.Node?, _ field: String) throws -> [String: String] {
        guard let node else { return [:] }
        let path = field == "with" ? field : "\(field).params"
        var result: [String: String] = [:]
        for (key, value) in try mapping(node, path) {
            result[key.string ?? ""] = try string(value, path)
        }
        return result
    }

    /// Checks what only the whole definition can tell: the query compiles, and every capture,
    /// parameter and hole it names exists.
    func validate(_ definition: CodemodDefinition, queryNode: Yams.Node, rewriteNode: Yams.Node?,
                  matchNode: Yams.Node, actions: ActionRegistry) throws {
        let placeholders = Dictionary(uniqueKeysWithValues: definition.params.map { ($0.name, $0.defaultValue ?? "Placeholder") })
        let query: Query
        do {
            query = try Query.compiled(QueryText.fill(definition.query, params: placeholders))
        } catch let error as Query.Error {
            var lineOffset = 0
            if case let .scalar(scalar) = queryNode, scalar.style == .literal || scalar.style == .folded {
                lineOffset = 1
            }
            let line = (queryNode.mark?.line ?? 0) + lineOffset + error.line - 1
            throw LocatedError(file: origin, line: line, field: "match.query",
                                  message: "\(error.kind)\(error.detail.isEmpty ? "" : " '\(error.detail)'") (query line \(error.line), column \(error.column))")
        }
        let captures = Set(query.captureNames)
        let paramNames = Set(definition.params.map(\.name))
        try checkContracts(of: definition, captures: query.captureNames, rewriteNode: rewriteNode, actions: actions)
        for hole in Template(definition.query).holes where !paramNames.contains(hole) {
            throw fail(queryNode, "match.query", "'{{\(hole)}}' names no declared parameter")
        }
        if let use = definition.useCapture, !captures.contains(use) {
            throw fail(matchNode, "match.use", "'\(use)' is not a capture of the query (captures: \(query.captureNames.joined(separator: ", ")))")
        }
        for constraint in definition.constraints {
            let field = "match.constraints.\(constraint.capture)"
            if !captures.contains(constraint.capture) { throw fail(matchNode, field, "is not a capture of the query") }
            for hole in constraint.note?.holes ?? [] where !captures.contains(hole) && !paramNames.contains(hole) {
                throw fail(matchNode, "\(field).note", "'{{\(hole)}}' is neither a capture nor a parameter")
            }
        }
        if let requires = definition.requires {
            for hole in Template(requires).holes where !paramNames.contains(hole) {
                throw fail(matchNode, "match.requires", "'{{\(hole)}}' names no declared parameter")
            }
        }
        for (index, step) in definition.rewrite.enumerated() {
            guard case let .replace(capture, template) = step else { continue }
            let field = definition.rewrite.count == 1 && rewriteNode?.sequence == nil ? "rewrite" : "rewrite[\(index)]"
            if !captures.contains(capture) {
                throw fail(rewriteNode, "\(field).replace", "'\(capture)' is not a capture of the query")
            }
            for hole in template.holes where !captures.contains(hole) && !paramNames.contains(hole) {
                throw fail(rewriteNode, "\(field).with", "'{{\(hole)}}' is neither a capture nor a parameter")
            }
        }
    }
}

extension FieldReader {
    /// Checks that the query defines every capture and the definition declares every parameter
    /// that the actions it names need (their `ActionContract`): a definition that breaks a
    /// contract would otherwise match nothing, silently. The error points at the `action` field.
    func checkContracts(of definition: CodemodDefinition, captures: [String], rewriteNode: Yams.Node?,
                        actions: ActionRegistry) throws {
        let declared = definition.params.map(\.name)
        for (index, step) in definition.rewrite.enumerated() {
            guard case let .action(name) = step, let action = actions.action(named: name) else { continue }
            let item = rewriteNode?.sequence.map { Array($0) }.map { index < $0.count ? $0[index] : nil } ?? rewriteNode
            let field = rewriteNode?.sequence == nil ? "rewrite.action" : "rewrite[\(index)].action"
            let actionNode = item?.mapping?["action"] ?? item
            let contract = action.contract
            switch contract.violations(captures: Set(captures), parameters: Set(declared)).first {
            case let .missingCapture(capture):
                let known = captures.isEmpty ? "it defines none" : "its captures: " + captures.map { "@\($0)" }.joined(separator: ", ")
                throw fail(actionNode, field, "action '\(name)' needs the capture @\(capture), which the query does not define (\(known))")
            case let .missingParameter(parameter):
                let summary = contract.parameters.first { $0.name == parameter }?.summary ?? ""
                let known = declared.isEmpty ? "none declared" : "declared: " + declared.joined(separator: ", ")
                throw fail(actionNode, field, "action '\(name)' needs the parameter '\(parameter)' (\(summary)); declare it under 'params' (\(known))")
            case nil:
                continue
            }
        }
    }
}

/// Fills `{{param}}` holes of a query, escaping values for use inside query strings.
enum QueryText {
    static func fill(_ query: String, params: [String: String]) -> String {
        Template(query).render { name in
            params[name].map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }
        }
    }
}
