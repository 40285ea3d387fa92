import Foundation
import SwiftTree
import Workspace
import Yams

/// Reads ast-grep rule files (`id`, `language`, `rule`, `constraints`, `utils`, `transform`,
/// `rewriters`, `fix`, `message`, `note`, `severity`, `url`, `files`, `ignores`, `metadata`),
/// catching mistakes when the rule is loaded, with the file, line and field.
struct RuleReader {
    let fields: FieldReader
    /// Utility rules of the utility folders (`utilDirs`, `--codemods DIR/utils`).
    let global: RuleUtilities

    static let topKeys = ["id", "language", "rule", "constraints", "utils", "transform", "rewriters", "fix", "message",
                          "note", "severity", "url", "files", "ignores", "metadata", "examples", "labels"]
    static let ruleKeys = ["pattern", "kind", "regex", "nthChild", "range", "inside", "has", "precedes", "follows",
                           "all", "any", "not", "matches", "directive"]

    /// What one rule file defines.
    struct Contents {
        var rule: PatternRule
        var message: String?
        var note: String?
        var url: String?
        var files: [Glob]
        var ignores: [Glob]
        var isTurnedOff: Bool
    }

    func contents(of top: Yams.Node.Mapping, root: Yams.Node, id: String) throws -> Contents {
        try fields.checkKeys(top, allowed: Self.topKeys, at: nil)
        guard let languageNode = top["language"] else {
            throw fields.fail(root, "language", "is required (language: swift)")
        }
        let language = try fields.string(languageNode, "language")
        guard language.lowercased() == "swift" else {
            throw fields.fail(languageNode, "language", "swiftmod reads Swift only; this rule is for '\(language)'")
        }
        let rule = try patternRule(top, root: root, id: id, field: nil)
        let files = try globs(top["files"], "files")
        let ignores = try globs(top["ignores"], "ignores")
        var isTurnedOff = false
        if let node = top["severity"] {
            let severity = try fields.string(node, "severity")
            guard ["hint", "info", "warning", "error", "off"].contains(severity) else {
                throw fields.fail(node, "severity", "'\(severity)' is not a severity (hint, info, warning, error or off)")
            }
            isTurnedOff = severity == "off"
        }
        return Contents(rule: rule, message: try top["message"].map { try fields.string($0, "message") },
                        note: try top["note"].map { try fields.string($0, "note") },
                        url: try top["url"].map { try fields.string($0, "url") }, files: files, ignores: ignores,
                        isTurnedOff: isTurnedOff)
    }

    private func globs(_ node: Yams.Node?, _ field: String) throws -> [Glob] {
        guard let node else { return [] }
        // `files: 3` is a mistake, not a glob: a rule that looks at no file would pass every check.
        for item in node.sequence ?? [node] where item.scalar != nil && (item.int != nil || item.bool != nil || item.null != nil) && item.scalar?.style == .plain {
            throw fields.fail(item, field, "'\(item.scalar?.string ?? "")' is not a glob: write a list of quoted globs such as ['Sources/**/*.swift']")
        }
        return try fields.strings(node, field).map { pattern in
            do { return try Glob(pattern) } catch { throw fields.fail(node, field, "'\(pattern)' is not a glob: \(error)") }
        }
    }

