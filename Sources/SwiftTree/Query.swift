import CTreeSitter
import Foundation

/// A tree-sitter query over the Swift grammar, with its captures and text predicates.
///
/// Supported predicates: `#eq?`, `#not-eq?`, `#any-eq?`, `#any-not-eq?` (against a string or
/// another capture), `#match?`, `#not-match?`, `#any-match?`, `#any-not-match?` (regular
/// expressions), `#any-of?`, `#not-any-of?`; `#set!`, `#is?` and `#is-not?` are accepted as
/// properties and do not filter. Any other predicate is an error, so a typo never matches silently.
///
/// A compiled query is immutable and can be used from several threads at once.
public final class Query: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The query's source.
    public let source: String
    /// The capture names, in the order the query declares them.
    public let captureNames: [String]
    /// The predicates of each pattern.
    let predicates: [[Predicate]]
    /// Capture ids by name.
    let captureIndexByName: [String: UInt32]

    /// Why a query did not compile.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// What is wrong, e.g. "invalid node type".
        public var kind: String
        /// The offending text, when known.
        public var detail: String
        /// 1-based line and column in the query's source.
        public var line: Int
        public var column: Int

        public var description: String {
            "query error at \(line):\(column): \(kind)\(detail.isEmpty ? "" : " '\(detail)'")"
        }
    }

    /// Compiles a query.
    /// - Throws: `Query.Error` naming the position and problem.
    /// The compiled query of a source text, compiled once per process: a compiled query is
    /// immutable and safe to share between threads (each match runs its own cursor), and
    /// compiling one costs milliseconds (a definition is checked when loaded and used when run).
    public static func compiled(_ source: String) throws -> Query {
        compiledLock.lock()
        let known = compiledQueries[source]
        compiledLock.unlock()
        if let known { return known }
        let query = try Query(source)
        compiledLock.lock()
        defer { compiledLock.unlock() }
        if let raced = compiledQueries[source] { return raced }
        compiledQueries[source] = query
        return query
    }

    private static let compiledLock = NSLock()
    nonisolated(unsafe) private static var compiledQueries: [String: Query] = [:]

    public init(_ source: String) throws {
        self.source = source
        var errorOffset: UInt32 = 0
        var errorType = TSQueryErrorNone
        let utf8 = Array(source.utf8)
        let compiled = utf8.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map {
                $0.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    ts_query_new(SwiftLanguage.pointer, $0, UInt32(buffer.count), &errorOffset, &errorType)
                }
            } ?? nil
        }
        guard let compiled else {
            throw Query.makeError(source: utf8, offset: Int(errorOffset), type: errorType)
        }
        pointer = compiled
        var names: [String] = []
        for index in 0..<ts_query_capture_count(compiled) {
            var length: UInt32 = 0
            let name = ts_query_capture_name_for_id(compiled, index, &length)!
            names.append(String(decoding: UnsafeRawBufferPointer(start: name, count: Int(length)), as: UTF8.self))
        }
        captureNames = names
        captureIndexByName = Dictionary(names.enumerated().map { ($1, UInt32($0)) }, uniquingKeysWith: { first, _ in first })
        do {
            predicates = try (0..<ts_query_pattern_count(compiled)).map {
                try Predicate.parse(query: compiled, pattern: $0, captureNames: names, source: utf8)
            }
        } catch {
            ts_query_delete(compiled)
            throw error
        }
    }

    deinit { ts_query_delete(pointer) }

    /// Above this many ranges, `matches(in:touching:)` makes one pass over their span.
    static let rangesBeforeOnePass = 16

    /// The number of patterns in the query.
    public var patternCount: Int { Int(ts_query_pattern_count(pointer)) }

    /// Every match of the query under a node (the whole tree by default), in source order,
    /// with predicates applied.
    /// - Throws: `RegexTimeout` when a `#match?` pattern runs out of time (see `BoundedRegex`).
    public func matches(in tree: SyntaxTree, under node: Node? = nil) throws -> [QueryMatch] {
        try matches(in: tree, under: node, byteRange: nil)
    }

    /// The matches that touch some byte ranges (say, around the occurrences of a word every
    /// match contains): only the nodes that intersect a range are visited, which is much faster
    /// than walking the whole tree. A match touching several ranges is returned once.
    /// - Throws: `RegexTimeout` when a `#match?` pattern runs out of time (see `BoundedRegex`).
    ///
    /// Each range costs a descent from the root (through every earlier sibling on the way), so
    /// with many ranges one pass over their whole span is cheaper: it is linear in the tree's size,
    /// where a pass per range would be quadratic (a generated file with 20,000 occurrences).
    public func matches(in tree: SyntaxTree, touching ranges: [Range<Int>]) throws -> [QueryMatch] {
        var seen = Set<[UInt64]>()
        var result: [QueryMatch] = []
        var ranges = ranges
        if ranges.count > Self.rangesBeforeOnePass, let first = ranges.map(\.lowerBound).min(), let last = ranges.map(\.upperBound).max() {
            ranges = [first..<last]
        }
        for range in ranges {
            for match in try matches(in: tree, under: nil, byteRange: range) {
                let key = [UInt64(match.patternIndex)] + match.captures.map { UInt64(UInt(bitPattern: $0.node.raw.id)) }
                if seen.insert(key).inserted { result.append(match) }
            }
        }
        return result.sorted {
            ($0.captures.first?.node.byteRange.lowerBound ?? 0, $0.patternIndex) < ($1.captures.first?.node.byteRange.lowerBound ?? 0, $1.patternIndex)
        }
    }

    private func matches(in tree: SyntaxTree, under node: Node?, byteRange: Range<Int>?) throws -> [QueryMatch] {
        let scope = node ?? tree.root
        let cursor = ts_query_cursor_new()!
        defer { ts_query_cursor_delete(cursor) }
        if let byteRange {
            _ = ts_query_cursor_set_byte_range(cursor, UInt32(byteRange.lowerBound), UInt32(byteRange.upperBound))
        }
        ts_query_cursor_exec(cursor, pointer, scope.raw)
        var result: [QueryMatch] = []
        var match = TSQueryMatch()
        while ts_query_cursor_next_match(cursor, &match) {
            // Most candidates of a pattern such as `((simple_identifier) @id (#eq? @id "X"))` fail a
            // byte comparison: reject those before making any Swift values.
            if !passesByteEquality(match, source: tree.source) { continue }
            var captures: [QueryCapture] = []
            captures.reserveCapacity(Int(match.capture_count))
            for index in 0..<Int(match.capture_count) {
                let capture = match.captures[index]
                captures.append(QueryCapture(name: captureNames[Int(capture.index)],
                                             node: Node(raw: capture.node, tree: tree)))
            }
            let candidate = QueryMatch(patternIndex: Int(match.pattern_index), captures: captures)
            if try predicates[candidate.patternIndex].allSatisfy({ try $0.holds(for: candidate) }) {
                result.append(candidate)
            }
        }
        return result
    }

    /// Whether a raw match passes the pattern's string `#eq?` / `#not-eq?` predicates (the others
    /// are checked later, on Swift values).
    private func passesByteEquality(_ match: TSQueryMatch, source: SourceText) -> Bool {
        for predicate in predicates[Int(match.pattern_index)] {
            guard case let .equalBytes(value) = predicate.test, !predicate.any,
                  let captureIndex = captureIndexByName[predicate.capture] else { continue }
            for index in 0..<Int(match.capture_count) where match.captures[index].index == captureIndex {
                let node = match.captures[index].node
                let start = Int(ts_node_start_byte(node)), end = Int(ts_node_end_byte(node))
                let same = end - start == value.count && source.bytes[start..<end].elementsEqual(value)
                if same == predicate.negated { return false }
            }
        }
        return true
    }

    static func makeError(source: [UInt8], offset: Int, type: TSQueryError) -> Error {
        let clamped = min(offset, source.count)
        let text = SourceText(String(decoding: source, as: UTF8.self))
        let location = text.location(ofByte: clamped)
        let kind: String
        switch type {
        case TSQueryErrorSyntax: kind = "syntax error"
        case TSQueryErrorNodeType: kind = "invalid node type"
        case TSQueryErrorField: kind = "invalid field name"
        case TSQueryErrorCapture: kind = "invalid capture name"
        case TSQueryErrorStructure: kind = "impossible pattern (the grammar has no such structure)"
        case TSQueryErrorLanguage: kind = "incompatible language"
        default: kind = "error"
        }
        let rest = source[clamped...].prefix { byte in
            !(byte == 0x20 || byte == 0x0A || byte == 0x29 || byte == 0x28 || byte == 0x09)
        }
        return Error(kind: kind, detail: String(decoding: rest, as: UTF8.self),
                     line: location.line, column: location.characterColumn)
    }
}

