import SwiftTree

/// One `XCTestCase` subclass written as a Swift Testing suite: `final class FooTests: XCTestCase`
/// becomes `struct FooTests` (a `final class` when it has stored `var`s, which a test may assign),
/// each `func testBar()` becomes `@Test func bar()`, its assertions become `#expect`/`#require`
/// (`AssertionConversion`), and a Linux `static var allTests` list goes.
///
/// A class is converted whole or not at all, so that what is left still builds and runs as
/// XCTest: one that uses XCTestCase's own API (setUp and tearDown, expectations, `measure`,
/// `continueAfterFailure`, skips), inherits from another base, or holds an assertion without a
/// Swift Testing form stays as it is, with the reason.
public enum TestClassConversion {
    public enum Outcome {
        /// The edits, in source order, and how many tests and assertions they convert.
        case converted(edits: [Edit], tests: Int, assertions: Int)
        case notConverted(reason: String)
    }

    /// XCTestCase members whose use keeps a class as XCTest (for now).
    static let caseAPI: Set<String> = [
        "setUp", "setUpWithError", "tearDown", "tearDownWithError", "addTeardownBlock", "measure", "measureMetrics",
        "expectation", "wait", "fulfillment", "continueAfterFailure", "executionTimeAllowance", "XCTSkip",
        "XCTSkipIf", "XCTSkipUnless", "XCTExpectFailure", "XCTContext", "XCTAttachment", "XCTWaiter",
        "keyValueObservingExpectation", "addUIInterruptionMonitor",
    ]

    public static func convert(_ declaration: Node) -> Outcome {
        guard declaration.kind == "class_declaration", let keyword = declaration.children.first(where: { $0.kind == "class" }),
              let body = declaration.child(field: "body") else {
            return .notConverted(reason: "not a class")
        }
        let name = declaration.child(field: "name")?.text ?? "?"
        let children = declaration.children
        let inheritance = children.filter { $0.kind == "inheritance_specifier" }
        guard let base = inheritance.first, base.text == "XCTestCase" || base.text == "XCTest.XCTestCase" else {
            let other = inheritance.first?.text ?? "nothing"
            return .notConverted(reason: "\(name) inherits from \(other), not XCTestCase: convert the base class first")
        }
        // What only XCTest has, anywhere in the class.
        var used: Node?
        body.walk { node in
            if used == nil, node.kind == "simple_identifier", caseAPI.contains(node.text) { used = node }
            return used == nil
        }
        if let used {
            return .notConverted(reason: "\(name) uses XCTestCase's `\(used.text)` (line \(used.start.line)), which this conversion does not handle yet")
        }
        var edits: [Edit] = []
        // Assertions: all of them convert, or the class stays.
        var assertions = 0
        var problem: String?
        body.walk { node in
            guard problem == nil else { return false }
            guard node.kind == "call_expression", let function = node.child(at: 0), AssertionConversion.names.contains(function.text) else { return true }
            switch AssertionConversion.convert(node) {
            case let .converted(text):
                // `XCTUnwrap` is called with `try` already: `try #require` once.
                var range = node.byteRange
                if text.hasPrefix("try "), let parent = node.parent, parent.kind == "try_expression", parent.child(at: 0)?.text == "try",
                   parent.byteRange.upperBound == range.upperBound {
                    range = parent.byteRange.lowerBound..<range.upperBound
                }
                edits.append(Edit(range: range, replacement: text))
                assertions += 1
                return false
            case let .notConverted(reason):
                problem = "\(name): \(function.text) at line \(node.start.line) is not converted: \(reason)"
                return false
            }
        }
        if let problem { return .notConverted(reason: problem) }
        let members = body.children
        // `struct`, unless a stored `var` may be assigned by a test.
        let storedVar = members.contains { member in
            member.kind == "property_declaration" && member.children.contains { $0.kind == "value_binding_pattern" && $0.text == "var" }
                && !(member.children.first { $0.kind == "modifiers" }?.text.contains("static") ?? false)
                && !member.children.contains { $0.kind == "computed_property" }
        }
        let modifiers = children.first { $0.kind == "modifiers" }
        let final = modifiers?.children.first { $0.kind == "inheritance_modifier" && $0.text == "final" }
        if storedVar {
            if final == nil { edits.append(Edit(range: keyword.byteRange.lowerBound..<keyword.byteRange.lowerBound, replacement: "final ")) }
        } else {
            if let final { edits.append(.removal(final.byteRange.lowerBound..<Self.nextStart(after: final, in: declaration.tree.source))) }
            edits.append(Edit(range: keyword.byteRange, replacement: "struct"))
        }
        // `: XCTestCase` (and its comma when other types follow).
        if let index = children.firstIndex(of: base) {
            if index + 1 < children.count, children[index + 1].kind == "," {
                let next = index + 2 < children.count ? children[index + 2].byteRange.lowerBound : children[index + 1].byteRange.upperBound
                edits.append(.removal(base.byteRange.lowerBound..<next))
            } else if index > 0, children[index - 1].kind == ":" {
                let start = index > 1 ? children[index - 2].byteRange.upperBound : children[index - 1].byteRange.lowerBound
                edits.append(.removal(start..<base.byteRange.upperBound))
            }
        }
        // Tests, and the Linux list of them.
        let names = Set(members.compactMap { $0.child(field: "name")?.text })
        var tests = 0
        for member in members {
            if member.kind == "property_declaration", member.text.contains("allTests"),
               member.children.contains(where: { $0.kind == "modifiers" && $0.text.contains("static") }) {
                edits.append(.removal(TidyRemoval.range(removing: member.byteRange, in: declaration.tree.source)))
                continue
            }
            guard member.kind == "function_declaration", let nameNode = member.child(field: "name"),
                  Self.isTest(member, named: nameNode.text) else { continue }
            edits.append(Edit(range: member.byteRange.lowerBound..<member.byteRange.lowerBound, replacement: "@Test "))
            let renamed = Self.testName(nameNode.text)
            if renamed != nameNode.text, !names.contains(renamed), !Self.keywords.contains(renamed) {
                edits.append(Edit(range: nameNode.byteRange, replacement: renamed))
            }
            tests += 1
        }
        return .converted(edits: edits.sorted { $0.range.lowerBound < $1.range.lowerBound }, tests: tests, assertions: assertions)
    }