    /// A rule with its constraints, utilities, transformations, rewriters and fix (a rule file,
    /// or a rewriter inside one).
    func patternRule(_ top: Yams.Node.Mapping, root: Yams.Node, id: String, field prefix: String?) throws -> PatternRule {
        func path(_ key: String) -> String { prefix.map { "\($0).\(key)" } ?? key }
        let utilities = RuleUtilities(global: global.global.merging(global.local) { a, _ in a })
        if let utilsNode = top["utils"] {
            let entries = try fields.mapping(utilsNode, path("utils"))
            let ids = Set(entries.map { $0.key.string ?? "" })
            for (key, value) in entries {
                let name = key.string ?? ""
                utilities.local[name] = try rule(value, path("utils.\(name)"), utilities: utilities, known: ids)
            }
            try checkCycles(utilities.local, ids: ids, node: utilsNode, field: path("utils"))
        }
        guard let ruleNode = top["rule"] else { throw fields.fail(root, path("rule"), "is required") }
        let main = try rule(ruleNode, path("rule"), utilities: utilities, known: [])
        guard Self.isPositive(main, utilities) else {
            throw fields.fail(ruleNode, path("rule"), "has no positive key (pattern, kind, regex, matches, any, all, nthChild or range): it would match every node")
        }
        var bound = main.boundNames(utilities)
        var constraints: [(String, Rule)] = []
        if let node = top["constraints"] {
            for (key, value) in try fields.mapping(node, path("constraints")) {
                let name = key.string ?? ""
                let field = path("constraints.\(name)")
                guard bound.contains(name) else {
                    throw fields.fail(key, field, "'$\(name)' is not bound by the rule (it binds: \(Self.list(bound)))")
                }
                if Self.multiNames(main).contains(name) {
                    throw fields.fail(key, field, "constraints apply to single metavariables; $$$\(name) is a list of nodes (constrain each with `has`, or use $\(name))")
                }
                constraints.append((name, try rule(value, field, utilities: utilities, known: [])))
            }
        }
        var rewriters: [String: PatternRule] = [:]
        if let node = top["rewriters"] {
            guard let list = node.sequence else { throw fields.fail(node, path("rewriters"), "must be a list of rules with an id and a fix") }
            for (index, item) in list.enumerated() {
                let field = path("rewriters[\(index)]")
                let entry = try fields.mapping(item, field)
                try fields.checkKeys(entry, allowed: ["id", "rule", "constraints", "utils", "transform", "fix"], at: field)
                guard let idNode = entry["id"] else { throw fields.fail(item, "\(field).id", "is required") }
                let rewriterID = try fields.string(idNode, "\(field).id")
                rewriters[rewriterID] = try patternRule(entry, root: item, id: rewriterID, field: field)
            }
        }
        var transformations: [RuleTransformation] = []
        if let node = top["transform"] {
            // In any order, as in ast-grep: each is read once what it uses is bound.
            var pending = try fields.mapping(node, path("transform")).map { (name: $0.key.string ?? "", node: $0.value) }
            while !pending.isEmpty {
                var deferred: [(name: String, node: Yams.Node)] = []
                var firstUnbound: Error?
                for entry in pending {
                    do {
                        transformations.append(try self.transformation(entry.name, entry.node, path("transform.\(entry.name)"), bound: bound, rewriters: rewriters))
                        bound.insert(entry.name)
                    } catch let error as UnboundSource {
                        deferred.append(entry)
                        firstUnbound = firstUnbound ?? error.error
                    }
                }
                if deferred.count == pending.count, let firstUnbound { throw firstUnbound }
                pending = deferred
            }
        }
        var fix: PatternRule.Fix?
        if let node = top["fix"], !(node.scalar.map { $0.string == "" || $0.string == "~" || $0.string == "null" } == true && node.tag.description.hasSuffix("null")) {
            let field = path("fix")
            if case .scalar = node {
                fix = PatternRule.Fix(template: TemplateText(try fields.string(node, field)), expandStart: nil, expandEnd: nil)
            } else {
                let entry = try fields.mapping(node, field)
                try fields.checkKeys(entry, allowed: ["template", "expandStart", "expandEnd"], at: field)
                guard let template = entry["template"] else { throw fields.fail(node, "\(field).template", "is required") }
                fix = PatternRule.Fix(template: TemplateText(try fields.string(template, "\(field).template")),
                                      expandStart: try entry["expandStart"].map { try rule($0, "\(field).expandStart", utilities: utilities, known: []) },
                                      expandEnd: try entry["expandEnd"].map { try rule($0, "\(field).expandEnd", utilities: utilities, known: []) })
            }
            try checkReferences(fix!.template, node: node, field: field, bound: bound, main: main)
        }
        return PatternRule(id: id, rule: main, constraints: constraints, utilities: utilities, transformations: transformations,
                           rewriters: rewriters, fix: fix)
    }

