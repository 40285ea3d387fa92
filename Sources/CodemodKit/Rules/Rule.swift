import Foundation
import SwiftTree

/// A rule object of an ast-grep rule file: what a matching node is, built from atomic rules
/// (`pattern`, `kind`, `regex`, `nthChild`, `range`), relational ones (`inside`, `has`,
/// `precedes`, `follows`) and composite ones (`all`, `any`, `not`, `matches`), with ast-grep's
/// semantics; plus swiftmod's `directive` (conditional compilation as a scope).
public indirect enum Rule {
    case pattern(Pattern)
    case kind(Set<UInt16>, name: String)
    case regex(BoundedRegex)
    case nthChild(NthChild)
    case range(SourceRange)
    case inside(Relation)
    case has(Relation)
    case precedes(Relation)
    case follows(Relation)
    case all([Rule])
    case any([Rule])
    case not(Rule)
    /// A utility rule, by id (local `utils:` first, then the utility folders).
    case matches(String)
    /// swiftmod's extension: the node lies in an `#if`/`#elseif`/`#else` branch whose condition
    /// implies this one (`DEBUG`, `!DEBUG`, `os(iOS)`).
    case directive(String)

    /// The symbols a matching node can have, or nil when any node may match.
    func candidateSymbols(_ utilities: RuleUtilities) -> Set<UInt16>? {
        switch self {
        case let .pattern(pattern): return pattern.candidateSymbols
        case let .kind(symbols, _): return symbols
        case let .all(rules):
            var result: Set<UInt16>?
            for rule in rules {
                if let symbols = rule.candidateSymbols(utilities) { result = result.map { $0.intersection(symbols) } ?? symbols }
            }
            return result
        case let .any(rules):
            var result = Set<UInt16>()
            for rule in rules {
                guard let symbols = rule.candidateSymbols(utilities) else { return nil }
                result.formUnion(symbols)
            }
            return result
        case let .matches(id):
            return utilities.rule(id, visiting: []).flatMap { $0.candidateSymbols(utilities) }
        default: return nil
        }
    }

    /// Texts a file must contain for the rule to match in it: any one of the alternatives (nil:
    /// no text is known to be needed). From the identifiers of patterns, the literal part of
    /// regular expressions, and what `has`, `inside`, `precedes` and `follows` need too.
    func requiredTexts(_ utilities: RuleUtilities, depth: Int = 0, relations: Bool = true) -> [String]? {
        guard depth < 16 else { return nil }
        switch self {
        case let .pattern(pattern):
            return pattern.literalWords.max { $0.utf8.count < $1.utf8.count }.map { [$0] }
        case let .regex(regex):
            return RegexLiteral.required(in: regex.pattern).map { [$0] }
        case let .all(rules):
            return Self.mostSelective(rules.compactMap { $0.requiredTexts(utilities, depth: depth + 1, relations: relations) })
        case let .any(rules):
            var alternatives: [String] = []
            for rule in rules {
                guard let texts = rule.requiredTexts(utilities, depth: depth + 1, relations: relations) else { return nil }
                alternatives += texts
            }
            return alternatives.isEmpty ? nil : Array(Set(alternatives)).sorted()
        case let .inside(relation), let .has(relation), let .precedes(relation), let .follows(relation):
            // What a neighbour needs is in the file, not in each match.
            guard relations else { return nil }
            if case .directive = relation.rule { return nil }
            return relation.rule.requiredTexts(utilities, depth: depth + 1, relations: relations)
        case let .matches(id):
            return utilities.rule(id, visiting: []).flatMap { $0.requiredTexts(utilities, depth: depth + 1, relations: relations) }
        default:
            return nil
        }
    }

    /// Of several requirements that all hold, the one that rules out most files: the fewest
    /// alternatives, then the longest shortest text.
    static func mostSelective(_ requirements: [[String]]) -> [String]? {
        requirements.min { a, b in
            (a.count, -(a.map(\.utf8.count).min() ?? 0)) < (b.count, -(b.map(\.utf8.count).min() ?? 0))
        }
    }

    /// The metavariables a match of this rule may bind: those of its patterns, of its relations'
    /// rules and of the utilities it uses. Not those under `not`, a relation's `stopBy` or
    /// `nthChild.ofRule`, which are matched without binding (as in ast-grep).
    func boundNames(_ utilities: RuleUtilities, visiting: Set<String> = []) -> Set<String> {
        switch self {
        case let .pattern(pattern): return pattern.boundNames
        case let .inside(relation), let .has(relation), let .precedes(relation), let .follows(relation):
            return relation.rule.boundNames(utilities, visiting: visiting)
        case let .all(rules), let .any(rules):
            return rules.reduce(into: Set<String>()) { $0.formUnion($1.boundNames(utilities, visiting: visiting)) }
        case let .matches(id):
            guard !visiting.contains(id), let rule = utilities.rule(id, visiting: []) else { return [] }
            return rule.boundNames(utilities, visiting: visiting.union([id]))
        case .not, .kind, .regex, .range, .nthChild, .directive: return []
        }
    }

    /// Whether the rule matches the node; on success the environment holds what it bound,
    /// otherwise it is unchanged.
    /// - Throws: `RegexTimeout` from a `regex` that ran out of time.
    public func matches(_ node: Node, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        // Where the match ends is the matched node's pattern's to say, never a neighbour's.
        switch self {
        case .inside, .has, .precedes, .follows, .nthChild:
            let end = environment.matchEnd, skipped = environment.skippedCode
            defer { environment.matchEnd = end; environment.skippedCode = skipped }
            return try matchesNode(node, &environment, context)
        default:
            return try matchesNode(node, &environment, context)
        }
    }

    private func matchesNode(_ node: Node, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        switch self {
        case let .pattern(pattern):
            return pattern.match(node, &environment)
        case let .kind(symbols, _):
            return symbols.contains(node.symbol)
        case let .regex(regex):
            return try regex.matches(node.text)
        case let .nthChild(nth):
            return try nth.matches(node, environment, context)
        case let .range(range):
            return range.matches(node)
        case let .directive(condition):
            return context.facts.directiveFacts(at: node.byteRange).contains(condition)
        case let .inside(relation):
            if case let .directive(condition) = relation.rule {
                return context.facts.directiveFacts(at: node.byteRange).contains(condition)
            }
            return try relation.inside(node, &environment, context)
        case let .has(relation):
            return try relation.has(node, &environment, context)
        case let .precedes(relation):
            return try relation.find(from: node, step: { $0.nextSibling }, &environment, context)
        case let .follows(relation):
            return try relation.find(from: node, step: { $0.previousSibling }, &environment, context)
        case let .all(rules):
            var trial = environment
            for rule in rules where try !rule.matches(node, &trial, context) { return false }
            environment = trial
            return true
        case let .any(rules):
            for rule in rules where try rule.matches(node, &environment, context) { return true }
            return false
        case let .not(rule):
            var scratch = environment
            return try !rule.matches(node, &scratch, context)
        case let .matches(id):
            guard let rule = context.utilities.rule(id, visiting: []) else { return false }
            return try rule.matches(node, &environment, context)
        }
    }
}

