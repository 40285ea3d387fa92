import Foundation
import SwiftTree

/// `nthChild`: the node's position among its parent's named children (1-based), as a number or
/// CSS's `An+B`, counted from the end with `reverse`, among the siblings an `ofRule` matches.
public struct NthChild {
    public var step: Int
    public var offset: Int
    public var ofRule: Rule?
    public var reverse: Bool

    /// Reads `An+B` (`3`, `2n+1`, `-n+3`, `odd`, `even`).
    /// - Throws: a message naming what is wrong.
    static func position(_ text: String) throws -> (step: Int, offset: Int) {
        let compact = text.lowercased().filter { !$0.isWhitespace }
        if compact == "odd" { return (2, 1) }
        if compact == "even" { return (2, 0) }
        let parts = compact.split(separator: "n", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ part: Substring, emptyMeans: Int?) throws -> Int {
            if part.isEmpty, let emptyMeans { return emptyMeans }
            if part == "+", let emptyMeans { return emptyMeans }
            if part == "-", let emptyMeans { return -emptyMeans }
            guard let value = Int(part.hasPrefix("+") ? String(part.dropFirst()) : String(part)) else {
                throw Pattern.Problem(message: "'\(text)' is not a position: a number, or An+B such as 2n+1")
            }
            return value
        }
        if parts.count == 1 {
            let index = try number(parts[0], emptyMeans: nil)
            guard index >= 1 else { throw Pattern.Problem(message: "'\(text)' selects no child: positions count from 1") }
            return (0, index)
        }
        let step = try number(parts[0], emptyMeans: 1)
        guard parts[1].isEmpty || parts[1].first == "+" || parts[1].first == "-" else {
            throw Pattern.Problem(message: "'\(text)' is not a position: a number, or An+B such as 2n+1")
        }
        let offset = parts[1].isEmpty ? 0 : try number(parts[1], emptyMeans: nil)
        return (step, offset)
    }

    /// Whether a 1-based index is selected: `index = step × n + offset` for some n ≥ 0.
    func selects(_ index: Int) -> Bool {
        if step == 0 { return index == offset }
        let n = index - offset
        return n / step >= 0 && n % step == 0
    }

    func matches(_ node: Node, _ environment: MetaEnvironment, _ context: RuleContext) throws -> Bool {
        guard node.isNamed, let parent = node.parent else { return false }
        var siblings = parent.namedChildren
        if let ofRule {
            siblings = try siblings.filter { sibling in
                var scratch = environment
                return try ofRule.matches(sibling, &scratch, context)
            }
        }
        if reverse { siblings.reverse() }
        guard let index = siblings.firstIndex(of: node) else { return false }
        return selects(index + 1)
    }
}

/// `range`: the node starts and ends exactly at these 0-based lines and columns (columns in
/// characters, Unicode scalars, as ast-grep's code counts them); a column left out is not checked.
public struct SourceRange {
    public var startLine: Int
    public var startColumn: Int?
    public var endLine: Int
    public var endColumn: Int?

    func matches(_ node: Node) -> Bool {
        let source = node.tree.source
        let start = position(of: node.byteRange.lowerBound, in: source)
        guard start.line == startLine else { return false }
        let end = position(of: node.byteRange.upperBound, in: source)
        guard end.line == endLine else { return false }
        if let startColumn, startColumn != start.column { return false }
        if let endColumn, endColumn != end.column { return false }
        return true
    }

    private func position(of offset: Int, in source: SourceText) -> (line: Int, column: Int) {
        let location = source.location(ofByte: offset)
        let lineStart = offset - (location.column - 1)
        let column = source.bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        // ast-grep reads a byte order mark as the first line's first character.
        let mark = location.line == 1 && source.hasByteOrderMark ? 1 : 0
        return (location.line - 1, column + mark)
    }
}

/// The utility rules a rule may name with `matches`: its own `utils:` first, then those of the
/// utility folders.
public final class RuleUtilities: @unchecked Sendable {
    var local: [String: Rule]
    let global: [String: Rule]

    init(local: [String: Rule] = [:], global: [String: Rule] = [:]) {
        self.local = local
        self.global = global
    }

    func rule(_ id: String, visiting: Set<String>) -> Rule? { local[id] ?? global[id] }

    func contains(_ id: String) -> Bool { local[id] != nil || global[id] != nil }