    static func list(_ names: Set<String>) -> String {
        names.isEmpty ? "nothing" : names.sorted().map { "$\($0)" }.joined(separator: ", ")
    }

    /// Whether a rule picks nodes by itself (not only `not` and relations, which match nearly
    /// every node).
    static func isPositive(_ rule: Rule, _ utilities: RuleUtilities, visiting: Set<String> = []) -> Bool {
        switch rule {
        case .pattern, .kind, .regex, .nthChild, .range: return true
        case let .matches(id):
            // A utility is as positive as its rule (`anything: { not: … }` matches every node).
            guard !visiting.contains(id), let used = utilities.rule(id, visiting: []) else { return visiting.contains(id) }
            return isPositive(used, utilities, visiting: visiting.union([id]))
        case let .all(rules): return rules.contains { isPositive($0, utilities, visiting: visiting) }
        case let .any(rules): return !rules.isEmpty && rules.allSatisfy { isPositive($0, utilities, visiting: visiting) }
        case .not, .inside, .has, .precedes, .follows, .directive: return false
        }
    }

    /// Every variable a template names must be bound, as one node or as a list as written.
    private func checkReferences(_ template: TemplateText, node: Yams.Node, field: String, bound: Set<String>, main: Rule) throws {
        let multi = Self.multiNames(main)
        for piece in template.pieces {
            guard case let .variable(name, dollars) = piece else { continue }
            guard bound.contains(name) else {
                throw fields.fail(node, field, "'\(String(repeating: "$", count: dollars))\(name)' is never bound by the rule (it binds: \(Self.list(bound))), so the fix would write nothing in its place")
            }
            if dollars == 2, multi.contains(name) {
                throw fields.fail(node, field, "'$$\(name)' is one node, but the rule binds $$$\(name) (zero or more nodes): write $$$\(name)")
            }
        }
    }

    /// The names a rule binds to lists (`$$$A`).
    static func multiNames(_ rule: Rule) -> Set<String> {
        switch rule {
        case let .pattern(pattern): return pattern.root.multiNames
        case let .inside(relation), let .has(relation), let .precedes(relation), let .follows(relation): return multiNames(relation.rule)
        case let .all(rules), let .any(rules): return rules.reduce(into: Set<String>()) { $0.formUnion(multiNames($1)) }
        default: return []
        }
    }

    /// A utility that uses itself at the same node (`a: { matches: b }`, `b: { any: [matches: a] }`)
    /// is a load error: matching it would never end.
    /// - Parameters:
    ///   - ids: the utilities a reference may lead to.
    ///   - starts: the utilities to check (all of `ids` when nil).
    func checkCycles(_ utilities: [String: Rule], ids: Set<String>, starts: [String]? = nil, node: Yams.Node, field: String?) throws {
        // Only what matches at the same node counts: a relation (`has`, `inside`, `follows`,
        // `precedes`) moves to other nodes, so a utility may use itself through one (recursion
        // that ends with the tree), as in ast-grep.
        func references(_ rule: Rule) -> [String] {
            switch rule {
            case let .matches(id): return [id]
            case let .all(rules), let .any(rules): return rules.flatMap(references)
            case let .not(inner): return references(inner)
            case let .nthChild(nth): return nth.ofRule.map(references) ?? []
            default: return []
            }
        }
        for id in starts ?? ids.sorted() {
            var seen: Set<String> = []
            var stack = [(id, [id])]
            while let (current, trail) = stack.popLast() {
                guard let rule = utilities[current] else { continue }
                for next in references(rule) where ids.contains(next) {
                    if next == id {
                        throw fields.fail(node, field.map { "\($0).\(id)" } ?? "id", "refers to itself through \((trail + [next]).joined(separator: " → ")) at the same node: it can never finish matching")
                    }
                    if seen.insert(next).inserted { stack.append((next, trail + [next])) }
                }
            }
        }
    }