    /// Whether a method is a test XCTest runs: an instance method named `test…`, not private, with
    /// no parameters.
    static func isTest(_ function: Node, named name: String) -> Bool {
        guard name.hasPrefix("test") else { return false }
        let modifiers = function.children.first { $0.kind == "modifiers" }?.text ?? ""
        for word in ["private", "fileprivate", "static", "class"] where modifiers.split(separator: " ").contains(Substring(word)) { return false }
        return !function.children.contains { $0.kind == "parameter" }
    }

    /// `testSortedOrder` → `sortedOrder`, `test_sorted` → `sorted`; `test` stays.
    static func testName(_ name: String) -> String {
        var rest = name.dropFirst(4)
        while rest.first == "_" { rest = rest.dropFirst() }
        guard let first = rest.first, first.isLetter else { return name }
        // An acronym keeps its case (`testURLs` → `URLs`).
        let acronym = rest.count > 1 && rest.dropFirst().first?.isUppercase == true
        return acronym ? String(rest) : first.lowercased() + rest.dropFirst()
    }

    static let keywords: Set<String> = ["init", "deinit", "subscript", "self", "Self", "super", "default", "case", "in", "is", "as", "try", "throw", "return", "func", "var", "let"]

    /// Where the next token after a node starts (its following blanks are removed with it).
    static func nextStart(after node: Node, in source: SourceText) -> Int {
        var end = node.byteRange.upperBound
        while end < source.bytes.count, source.bytes[end] == 0x20 || source.bytes[end] == 0x09 { end += 1 }
        return end
    }
}