/// One captured node of a match.
public struct QueryCapture {
    /// The capture name, without `@`.
    public var name: String
    /// The captured node.
    public var node: Node
}

/// One match of a query pattern.
public struct QueryMatch {
    /// Which pattern of the query matched (0-based).
    public var patternIndex: Int
    /// The captures, in the order tree-sitter reports them.
    public var captures: [QueryCapture]

    /// The nodes captured under a name.
    public func nodes(_ name: String) -> [Node] {
        captures.filter { $0.name == name }.map(\.node)
    }

    /// The first node captured under a name.
    public subscript(_ name: String) -> Node? {
        captures.first { $0.name == name }?.node
    }
}

/// A text predicate of a query pattern, such as `(#eq? @name "self")`.
struct Predicate {
    enum Operand {
        case capture(String)
        case string(String)
    }

    enum Test {
        case equal(Operand)
        /// `#eq?` with a string, kept as bytes: compared without making strings.
        case equalBytes([UInt8])
        case matches(BoundedRegex)
        case anyOf(Set<String>)
        case property
    }

    var capture: String
    var test: Test
    var negated: Bool
    var any: Bool

    func holds(for match: QueryMatch) throws -> Bool {
        if case .property = test { return true }
        let nodes = match.nodes(capture)
        // Like tree-sitter: a predicate on a capture that did not take part in the match holds.
        guard !nodes.isEmpty else { return true }
        let check: (Node) throws -> Bool = { node in
            if case let .equalBytes(value) = test {
                let range = node.byteRange
                let same = range.count == value.count && node.tree.source.bytes[range].elementsEqual(value)
                return same != negated
            }
            let text = node.text
            let result: Bool
            switch test {
            case .equalBytes: result = false
            case let .equal(.string(value)): result = text == value
            case let .equal(.capture(other)): result = match.nodes(other).allSatisfy { $0.text == text }
            case let .matches(regex):
                result = try regex.matches(text)
            case let .anyOf(values): result = values.contains(text)
            case .property: result = true
            }
            return result != negated
        }
        return try any ? nodes.contains(where: check) : nodes.allSatisfy(check)
    }