    /// A rule object.
    func rule(_ node: Yams.Node, _ field: String, utilities: RuleUtilities, known: Set<String>) throws -> Rule {
        // Reading (and matching) a rule recurses once per level: a rule nested deeper than any
        // person writes is an error, not a stack overflow.
        if field.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count > 200 {
            throw fields.fail(node, String(field.prefix(60)) + "…", "nests more than 200 rules deep")
        }
        let entry = try fields.mapping(node, field)
        try fields.checkKeys(entry, allowed: Self.ruleKeys, at: field)
        var atomic: [Rule] = [], composite: [Rule] = [], relational: [Rule] = []
        if let value = entry["pattern"] { atomic.append(try pattern(value, "\(field).pattern")) }
        if let value = entry["kind"] {
            let name = try fields.string(value, "\(field).kind")
            let symbols = SwiftLanguage.symbols(ofKind: name)
            guard !symbols.isEmpty else {
                throw fields.fail(value, "\(field).kind", "'\(name)' is not a node kind of the Swift grammar\(KindNames.suggestion(for: name)) (`swiftmod parse FILE` shows the kinds of real code)")
            }
            atomic.append(.kind(symbols, name: name))
        }
        if let value = entry["regex"] {
            let text = try fields.string(value, "\(field).regex")
            do { atomic.append(.regex(try BoundedRegex(text))) } catch {
                throw fields.fail(value, "\(field).regex", "is not a valid regular expression: \(RegexLiteral.problem(in: text))")
            }
        }
        if let value = entry["nthChild"] { atomic.append(.nthChild(try nthChild(value, "\(field).nthChild", utilities: utilities, known: known))) }
        if let value = entry["range"] { atomic.append(.range(try range(value, "\(field).range"))) }
        if let value = entry["directive"] {
            let condition = try fields.string(value, "\(field).directive").filter { !$0.isWhitespace }
            guard !condition.isEmpty else { throw fields.fail(value, "\(field).directive", "names no condition (directive: DEBUG)") }
            atomic.append(.directive(TreeFacts.strippingParentheses(condition)))
        }
        for key in ["all", "any"] {
            guard let value = entry[key] else { continue }
            guard let list = value.sequence else { throw fields.fail(value, "\(field).\(key)", "must be a list of rules") }
            let rules = try list.enumerated().map { try rule($1, "\(field).\(key)[\($0)]", utilities: utilities, known: known) }
            composite.append(key == "all" ? .all(rules) : .any(rules))
        }
        if let value = entry["not"] { composite.append(.not(try rule(value, "\(field).not", utilities: utilities, known: known))) }
        if let value = entry["matches"] {
            let id = try fields.string(value, "\(field).matches")
            guard known.contains(id) || utilities.contains(id) else {
                let available = Set(utilities.local.keys).union(known).union(utilities.global.keys)
                throw fields.fail(value, "\(field).matches", "no utility rule '\(id)' (utils here or in the utility folders: \(available.isEmpty ? "none" : available.sorted().joined(separator: ", ")))")
            }
            composite.append(.matches(id))
        }
        for key in ["inside", "has", "precedes", "follows"] {
            guard let value = entry[key] else { continue }
            let relation = try self.relation(value, "\(field).\(key)", allowsField: key == "inside" || key == "has", utilities: utilities, known: known)
            switch key {
            case "inside": relational.append(.inside(relation))
            case "has": relational.append(.has(relation))
            case "precedes": relational.append(.precedes(relation))
            default: relational.append(.follows(relation))
            }
        }
        let rules = atomic + composite + relational
        guard !rules.isEmpty else { throw fields.fail(node, field, "is an empty rule: give at least one of \(Self.ruleKeys.joined(separator: ", "))") }
        return rules.count == 1 ? rules[0] : .all(rules)
    }

