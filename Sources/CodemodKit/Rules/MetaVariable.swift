import SwiftTree

/// A metavariable of a code pattern (ast-grep's syntax): `$A` captures one named node, `$$A` one
/// node named or not, `$$$A` zero or more nodes (as few as the rest allows), `$_`, `$$_` and
/// `$$$` match without capturing. A name is capital letters, digits and `_`, starting with a
/// letter or `_`: Swift's own `$0`, `$1` and `$x` are code, never metavariables.
public enum MetaVariable: Hashable, Sendable {
    /// `$A` (named nodes only) or `$$A` (any node).
    case capture(String, namedOnly: Bool)
    /// `$_A` / `$_` (named nodes only) or `$$_`: matches one node without capturing.
    case dropped(namedOnly: Bool)
    /// `$$$`: zero or more nodes, not captured.
    case ellipsis
    /// `$$$A`: zero or more nodes, captured as a list.
    case capturedEllipsis(String)

    /// The captured name, if any.
    public var name: String? {
        switch self {
        case let .capture(name, _), let .capturedEllipsis(name): return name
        case .dropped, .ellipsis: return nil
        }
    }

    /// As written in a pattern.
    var written: String {
        switch self {
        case let .capture(name, namedOnly): return (namedOnly ? "$" : "$$") + name
        case let .dropped(namedOnly): return namedOnly ? "$_" : "$$_"
        case .ellipsis: return "$$$"
        case let .capturedEllipsis(name): return "$$$" + name
        }
    }

    var isEllipsis: Bool {
        switch self {
        case .ellipsis, .capturedEllipsis: return true
        default: return false
        }
    }

    /// The character patterns are parsed with in place of `$`: a letter, so that `µA` is an
    /// identifier wherever Swift takes one (`$A` is not always one, `$$$A` never).
    static let expando: Character = "µ"

    /// Reads a node's text as a metavariable (written with `expando`), or nil.
    static func read(_ text: Substring, marker: Character = expando) -> MetaVariable? {
        var rest = text
        var dollars = 0
        while rest.first == marker, dollars < 3 {
            rest = rest.dropFirst()
            dollars += 1
        }
        guard dollars > 0 else { return nil }
        if dollars == 3, rest.isEmpty { return .ellipsis }
        guard isName(rest) else { return nil }
        let dropped = rest.first == "_"
        switch dollars {
        case 3: return dropped ? .ellipsis : .capturedEllipsis(String(rest))
        case 2: return dropped ? .dropped(namedOnly: false) : .capture(String(rest), namedOnly: false)
        default: return dropped ? .dropped(namedOnly: true) : .capture(String(rest), namedOnly: true)
        }
    }

    /// Whether text is a metavariable name: `[A-Z_][A-Z0-9_]*`.
    static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || ("A"..."Z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// The pattern text with every metavariable's `$` signs written as `expando`, so that Swift's
    /// parser reads it as an identifier. `$0`, `$x` and `$Binding` stay as they are.
    static func expand(_ pattern: String) -> String {
        var output = ""
        output.reserveCapacity(pattern.utf8.count + 8)
        var index = pattern.startIndex
        while index < pattern.endIndex {
            guard pattern[index] == "$" else {
                output.append(pattern[index])
                index = pattern.index(after: index)
                continue
            }
            var end = index
            var dollars = 0
            while end < pattern.endIndex, pattern[end] == "$", dollars < 3 {
                end = pattern.index(after: end)
                dollars += 1
            }
            var nameEnd = end
            while nameEnd < pattern.endIndex, let scalar = pattern[nameEnd].unicodeScalars.first,
                  pattern[nameEnd].unicodeScalars.count == 1,
                  scalar == "_" || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                nameEnd = pattern.index(after: nameEnd)
            }
            let name = pattern[end..<nameEnd]
            // A name continuing in lowercase (`$Binding`) is Swift code.
            let continues = nameEnd < pattern.endIndex && (pattern[nameEnd].isLetter || pattern[nameEnd].isNumber)
            if (dollars == 3 && name.isEmpty && !continues) || (isName(name) && !continues) {
                output += String(repeating: expando, count: dollars) + name
                index = nameEnd
            } else {
                output += pattern[index..<end]
                index = end
            }
        }
        return output
    }

    /// The metavariables a template (a fix, a transformation's text) names: `$A`, `$$A`, `$$$A`
    /// with the name (`$0` and `$x` are text).
    static func references(in template: String) -> [(name: String, dollars: Int)] {
        TemplateText(template).pieces.compactMap { piece in
            if case let .variable(name, dollars) = piece { return (name, dollars) }
            return nil
        }
    }
}

/// What a match bound: single nodes, lists of nodes, and the strings transformations made.
public struct MetaEnvironment {
    public var single: [String: Node] = [:]
    public var multi: [String: [Node]] = [:]
    /// Values made by `transform`, by name.
    public var transformed: [String: String] = [:]
    /// Where the last node the pattern consumed ends (what follows was skipped as trailing).
    var matchEnd = 0
    /// Code the pattern skipped after its end inside a matched node (a trailing closure of
    /// `bar(x) { … }` matched by `bar($A)` inside `foo(bar($A))`): a fix must not drop it.
    var skippedCode: [Range<Int>] = []
    /// Code a `rewrite` with `joinBy` left out (no rewriter matched it), by transformation name.
    var leftOutByJoin: [String: String] = [:]

    public init() {}

    /// Binds a name to a node, or says no when the name is bound to different code (a
    /// back-reference: `$A == $A` matches `x == x` only).
    mutating func bind(_ name: String, to node: Node) -> Bool {
        if let bound = single[name] { return Self.sameCode(bound, node) }
        single[name] = node
        return true
    }

    /// Whether two nodes are the same code: the same node, the same leaf text, or the same kind
    /// with children that are the same code.
    /// Iterative: code nested ten thousand levels deep is compared without running out of stack.
    static func sameCode(_ a: Node, _ b: Node) -> Bool {
        var pending = [(a, b)]
        while let (a, b) = pending.popLast() {
            if a == b { continue }
            if (a.isNamed && a.childCount == 0) || (b.isNamed && b.childCount == 0) {
                guard a.bytes.elementsEqual(b.bytes) else { return false }
                continue
            }
            guard a.symbol == b.symbol else { return false }
            let left = a.children.filter { !$0.isComment }, right = b.children.filter { !$0.isComment }
            guard left.count == right.count else { return false }
            pending.append(contentsOf: zip(left, right).reversed())
        }
        return true
    }

    /// The text a name stands for in a fix: a transformation's value, a node's text, or the
    /// source from the first to the last node of a list; nil when unbound.
    func text(of name: String) -> String? {
        if let value = transformed[name] { return value }
        if let node = single[name] { return node.text }
        if let nodes = multi[name] {
            guard let first = nodes.first, let last = nodes.last else { return "" }
            return first.tree.source.text(in: first.byteRange.lowerBound..<last.byteRange.upperBound)
        }
        return nil
    }

    /// The byte range a name's nodes cover in the source, when bound to nodes.
    func range(of name: String) -> Range<Int>? {
        if let node = single[name] { return node.byteRange }
        if let nodes = multi[name], let first = nodes.first, let last = nodes.last {
            return first.byteRange.lowerBound..<last.byteRange.upperBound
        }
        return nil
    }
}