    /// Whether there are no utility rules at all.
    public var isEmpty: Bool { local.isEmpty && global.isEmpty }
}

/// What matching one tree needs beyond the rule: the utilities and facts about the tree
/// computed once (the branches of conditional compilation).
public struct RuleContext {
    public var utilities: RuleUtilities
    public var facts: TreeFacts
}

/// Facts about one tree, computed on first use: which conditions of `#if` hold where.
public final class TreeFacts {
    let tree: SyntaxTree
    private var branches: [(range: Range<Int>, facts: Set<String>)]?

    public init(_ tree: SyntaxTree) { self.tree = tree }

    /// The conditions that hold at a range: those of every `#if` branch that encloses it, nested
    /// branches included (`#if DEBUG` holds `DEBUG`; its `#else`, `!DEBUG`; `#if A && B`, both).
    public func directiveFacts(at range: Range<Int>) -> Set<String> {
        if branches == nil { branches = Self.branches(of: tree) }
        var result = Set<String>()
        for branch in branches! where branch.range.lowerBound <= range.lowerBound && range.upperBound <= branch.range.upperBound {
            result.formUnion(branch.facts)
        }
        return result
    }

    static func branches(of tree: SyntaxTree) -> [(range: Range<Int>, facts: Set<String>)] {
        var directives: [Node] = []
        tree.root.walk { node in
            if node.kind == "directive" { directives.append(node) }
            return true
        }
        directives.sort { $0.byteRange.lowerBound < $1.byteRange.lowerBound }
        struct Group { var start: Int; var facts: Set<String>; var earlier: [String] }
        var stack: [Group] = []
        var result: [(Range<Int>, Set<String>)] = []
        for directive in directives {
            let text = directive.text.trimmingCharacters(in: .whitespaces)
            let keyword = text.prefix { !$0.isWhitespace && $0 != "(" && $0 != "!" }
            let condition = String(text.dropFirst(keyword.count))
            switch keyword {
            case "#if":
                stack.append(Group(start: directive.byteRange.upperBound, facts: terms(condition), earlier: [condition]))
            case "#elseif", "#else":
                guard var group = stack.popLast() else { continue }
                result.append((group.start..<directive.byteRange.lowerBound, group.facts))
                var facts = Set(group.earlier.compactMap(negation))
                if keyword == "#elseif" {
                    facts.formUnion(terms(condition))
                    group.earlier.append(condition)
                }
                group.start = directive.byteRange.upperBound
                group.facts = facts
                stack.append(group)
            case "#endif":
                guard let group = stack.popLast() else { continue }
                result.append((group.start..<directive.byteRange.lowerBound, group.facts))
            default:
                continue
            }
        }
        for group in stack { result.append((group.start..<tree.source.bytes.count, group.facts)) }
        return result
    }

    /// The terms of a condition joined by `&&` at the top level, without spaces or outer
    /// parentheses.
    static func terms(_ condition: String) -> Set<String> {
        var text = condition.filter { !$0.isWhitespace }
        text = strippingParentheses(text)
        var terms: [String] = []
        var depth = 0
        var current = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0, text[index...].hasPrefix("&&") {
                terms.append(current)
                current = ""
                index = text.index(index, offsetBy: 2)
                continue
            }
            current.append(character)
            index = text.index(after: index)
        }
        terms.append(current)
        return Set(terms.map(strippingParentheses).filter { !$0.isEmpty })
    }

    /// The negation of a single-term condition (`DEBUG` → `!DEBUG`, `!DEBUG` → `DEBUG`); nil for
    /// a compound one.
    static func negation(_ condition: String) -> String? {
        let text = strippingParentheses(condition.filter { !$0.isWhitespace })
        guard !text.contains("&&"), !text.contains("||") else { return nil }
        return text.hasPrefix("!") ? strippingParentheses(String(text.dropFirst())) : "!" + text
    }

    static func strippingParentheses(_ text: String) -> String {
        var text = text
        while text.hasPrefix("("), text.hasSuffix(")") {
            let inner = String(text.dropFirst().dropLast())
            var depth = 0
            var balanced = true
            for character in inner {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if depth < 0 { balanced = false; break }
            }
            guard balanced, depth == 0 else { break }
            text = inner
        }
        return text
    }
}