    private func relation(_ node: Yams.Node, _ field: String, allowsField: Bool, utilities: RuleUtilities, known: Set<String>) throws -> Relation {
        let entry = try fields.mapping(node, field)
        try fields.checkKeys(entry, allowed: Self.ruleKeys + ["stopBy", "field"], at: field)
        var stopBy = Relation.StopBy.neighbor
        if let value = entry["stopBy"] {
            if case let .scalar(scalar) = value {
                switch scalar.string {
                case "neighbor": stopBy = .neighbor
                case "end": stopBy = .end
                default: throw fields.fail(value, "\(field).stopBy", "must be neighbor, end or a rule; got '\(scalar.string)'")
                }
            } else {
                stopBy = .rule(try rule(value, "\(field).stopBy", utilities: utilities, known: known))
            }
        }
        var fieldName: String?
        if let value = entry["field"] {
            guard allowsField else { throw fields.fail(value, "\(field).field", "only inside and has take a field") }
            let name = try fields.string(value, "\(field).field")
            guard SwiftLanguage.isField(name) else {
                throw fields.fail(value, "\(field).field", "'\(name)' is not a field of the Swift grammar (fields: \(SwiftLanguage.fieldNames.sorted().joined(separator: ", ")))")
            }
            fieldName = name
        }
        var ruleEntry = Yams.Node.Mapping([])
        for (key, value) in entry where key.string != "stopBy" && key.string != "field" { ruleEntry[key] = value }
        let inner = try rule(Yams.Node.mapping(ruleEntry), field, utilities: utilities, known: known)
        return Relation(rule: inner, stopBy: stopBy, field: fieldName)
    }

    private func pattern(_ node: Yams.Node, _ field: String) throws -> Rule {
        do {
            if case .scalar = node { return .pattern(try Pattern(try fields.string(node, field))) }
            let entry = try fields.mapping(node, field)
            try fields.checkKeys(entry, allowed: ["context", "selector", "strictness"], at: field)
            guard let context = entry["context"] else { throw fields.fail(node, "\(field).context", "is required") }
            var strictness = Strictness.smart
            if let value = entry["strictness"] {
                let text = try fields.string(value, "\(field).strictness")
                guard let level = Strictness(rawValue: text) else {
                    throw fields.fail(value, "\(field).strictness", "must be one of \(Strictness.allCases.map(\.rawValue).joined(separator: ", ")); got '\(text)'")
                }
                strictness = level
            }
            let contextText = try fields.string(context, "\(field).context")
            return .pattern(try Pattern(contextText, context: contextText,
                                        selector: try entry["selector"].map { try fields.string($0, "\(field).selector") },
                                        strictness: strictness))
        } catch let problem as Pattern.Problem {
            throw fields.fail(node, field, problem.message)
        }
    }

    private func nthChild(_ node: Yams.Node, _ field: String, utilities: RuleUtilities, known: Set<String>) throws -> NthChild {
        func position(_ value: Yams.Node, _ field: String) throws -> (Int, Int) {
            do { return try NthChild.position(try fields.string(value, field)) } catch let problem as Pattern.Problem {
                throw fields.fail(value, field, problem.message)
            }
        }
        if case .scalar = node {
            let (step, offset) = try position(node, field)
            return NthChild(step: step, offset: offset, ofRule: nil, reverse: false)
        }
        let entry = try fields.mapping(node, field)
        try fields.checkKeys(entry, allowed: ["position", "ofRule", "reverse"], at: field)
        guard let positionNode = entry["position"] else { throw fields.fail(node, "\(field).position", "is required") }
        let (step, offset) = try position(positionNode, "\(field).position")
        return NthChild(step: step, offset: offset,
                        ofRule: try entry["ofRule"].map { try rule($0, "\(field).ofRule", utilities: utilities, known: known) },
                        reverse: entry["reverse"]?.bool ?? false)
    }