/// `inside`, `has`, `precedes` and `follows`: a rule about other nodes, how far to look
/// (`stopBy`), and for `inside`/`has` the field the node must be under.
public struct Relation {
    public var rule: Rule
    public var stopBy: StopBy
    public var field: String?

    /// How far a relational rule looks.
    public enum StopBy {
        /// Only the nearest node (the parent, a direct child, the next or previous sibling).
        case neighbor
        /// All the way (to the root, every descendant, every sibling on that side).
        case end
        /// Until a node that matches this rule, which is still looked at.
        case rule(Rule)

        var rule: Rule? {
            if case let .rule(rule) = self { return rule }
            return nil
        }
    }

    func inside(_ node: Node, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        var chain: [(node: Node, via: Node)] = []
        var child = node
        var current = node.parent
        while let ancestor = current {
            chain.append((ancestor, child))
            if case .neighbor = stopBy { break }
            child = ancestor
            current = ancestor.parent
        }
        for (ancestor, via) in chain {
            if let field {
                // The node must sit under the field of this ancestor (through the path walked).
                if ancestor.child(field: field) != via {
                    if try stopsAt(ancestor, context) { return false }
                    continue
                }
            }
            if try rule.matches(ancestor, &environment, context) { return true }
            if try stopsAt(ancestor, context) { return false }
        }
        return false
    }

    private func stopsAt(_ node: Node, _ context: RuleContext) throws -> Bool {
        guard case let .rule(stop) = stopBy else { return false }
        var scratch = MetaEnvironment()
        return try stop.matches(node, &scratch, context)
    }

    func has(_ node: Node, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        if let field {
            guard let start = node.child(field: field) else { return false }
            switch stopBy {
            case .neighbor: return try rule.matches(start, &environment, context)
            case .end: return try firstMatch(in: start, includingSelf: true, &environment, context)
            case .rule:
                if try rule.matches(start, &environment, context) { return true }
                if try stopsAt(start, context) { return false }
                for child in start.children where try rule.matches(child, &environment, context) { return true }
                return false
            }
        }
        switch stopBy {
        case .neighbor:
            for child in node.children where try rule.matches(child, &environment, context) { return true }
            return false
        case .end:
            return try firstMatch(in: node, includingSelf: false, &environment, context)
        case .rule:
            for child in node.children {
                if try rule.matches(child, &environment, context) { return true }
                if try !stopsAt(child, context), try has(child, &environment, context) { return true }
            }
            return false
        }
    }

    private func firstMatch(in root: Node, includingSelf: Bool, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        var found = false
        var failure: Error?
        root.walk { candidate in
            guard !found, failure == nil else { return false }
            if !includingSelf, candidate == root { return true }
            do { found = try rule.matches(candidate, &environment, context) } catch { failure = error }
            return !found
        }
        if let failure { throw failure }
        return found
    }

    /// Looks at the siblings on one side of a node, nearest first (`step` goes one further).
    func find(from node: Node, step: (Node) -> Node?, _ environment: inout MetaEnvironment, _ context: RuleContext) throws -> Bool {
        var current = step(node)
        while let sibling = current {
            if try rule.matches(sibling, &environment, context) { return true }
            if case .neighbor = stopBy { return false }
            if try stopsAt(sibling, context) { return false }
            current = step(sibling)
        }
        return false
    }
}
