import Foundation
import SwiftTree

/// How closely a pattern's tree must match code (ast-grep's strictness levels).
public enum Strictness: String, Sendable, CaseIterable {
    /// Every node of the pattern and of the code is matched; nothing is skipped.
    case cst
    /// Every node of the pattern is matched; unnamed nodes of the code are skipped (the default).
    case smart
    /// Only named nodes are matched on both sides.
    case ast
    /// Named nodes are matched on both sides; comments are skipped too.
    case relaxed
    /// Only the kinds of named nodes are matched: identifiers' text is ignored (literals and
    /// keywords written in the pattern still match only themselves: swiftmod's choice).
    case signature
}

/// A code pattern: Swift code with metavariables, parsed once, matched against nodes of the
/// same kind (see `PatternNode`).
public final class Pattern: @unchecked Sendable {
    /// The pattern as written.
    public let source: String
    let root: PatternNode
    /// The symbol the matched node must have when the pattern is a lone metavariable picked by
    /// a `selector`.
    let rootSymbols: Set<UInt16>?
    public var strictness: Strictness

    /// Why a pattern cannot be used.
    public struct Problem: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Parses a pattern. A pattern is one node of Swift code (an expression, a statement, a
    /// declaration); where a snippet alone parses differently (a method without its type, an
    /// argument without its call), give the surrounding code as `context` and the kind of the
    /// node to match as `selector`.
    /// - Throws: `Problem` when the code does not parse, is empty, is several nodes, or the
    ///   selector names no node of it.
    public init(_ source: String, context: String? = nil, selector: String? = nil, strictness: Strictness = .smart) throws {
        self.source = source
        self.strictness = strictness
        let code = context ?? source
        let tree = Parser().parse(MetaVariable.expand(code))
        if let error = tree.errorRegions.first, selector != nil || Self.wholeNodeUnderError(tree.root) == nil {
            let start = error.start
            let shown = code.split(separator: "\n", omittingEmptySubsequences: false)
            let line = start.line - 1 < shown.count ? String(shown[start.line - 1]) : ""
            let pointer = String(repeating: " ", count: max(0, start.characterColumn - 1)) + "^"
            // A variable where the grammar wants a declaration's own syntax (a parameter is
            // `name: Type`, a member block holds declarations): no context helps there.
            let declarationHole = code.range(of: #"(func|init|subscript)\s*[^(]*\(\s*\$|(struct|class|enum|protocol|extension|actor)\s+\S+[^{]*\{\s*\$"#, options: .regularExpression) != nil
            let hint = declarationHole
                ? "a variable cannot stand for parameters or members, which the grammar reads as `name: Type` and declarations; match the declaration by kind instead: { kind: function_declaration, has: { field: name, pattern: $F } }"
                : "a snippet that is not a whole statement, such as a method or an argument, needs a `context` with a `selector`: pattern: { context: 'class A { func f() {} }', selector: function_declaration }"
            throw Problem(message: "the pattern does not parse as Swift: the parser stopped at line \(start.line), column \(start.characterColumn)\n    \(line)\n    \(pointer)\n  (\(hint))")
        }
        if let selector {
            let symbols = SwiftLanguage.symbols(ofKind: selector)
            guard !symbols.isEmpty else {
                throw Problem(message: "selector '\(selector)' is not a node kind of the Swift grammar\(KindNames.suggestion(for: selector))")
            }
            var found: Node?
            tree.root.walk { node in
                if found == nil, symbols.contains(node.symbol) { found = node }
                return found == nil
            }
            guard let found else { throw Problem(message: "selector '\(selector)' matches no node of the context `\(code)`") }
            root = PatternNode(found)
            rootSymbols = [found.symbol]
        } else {
            let top = tree.root
            guard top.childCount > 0, !top.children.allSatisfy(\.isComment) else { throw Problem(message: "the pattern is empty") }
            var node = top
            while Self.isSingle(node), let child = node.child(at: 0) { node = child }
            guard node != top else {
                throw Problem(message: "the pattern is several statements (\(top.namedChildren.map(\.kind).joined(separator: ", "))); a pattern is one node: match the first with `pattern` and the others with `precedes`/`follows`, or give a `context` and a `selector`")
            }
            root = PatternNode(node)
            rootSymbols = nil
        }
    }

    /// The one node of a snippet the grammar reads only as an error at the top (a lone type,
    /// `Array<$T>`, is not a statement), when that node has no error of its own: ast-grep takes it
    /// as the pattern, and so does swiftmod.
    private static func wholeNodeUnderError(_ top: Node) -> Node? {
        guard top.kind == "ERROR", top.childCount == 1, var node = top.child(at: 0) else { return nil }
        while isSingle(node), let child = node.child(at: 0) { node = child }
        return node.hasError || node.isMissing || node.kind == "ERROR" ? nil : node
    }

    /// A node with one child (or one child and an empty or missing one) is not the pattern yet.
    private static func isSingle(_ node: Node) -> Bool {
        switch node.childCount {
        case 1: return true
        case 2: return node.child(at: 1).map { $0.isMissing || $0.kind.isEmpty } ?? false
        default: return false
        }
    }

    /// The symbols a matching node can have, or nil for any (a lone metavariable).
    public var candidateSymbols: Set<UInt16>? {
        if let rootSymbols { return rootSymbols }
        switch root {
        case let .terminal(symbol, _, _, _), let .internal(symbol, _, _, _): return [symbol]
        case .metaVariable: return nil
        }
    }

    /// The kind of the pattern's top node (nil for a lone metavariable).
    public var rootKind: String? {
        switch root {
        case let .terminal(_, _, _, kind), let .internal(_, kind, _, _): return kind
        case .metaVariable: return nil
        }
    }

    /// The metavariables the pattern binds.
    public var boundNames: Set<String> { root.boundNames }

    /// The identifiers every match contains as written (for skipping files without them).
    var literalWords: [String] {
        guard strictness != .signature else { return [] }
        return root.words
    }

    /// How far matching a node got, and why it stopped (nil reason: it matched).
    public func explain(_ node: Node) -> (progress: Int, reason: String?, at: Node?) {
        if let rootSymbols, !rootSymbols.contains(node.symbol) { return (0, "not a node of the selected kind", node) }
        let trace = MatchTrace()
        var environment = MetaEnvironment()
        let matched = PatternMatcher(strictness: strictness, trace: trace).matchRoot(root, node, &environment)
        return matched ? (trace.progress, nil, nil) : (trace.progress, trace.reason ?? "no match", trace.node ?? node)
    }

    /// The pattern's tree, one node per line (what `swiftmod parse --pattern` shows).
    public var treeDescription: String {
        var lines: [String] = []
        func visit(_ node: PatternNode, _ depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            switch node {
            case let .metaVariable(variable): lines.append(indent + variable.written)
            case let .terminal(_, isNamed, text, kind):
                let shown = String(decoding: text, as: UTF8.self)
                lines.append(indent + (isNamed ? "\(kind) `\(shown)`" : "`\(shown)`"))
            case let .internal(_, kind, children, _):
                lines.append(indent + kind)
                for child in children { visit(child, depth + 1) }
            }
        }
        visit(root, 0)
        return lines.joined(separator: "\n")
    }

    /// Matches the node itself (not its descendants); on success the environment holds the
    /// bindings, otherwise it is unchanged.
    public func match(_ node: Node, _ environment: inout MetaEnvironment) -> Bool {
        if let rootSymbols, !rootSymbols.contains(node.symbol) { return false }
        var trial = environment
        trial.matchEnd = node.byteRange.lowerBound
        guard PatternMatcher(strictness: strictness).matchRoot(root, node, &trial) else { return false }
        environment = trial
        return true
    }
}

/// Where and why a match failed: the failure reached after the most progress.
final class MatchTrace {
    var progress = 0
    private(set) var reason: String?
    private(set) var node: Node?
    private var best = -1

    func fail(_ node: Node, _ message: String) {
        guard progress >= best else { return }
        best = progress
        reason = message
        self.node = node
    }

    func failAtEnd(_ message: String) {
        guard progress >= best else { return }
        best = progress
        reason = message
    }
}

/// A node of a parsed pattern.
indirect enum PatternNode {
    case metaVariable(MetaVariable)
    /// A node without children: its kind, whether it is named, and its text.
    case terminal(symbol: UInt16, isNamed: Bool, text: [UInt8], kind: String)
    /// A node with children. `exactText` is set when all children are unnamed tokens (`try?`,
    /// `true`, `as!`): such a node matches only the same text, at every strictness.
    case `internal`(symbol: UInt16, kind: String, children: [PatternNode], exactText: [UInt8]?)

    init(_ node: Node) {
        if let variable = MetaVariable.read(Substring(node.text)) {
            self = .metaVariable(variable)
        } else if node.childCount == 0 {
            self = .terminal(symbol: node.symbol, isNamed: node.isNamed, text: Array(node.bytes), kind: node.kind)
        } else {
            let children = node.children.filter { !$0.isMissing }
            let exact = children.allSatisfy { !$0.isNamed && $0.childCount == 0 }
                ? Array(node.bytes.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) : nil
            self = .internal(symbol: node.symbol, kind: node.kind, children: children.map(PatternNode.init), exactText: exact)
        }
    }

    /// An unnamed token (punctuation, a keyword).
    var isTrivial: Bool {
        if case let .terminal(_, isNamed, _, _) = self { return !isNamed }
        return false
    }

    /// A keyword or `?`/`!` token: never skipped, whatever the strictness (`true` is not `false`,
    /// `try` is not `try?`).
    var isProtected: Bool {
        guard case let .terminal(_, isNamed, text, _) = self, !isNamed, let first = text.first else { return false }
        return (first >= 0x61 && first <= 0x7A) || (first >= 0x41 && first <= 0x5A) || first == 0x5F || first == 0x23 || first == 0x40
            || text == [0x3F] || text == [0x21]
    }

    var ellipsis: MetaVariable? {
        if case let .metaVariable(variable) = self, variable.isEllipsis { return variable }
        return nil
    }

    var boundNames: Set<String> {
        switch self {
        case let .metaVariable(variable): return variable.name.map { [$0] } ?? []
        case .terminal: return []
        case let .internal(_, _, children, _): return children.reduce(into: Set<String>()) { $0.formUnion($1.boundNames) }
        }
    }

    /// Identifiers written in the pattern (named leaves whose text is a word).
    var words: [String] {
        switch self {
        case .metaVariable: return []
        case let .terminal(_, isNamed, text, kind):
            guard isNamed, kind.hasSuffix("identifier"), let word = String(bytes: text, encoding: .utf8),
                  !word.hasPrefix("$") else { return [] }
            return [word]
        case let .internal(_, _, children, _): return children.flatMap(\.words)
        }
    }

    var description: String {
        switch self {
        case let .metaVariable(variable): return variable.written
        case let .terminal(_, isNamed, text, kind): return isNamed ? "\(kind) `\(String(decoding: text, as: UTF8.self))`" : "`\(String(decoding: text, as: UTF8.self))`"
        case let .internal(_, kind, _, _): return kind
        }
    }
}

/// The outcome of comparing one pattern node with one code node.
enum NodeComparison {
    case matchedBoth, skipBoth, skipGoal, skipCandidate, noMatch
}

/// Matches a pattern tree against code, with ast-grep's semantics and swiftmod's safer choices
/// for literals and keywords (see `PatternNode.isProtected` and `exactText`).
struct PatternMatcher {
    var strictness: Strictness
    /// Records how far matching got and why it stopped (`swiftmod parse --pattern`).
    var trace: MatchTrace? = nil

    func matchRoot(_ goal: PatternNode, _ candidate: Node, _ environment: inout MetaEnvironment) -> Bool {
        compare(goal, candidate, &environment) == .matchedBoth
    }

    private func skipsCommentOrUnnamed(_ node: Node) -> Bool { !node.isNamed || node.isComment }

    func compare(_ goal: PatternNode, _ candidate: Node, _ environment: inout MetaEnvironment) -> NodeComparison {
        switch goal {
        case let .terminal(symbol, isNamed, text, kind):
            let kindMatches = symbol == candidate.symbol
            if kindMatches, !isNamed || candidate.bytes.elementsEqual(text) {
                environment.matchEnd = candidate.byteRange.upperBound
                trace?.progress += 1
                return .matchedBoth
            }
            let protected = goal.isProtected
            let skipGoal: Bool, skipCandidate: Bool
            switch strictness {
            case .cst: (skipGoal, skipCandidate) = (false, false)
            // ast-grep 0.51 skips comments here too (measured: `foo(a, b)` matches `foo(a, b /* n */)`).
            case .smart: (skipGoal, skipCandidate) = (false, skipsCommentOrUnnamed(candidate))
            case .ast: (skipGoal, skipCandidate) = (!isNamed, !candidate.isNamed)
            case .relaxed: (skipGoal, skipCandidate) = (!isNamed, skipsCommentOrUnnamed(candidate))
            case .signature:
                // Names may differ; literals may not (swiftmod's choice: `true` is never `false`).
                if kindMatches, !kind.contains("literal") {
                    environment.matchEnd = candidate.byteRange.upperBound
                    return .matchedBoth
                }
                (skipGoal, skipCandidate) = (!isNamed, skipsCommentOrUnnamed(candidate))
            }
            switch (skipGoal && !protected, skipCandidate) {
            case (true, true): return .skipBoth
            case (true, false): return .skipGoal
            case (false, true): return .skipCandidate
            case (false, false):
                trace?.fail(candidate, "the pattern wants `\(String(decoding: text, as: UTF8.self))` (\(kind)); the code has `\(candidate.text)` (\(candidate.kind))")
                return .noMatch
            }
        case let .metaVariable(variable):
            // A comment is not code a metavariable stands for, except where nothing is skipped
            // (as ast-grep 0.51 does: `foo($A, $B)` matches `foo(a, /* n */ b)` with B = b).
            if candidate.isComment, strictness != .cst, strictness != .ast { return .skipCandidate }
            switch variable {
            case let .capture(name, namedOnly):
                if namedOnly, !candidate.isNamed {
                    trace?.fail(candidate, "$\(name) stands for a named node; the code has the token `\(candidate.text)` (write $$\(name) to take any node)")
                    return .noMatch
                }
                guard environment.bind(name, to: candidate) else {
                    trace?.fail(candidate, "$\(name) is already `\(environment.single[name]?.text ?? "")`; here the code has `\(candidate.text)`")
                    return .noMatch
                }
            case let .dropped(namedOnly):
                if namedOnly, !candidate.isNamed { return .noMatch }
            case .ellipsis:
                break
            case let .capturedEllipsis(name):
                environment.multi[name] = [candidate]
            }
            environment.matchEnd = candidate.byteRange.upperBound
            trace?.progress += 1
            return .matchedBoth
        case let .internal(symbol, _, children, exactText):
            guard symbol == candidate.symbol else {
                trace?.fail(candidate, "the pattern wants a \(kindName(goal)); the code has \(candidate.kind) `\(candidate.text)`")
                return .noMatch
            }
            if let exactText {
                guard candidate.bytes.filter({ $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }).elementsEqual(exactText) else {
                    trace?.fail(candidate, "the pattern wants `\(String(decoding: exactText, as: UTF8.self))`; the code has `\(candidate.text)`")
                    return .noMatch
                }
                environment.matchEnd = candidate.byteRange.upperBound
                return .matchedBoth
            }
            return matchChildren(children, candidate.children, &environment) ? .matchedBoth : .noMatch
        }
    }

    private enum Flow { case done, again, on }

    func matchChildren(_ goals: [PatternNode], _ candidates: [Node], _ environment: inout MetaEnvironment) -> Bool {
        var g = 0, c = 0
        guard !candidates.isEmpty else {
            // Only an empty pattern list or lone ellipses match no children.
            return goals.allSatisfy { $0.ellipsis != nil } && bindEmptyEllipses(goals, &environment)
        }
        while true {
            guard let ellipsisFlow = matchEllipsis(goals, &g, candidates, &c, &environment) else { return false }
            switch ellipsisFlow {
            case .done: return true
            case .again: continue
            case .on: break
            }
            guard let singleFlow = matchOne(goals, &g, candidates, &c, &environment) else { return false }
            switch singleFlow {
            case .done: return true
            case .again: continue
            case .on: break
            }
            if g < goals.count {
                g += 1
                c += 1
            }
            if g >= goals.count {
                let rest = candidates[min(c, candidates.count)...]
                if let extra = rest.first(where: { !skipsTrailing($0) }) {
                    trace?.fail(extra, "the pattern ends here, but the code goes on with `\(extra.text)` (\(extra.kind)) and strictness \(strictness.rawValue) does not skip it")
                    return false
                }
                for node in rest where node.isNamed && !node.isComment { environment.skippedCode.append(node.byteRange) }
                return true
            }
            if c >= candidates.count {
                // Code ran out: the rest of the pattern must be skippable.
                return skipRemainingGoals(goals, &g, &environment)
            }
        }
    }

    private func kindName(_ goal: PatternNode) -> String {
        if case let .internal(_, kind, _, _) = goal { return kind }
        return goal.description
    }

    private func bindEmptyEllipses(_ goals: [PatternNode], _ environment: inout MetaEnvironment) -> Bool {
        for goal in goals { if case let .capturedEllipsis(name)? = goal.ellipsis { environment.multi[name] = [] } }
        return true
    }

    private func skipsTrailing(_ node: Node) -> Bool {
        switch strictness {
        case .cst, .ast: return false
        case .smart: return true
        case .relaxed, .signature: return skipsCommentOrUnnamed(node)
        }
    }

    private func bindEllipsis(_ variable: MetaVariable, _ nodes: [Node], skipped: Int, _ environment: inout MetaEnvironment) {
        // The match goes on to the last node taken, tokens the pattern skipped after it included.
        if let last = nodes.last { environment.matchEnd = max(environment.matchEnd, last.byteRange.upperBound) }
        var nodes = nodes
        nodes.removeLast(min(skipped, nodes.count))
        if case let .capturedEllipsis(name) = variable { environment.multi[name] = nodes }
    }

    /// Whether nodes an ellipsis takes close every bracket token they open. The grammar puts some
    /// blocks' brackets beside their statements (`if c { a } else { b }` is one flat list), where
    /// an ellipsis could take `a } else { b`; swiftmod does not let it (ast-grep does).
    static func isBalanced(_ nodes: [Node]) -> Bool {
        var depth = 0
        for node in nodes where !node.isNamed {
            switch node.kind {
            case "{", "(", "[": depth += 1
            case "}", ")", "]":
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0
    }

    private func matchEllipsis(_ goals: [PatternNode], _ g: inout Int, _ candidates: [Node], _ c: inout Int,
                               _ environment: inout MetaEnvironment) -> Flow? {
        guard g < goals.count else { return .done }
        guard let variable = goals[g].ellipsis else { return .on }
        var matched: [Node] = []
        g += 1
        if g == goals.count {
            bindEllipsis(variable, matched + candidates[c...], skipped: 0, &environment)
            c = candidates.count
            return .done
        }
        var skippedTokens = 0
        while goals[g].isTrivial {
            g += 1
            skippedTokens += 1
            if g == goals.count {
                // `if $C { $$$B }` must not take `start() } else { fallback()` for $$$B.
                guard Self.isBalanced(Array(candidates[c...].dropLast(skippedTokens))) else { return nil }
                bindEllipsis(variable, matched + candidates[c...], skipped: skippedTokens, &environment)
                // The pattern's last tokens (`)`, `}`) stand for the code's last nodes: the match
                // consumed them, though the list bound leaves them out.
                if let last = candidates.last { environment.matchEnd = max(environment.matchEnd, last.byteRange.upperBound) }
                c = candidates.count
                return .done
            }
        }
        if goals[g].ellipsis != nil {
            guard c < candidates.count else { return nil }
            matched.append(candidates[c])
            c += 1
            guard c < candidates.count else { return nil }
            bindEllipsis(variable, matched, skipped: skippedTokens, &environment)
            return .again
        }
        while true {
            guard c < candidates.count else { return nil }
            var probe = environment
            if compare(goals[g], candidates[c], &probe) == .matchedBoth, Self.isBalanced(Array(matched.dropLast(skippedTokens))) {
                bindEllipsis(variable, matched, skipped: skippedTokens, &environment)
                return .on
            }
            matched.append(candidates[c])
            c += 1
        }
    }

    private func matchOne(_ goals: [PatternNode], _ g: inout Int, _ candidates: [Node], _ c: inout Int,
                          _ environment: inout MetaEnvironment) -> Flow? {
        while true {
            guard c < candidates.count else {
                return skipRemainingGoals(goals, &g, &environment) ? .on : nil
            }
            switch compare(goals[g], candidates[c], &environment) {
            case .matchedBoth: return .on
            case .skipGoal:
                g += 1
                if g == goals.count { return .on }
            case .skipBoth:
                c += 1
                g += 1
                if g == goals.count { return .on }
            case .skipCandidate:
                c += 1
            case .noMatch:
                return nil
            }
        }
    }

    /// Whether the goals left (code having run out) may all be skipped.
    private func skipRemainingGoals(_ goals: [PatternNode], _ g: inout Int, _ environment: inout MetaEnvironment) -> Bool {
        while g < goals.count {
            let goal = goals[g]
            let skipped: Bool
            switch strictness {
            case .cst: skipped = false
            case .smart: skipped = goal.ellipsis != nil
            case .ast, .relaxed, .signature:
                switch goal {
                case let .metaVariable(variable):
                    switch variable {
                    case .ellipsis, .capturedEllipsis: skipped = true
                    case let .dropped(namedOnly), let .capture(_, namedOnly): skipped = !namedOnly
                    }
                case .terminal: skipped = goal.isTrivial && !goal.isProtected
                case .internal: skipped = false
                }
            }
            guard skipped else {
                trace?.failAtEnd("the code ends before the pattern's \(goal.description)")
                return false
            }
            if case let .capturedEllipsis(name)? = goal.ellipsis, environment.multi[name] == nil { environment.multi[name] = [] }
            g += 1
        }
        return true
    }
}

/// Node kind names, for errors that suggest the closest.
enum KindNames {
    static let all = SwiftLanguage.namedKinds

    /// " (did you mean …?)" with the closest kinds, or "".
    static func suggestion(for kind: String) -> String {
        let scored = all.map { ($0, distance($0, kind)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let close = scored.prefix(3).filter { $0.1 <= max(3, kind.count / 2) }.map(\.0)
        let containing = all.filter { $0.contains(kind) || kind.contains($0) && $0.count > 3 }.prefix(3)
        let names = Array(NSOrderedSet(array: close + containing)) as? [String] ?? close
        return names.isEmpty ? "" : " (closest: \(names.prefix(4).joined(separator: ", ")))"
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