    private func range(_ node: Yams.Node, _ field: String) throws -> SourceRange {
        let entry = try fields.mapping(node, field)
        try fields.checkKeys(entry, allowed: ["start", "end"], at: field)
        func position(_ key: String) throws -> (Int, Int?) {
            guard let value = entry[key] else { throw fields.fail(node, "\(field).\(key)", "is required ({line: 0, column: 4}, 0-based)") }
            let point = try fields.mapping(value, "\(field).\(key)")
            try fields.checkKeys(point, allowed: ["line", "column"], at: "\(field).\(key)")
            guard let line = point["line"]?.int, line >= 0 else { throw fields.fail(value, "\(field).\(key).line", "must be a whole number (0-based)") }
            if let column = point["column"] {
                guard let number = column.int, number >= 0 else { throw fields.fail(column, "\(field).\(key).column", "must be a whole number (0-based)") }
                return (line, number)
            }
            return (line, nil)
        }
        let (startLine, startColumn) = try position("start")
        let (endLine, endColumn) = try position("end")
        if startLine > endLine || (startLine == endLine && (startColumn ?? 0) > (endColumn ?? Int.max)) {
            throw fields.fail(node, field, "starts after it ends")
        }
        return SourceRange(startLine: startLine, startColumn: startColumn, endLine: endLine, endColumn: endColumn)
    }