    static func parse(query: OpaquePointer, pattern: UInt32, captureNames: [String],
                      source: [UInt8]) throws -> [Predicate] {
        var stepCount: UInt32 = 0
        guard let steps = ts_query_predicates_for_pattern(query, pattern, &stepCount), stepCount > 0 else {
            return []
        }
        let patternStart = Int(ts_query_start_byte_for_pattern(query, pattern))
        func stringValue(_ id: UInt32) -> String {
            var length: UInt32 = 0
            let pointer = ts_query_string_value_for_id(query, id, &length)!
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(length)), as: UTF8.self)
        }
        func failure(_ message: String) -> Query.Error {
            var error = Query.makeError(source: source, offset: patternStart, type: TSQueryErrorNone)
            error.kind = message
            error.detail = ""
            return error
        }
        var result: [Predicate] = []
        var current: [TSQueryPredicateStep] = []
        for index in 0..<Int(stepCount) {
            let step = steps[index]
            if step.type == TSQueryPredicateStepTypeDone {
                result.append(try make(from: current))
                current = []
            } else {
                current.append(step)
            }
        }
        return result

        func make(from steps: [TSQueryPredicateStep]) throws -> Predicate {
            guard let first = steps.first, first.type == TSQueryPredicateStepTypeString else {
                throw failure("a predicate must start with its name")
            }
            let name = stringValue(first.value_id)
            let arguments: [Operand] = steps.dropFirst().map {
                $0.type == TSQueryPredicateStepTypeCapture
                    ? .capture(captureNames[Int($0.value_id)]) : .string(stringValue($0.value_id))
            }
            if ["set!", "is?", "is-not?"].contains(name) {
                return Predicate(capture: "", test: .property, negated: false, any: false)
            }
            guard case let .capture(subject)? = arguments.first else {
                throw failure("#\(name) needs a capture as its first argument")
            }
            let rest = Array(arguments.dropFirst())
            if name == "any-of?" || name == "not-any-of?" {
                let values = try rest.map { operand -> String in
                    guard case let .string(value) = operand else {
                        throw failure("#\(name) takes a capture and strings")
                    }
                    return value
                }
                return Predicate(capture: subject, test: .anyOf(Set(values)),
                                 negated: name == "not-any-of?", any: false)
            }
            var base = name
            let any = base.hasPrefix("any-")
            if any { base.removeFirst(4) }
            let negated = base.hasPrefix("not-")
            if negated { base.removeFirst(4) }
            switch base {
            case "eq?":
                guard rest.count == 1 else { throw failure("#\(name) takes a capture and one value") }
                if case let .string(value) = rest[0] {
                    return Predicate(capture: subject, test: .equalBytes(Array(value.utf8)), negated: negated, any: any)
                }
                return Predicate(capture: subject, test: .equal(rest[0]), negated: negated, any: any)
            case "match?":
                guard rest.count == 1, case let .string(pattern) = rest[0] else {
                    throw failure("#\(name) takes a capture and one regular expression string")
                }
                do {
                    let regex = try BoundedRegex(pattern)
                    return Predicate(capture: subject, test: .matches(regex), negated: negated, any: any)
                } catch {
                    throw failure("#\(name) has an invalid regular expression \"\(pattern)\"")
                }
            default:
                throw failure("unknown predicate #\(name)")
            }
        }
    }
}
