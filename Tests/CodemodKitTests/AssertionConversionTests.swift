@testable import CodemodKit
import SwiftTree
import Testing

/// XCTest assertions in Swift Testing, row by row of Apple's table (issue 25).
@Suite struct AssertionConversionTests {
    /// The conversion of the first call in some code.
    func converted(_ code: String) -> AssertionConversion.Outcome {
        let tree = Parser().parse(code)
        var call: Node?
        tree.root.walk { node in
            if call == nil, node.kind == "call_expression", AssertionConversion.names.contains(node.child(at: 0)?.text ?? "") { call = node }
            return call == nil
        }
        guard let call else { return .notConverted(reason: "no call in \(code)") }
        return AssertionConversion.convert(call)
    }

    @Test(arguments: [
        ("XCTAssert(ready)", "#expect(ready)"),
        ("XCTAssertTrue(cart.isEmpty)", "#expect(cart.isEmpty)"),
        ("XCTAssertFalse(cart.isEmpty)", "#expect(!cart.isEmpty)"),
        ("XCTAssertNil(user)", "#expect(user == nil)"),
        ("XCTAssertNotNil(user)", "#expect(user != nil)"),
        ("XCTAssertEqual(total, 3)", "#expect(total == 3)"),
        ("XCTAssertNotEqual(total, 3)", "#expect(total != 3)"),
        ("XCTAssertIdentical(a, b)", "#expect(a === b)"),
        ("XCTAssertNotIdentical(a, b)", "#expect(a !== b)"),
        ("XCTAssertGreaterThan(a, b)", "#expect(a > b)"),
        ("XCTAssertGreaterThanOrEqual(a, b)", "#expect(a >= b)"),
        ("XCTAssertLessThan(a, b)", "#expect(a < b)"),
        ("XCTAssertLessThanOrEqual(a, b)", "#expect(a <= b)"),
        ("XCTAssertNoThrow(try parse(text))", "#expect(throws: Never.self) { try parse(text) }"),
        ("XCTAssertThrowsError(try parse(text))", "#expect(throws: (any Error).self) { try parse(text) }"),
        ("let u = try XCTUnwrap(user)", "try #require(user)"),
        ("XCTFail(\"unreachable\")", "Issue.record(\"unreachable\")"),
        ("XCTFail()", "Issue.record()"),
    ])
    func everyRowOfApplesTable(code: String, expected: String) {
        #expect(converted(code) == .converted(expected), "\(code)")
    }

    @Test func messagesAreKeptAsTheComment() {
        #expect(converted("XCTAssertEqual(a, b, \"totals differ\")") == .converted("#expect(a == b, \"totals differ\")"))
        #expect(converted("XCTAssertTrue(ok, message)") == .converted("#expect(ok, Comment(rawValue: message))"))
        #expect(converted("XCTAssertNil(x, \"\"\"\n    long\n    \"\"\")") == .converted("#expect(x == nil, \"\"\"\n    long\n    \"\"\")"))
    }

    @Test func operandsAreParenthesisedWherePrecedenceNeedsIt() {
        #expect(converted("XCTAssertFalse(a || b)") == .converted("#expect(!(a || b))"))
        #expect(converted("XCTAssertFalse(try f())") == .converted("#expect(!(try f()))"))
        #expect(converted("XCTAssertEqual(x > 0, flag)") == .converted("#expect((x > 0) == flag)"))
        #expect(converted("XCTAssertEqual(flag, x > 0)") == .converted("#expect(flag == (x > 0))"))
        #expect(converted("XCTAssertEqual(a ?? b, c + d)") == .converted("#expect(a ?? b == c + d)"))
        #expect(converted("XCTAssertEqual(1, try f())") == .converted("#expect(1 == (try f()))"))
        #expect(converted("XCTAssertEqual(try f(), 1)") == .converted("#expect((try f()) == 1)"))
    }

    @Test func multiLineOperandsKeepTheirText() {
        let code = "XCTAssertEqual(\n    items.map { $0.name },\n    [\"a\", \"b\"]\n)"
        #expect(converted(code) == .converted("#expect(items.map { $0.name } == [\"a\", \"b\"])"))
    }

    @Test func whatHasNoSwiftTestingFormSaysWhy() {
        guard case let .notConverted(accuracy) = converted("XCTAssertEqual(x, 1.0, accuracy: 0.1)") else { Issue.record("converted"); return }
        #expect(accuracy.contains("accuracy"))
        guard case let .notConverted(location) = converted("XCTAssertEqual(a, b, file: file, line: line)") else { Issue.record("converted"); return }
        #expect(location.contains("sourceLocation"))
        guard case let .notConverted(handler) = converted("XCTAssertThrowsError(try f()) { print($0) }") else { Issue.record("converted"); return }
        #expect(handler.contains("$0"))
    }

    @Test func anErrorHandlerBecomesTheBodyOfAnIfLet() {
        let code = "XCTAssertThrowsError(try parse(\"x\")) { error in\n    XCTAssertTrue(error is ParseError)\n    XCTAssertEqual(\"\\(error)\", \"bad\")\n}"
        #expect(converted(code) == .converted("if let error = #expect(throws: (any Error).self, performing: { try parse(\"x\") }) {\n    #expect(error is ParseError)\n    #expect(\"\\(error)\" == \"bad\")\n}"))
        #expect(converted("XCTAssertThrowsError(try f(), \"must throw\") { _ in }") == .converted("#expect(throws: (any Error).self, \"must throw\") { try f() }"))
    }
}

extension AssertionConversionTests {
    /// Arguments written one a line, with an operand over several lines, keep that shape.
    @Test func aMultiLineOperandKeepsTheCallsShape() {
        let code = "XCTAssertEqual(\n    values\n        .filter { $0 > 1 }\n        .count,\n    2\n)"
        #expect(converted(code) == .converted("#expect(\n    values\n        .filter { $0 > 1 }\n        .count == 2\n)"))
    }
}