    private func transformation(_ name: String, _ node: Yams.Node, _ field: String, bound: Set<String>,
                                rewriters: [String: PatternRule]) throws -> RuleTransformation {
        let (kind, arguments, argumentNode): (String, [String: Yams.Node], Yams.Node)
        if case .scalar = node {
            (kind, arguments) = try TransformCall.parse(try fields.string(node, field), fields: fields, node: node, field: field)
            argumentNode = node
        } else {
            let entry = try fields.mapping(node, field)
            guard entry.count == 1, let (key, value) = entry.first, let operation = key.string else {
                throw fields.fail(node, field, "must be one of replace, substring, convert, rewrite (with its fields)")
            }
            kind = operation
            var map: [String: Yams.Node] = [:]
            for (k, v) in try fields.mapping(value, "\(field).\(operation)") { map[k.string ?? ""] = v }
            arguments = map
            argumentNode = value
        }
        let allowed: [String: [String]] = ["replace": ["source", "replace", "by"], "substring": ["source", "startChar", "endChar"],
                                           "convert": ["source", "toCase", "separatedBy"], "rewrite": ["source", "rewriters", "joinBy"]]
        guard let keys = allowed[kind] else {
            throw fields.fail(node, field, "'\(kind)' is not a transformation (replace, substring, convert, rewrite)")
        }
        for key in arguments.keys.sorted() where !keys.contains(key) {
            throw fields.fail(argumentNode, "\(field).\(kind).\(key)", "unknown field; expected one of: \(keys.joined(separator: ", "))")
        }
        guard let sourceNode = arguments["source"] else { throw fields.fail(argumentNode, "\(field).\(kind).source", "is required ($A)") }
        let sourceText = try fields.string(sourceNode, "\(field).\(kind).source")
        let sourceName = String(sourceText.drop { $0 == "$" })
        guard sourceText.hasPrefix("$"), MetaVariable.isName(Substring(sourceName)) else {
            throw fields.fail(sourceNode, "\(field).\(kind).source", "must be a metavariable such as $A; got '\(sourceText)'")
        }
        guard bound.contains(sourceName) else {
            throw UnboundSource(error: fields.fail(sourceNode, "\(field).\(kind).source", "'\(sourceText)' is not bound by the rule or another transformation (bound: \(Self.list(bound)))"))
        }
        func string(_ key: String) throws -> String? { try arguments[key].map { try fields.string($0, "\(field).\(kind).\(key)") } }
        func integer(_ key: String) throws -> Int? {
            guard let value = arguments[key] else { return nil }
            guard let number = value.int else { throw fields.fail(value, "\(field).\(kind).\(key)", "must be a whole number") }
            return number
        }
        let operation: RuleTransformation.Operation
        switch kind {
        case "replace":
            guard let pattern = try string("replace") else { throw fields.fail(argumentNode, "\(field).replace.replace", "is required (a regular expression)") }
            guard let by = try string("by") else { throw fields.fail(argumentNode, "\(field).replace.by", "is required") }
            do { operation = .replace(regex: try NSRegularExpression(pattern: pattern), by: by) } catch {
                throw fields.fail(arguments["replace"], "\(field).replace.replace", "is not a valid regular expression: \(RegexLiteral.problem(in: pattern))")
            }
        case "substring":
            operation = .substring(start: try integer("startChar"), end: try integer("endChar"))
        case "convert":
            guard let target = try string("toCase") else { throw fields.fail(argumentNode, "\(field).convert.toCase", "is required") }
            guard let stringCase = RuleTransformation.StringCase(rawValue: target) else {
                throw fields.fail(arguments["toCase"], "\(field).convert.toCase", "must be one of \(RuleTransformation.StringCase.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var separators: Set<RuleTransformation.Separator>?
            if let value = arguments["separatedBy"] {
                separators = try Set(fields.strings(value, "\(field).convert.separatedBy").map { text in
                    guard let separator = RuleTransformation.Separator(rawValue: text) else {
                        throw fields.fail(value, "\(field).convert.separatedBy", "'\(text)' is not one of \(RuleTransformation.Separator.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return separator
                })
            }
            operation = .convert(to: stringCase, separatedBy: separators)
        default:
            guard let list = arguments["rewriters"] else { throw fields.fail(argumentNode, "\(field).rewrite.rewriters", "is required") }
            let ids = try fields.strings(list, "\(field).rewrite.rewriters")
            for id in ids where rewriters[id] == nil {
                if field.contains("rewriters[") {
                    throw fields.fail(list, "\(field).rewrite.rewriters", "a rewriter's own transform cannot use rewriters in swiftmod (ast-grep lets rewriters call one another): rewrite '\(id)' from the rule's transform instead")
                }
                throw fields.fail(list, "\(field).rewrite.rewriters", "no rewriter '\(id)' (rewriters: \(rewriters.keys.sorted().joined(separator: ", ")))")
            }
            operation = .rewrite(rewriters: ids, joinBy: try string("joinBy"))
        }
        return RuleTransformation(name: name, source: sourceName, operation: operation)
    }
}

extension PatternNode {
    /// Names bound to lists (`$$$A`).
    var multiNames: Set<String> {
        switch self {
        case let .metaVariable(.capturedEllipsis(name)): return [name]
        case let .internal(_, _, children, _): return children.reduce(into: Set<String>()) { $0.formUnion($1.multiNames) }
        default: return []
        }
    }
}

/// The string form of a transformation: `replace($A, replace='x', by='y')`,
/// `substring($A, startChar=1)`, `convert($A, toCase=camelCase, separatedBy=[dash])`,
/// `rewrite($$$A, rewriters=[r], joinBy=', ')`.
enum TransformCall {
    static func parse(_ text: String, fields: FieldReader, node: Yams.Node, field: String) throws -> (String, [String: Yams.Node]) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            throw fields.fail(node, field, "must be a call such as replace($A, replace='x', by='y')")
        }
        let kind = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var parts: [String] = []
        var current = ""
        var quote: Character?
        var depth = 0
        for character in inner {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character; current.append(character)
            case "[": depth += 1; current.append(character)
            case "]": depth -= 1; current.append(character)
            case "," where depth == 0: parts.append(current); current = ""
            default: current.append(character)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current) }
        guard let first = parts.first else { throw fields.fail(node, field, "names no source ($A)") }
        var arguments: [String: Yams.Node] = ["source": .scalar(.init(first.trimmingCharacters(in: .whitespaces)))]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { throw fields.fail(node, field, "'\(part)' must be key=value") }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces)
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("["), value.hasSuffix("]") {
                let items = value.dropFirst().dropLast().split(separator: ",").map { unquote($0.trimmingCharacters(in: .whitespaces)) }
                arguments[key] = .sequence(.init(items.map { .scalar(.init($0)) }))
                continue
            }
            value = unquote(value)
            arguments[key] = .scalar(.init(value, Yams.Tag(.implicit), value.first == "'" ? .singleQuoted : .plain))
        }
        return (kind, arguments)
    }

    static func unquote(_ text: String) -> String {
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

/// A transformation whose source is not bound (yet: another transformation may bind it).
private struct UnboundSource: Error {
    var error: LocatedError
}
