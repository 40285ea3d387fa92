@testable import CodemodKit
import SwiftTree
import Testing

/// Expectations → `confirmation` (issue 25): converted where every fulfilment happens before the
/// wait, else the class stays XCTest with the reason. The shapes were compiled and run before and
/// after with Swift Testing 6.3.1 (the `expectations` fixture does so in the suite).
@Suite struct ExpectationConversionTests {
    func converted(_ code: String) throws -> String { try XCTestFile.converted(code) }

    func reasons(_ code: String) -> [String] { XCTestFile.reasons(code) }

    /// A class around one test's body.
    func test(_ body: String, signature: String = "func testIt()") -> String {
        """
        import XCTest

        final class ItTests: XCTestCase {
            \(signature) {
        \(body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
            }
        }

        """
    }

    @Test func anExpectationFulfilledInTheTestIsAConfirmationAroundItsFulfilments() throws {
        let result = try converted(test("""
            let parser = Parser()
            let done = expectation(description: "parsed")
            done.expectedFulfillmentCount = 2
            parser.parse(text)
            if parser.finished { done.fulfill() }
            for _ in parser.items { done.fulfill() }
            wait(for: [done], timeout: 1)
            XCTAssertTrue(parser.finished)
            """))
        #expect(result == """
            import Foundation
            import Testing

            struct ItTests {
                @Test func it() async {
                    let parser = Parser()
                    parser.parse(text)
                    await confirmation("parsed", expectedCount: 2) { done in
                        if parser.finished { done() }
                        for _ in parser.items { done() }
                    }
                    #expect(parser.finished)
                }
            }

            """)
    }

    @Test func countsFollowXCTest() throws {
        // Inverted: never; XCTestExpectation's initializer and `assertForOverFulfill = false`
        // tolerate more fulfilments (at least n); `expectation(description:)` does not.
        let result = try converted(test("""
            let never = XCTestExpectation(description: "never")
            never.isInverted = true
            let loose = XCTestExpectation(description: "loose")
            loose.expectedFulfillmentCount = 2
            let strict = XCTestExpectation(description: "strict")
            strict.assertForOverFulfill = true
            let tolerant = expectation(description: description)
            tolerant.assertForOverFulfill = false
            loose.fulfill(); loose.fulfill()
            strict.fulfill()
            tolerant.fulfill()
            wait(for: [never, loose, strict, tolerant], timeout: 0.5)
            """))
        #expect(result.contains("""
                    await confirmation("never", expectedCount: 0) { _ in
                        await confirmation("loose", expectedCount: 2...) { loose in
                            await confirmation("strict") { strict in
                                await confirmation(Comment(rawValue: description), expectedCount: 1...) { tolerant in
                                    loose(); loose()
                                    strict()
                                    tolerant()
                                }
                            }
                        }
                    }
            """))
    }

    @Test func aTestBecomesAsyncAndThrowsAsItsBodyNeeds() throws {
        // An assertion whose operand throws, inside the body: `try await`, and the test
        // `async throws` (one edit).
        let result = try converted(test("""
            let done = expectation(description: "done")
            done.fulfill()
            XCTAssertEqual(try parse("4"), 4)
            waitForExpectations(timeout: 1)
            """))
        #expect(result.contains("""
                @Test func it() async throws {
                    try await confirmation("done") { done in
                        done()
                        #expect((try parse("4")) == 4)
                    }
                }
            """))
        let throwing = try converted(test("""
            let done = expectation(description: "done")
            done.fulfill()
            wait(for: [done], timeout: 1)
            """, signature: "func testIt() throws"))
        #expect(throwing.contains("@Test func it() async throws {"))
    }

    @Test func windowsLineEndingsStay() throws {
        let code = test("""
            let done = expectation(description: "done")
            done.fulfill()
            wait(for: [done], timeout: 1)
            """).replacingOccurrences(of: "\n", with: "\r\n")
        let result = try converted(code)
        #expect(result.contains("await confirmation(\"done\") { done in\r\n            done()\r\n        }\r\n"))
        // (The runner writes every line break of a CRLF file as CRLF, the added imports' too.)
    }

    @Test(arguments: [
        // A callback may run after the test reaches its wait (XCTest waits; `confirmation` does not).
        ("let e = expectation(description: \"e\")\nclient.load { _ in e.fulfill() }\nwait(for: [e], timeout: 1)", "is fulfilled in a closure (line 6)"),
        ("let e = expectation(description: \"e\")\nDispatchQueue.global().async { e.fulfill() }\nwait(for: [e], timeout: 1)", "is fulfilled in a closure"),
        ("let e = expectation(description: \"e\")\nfunc done() { e.fulfill() }\ndone()\nwait(for: [e], timeout: 1)", "is fulfilled in the nested function `done`"),
        ("let e = expectation(description: \"e\")\nspy.expectation = e\nwait(for: [e], timeout: 1)", "is used other than by `fulfill()` and a wait (line 6)"),
        ("let e = expectation(description: \"e\")\ne.fulfill()", "is not waited for in the test"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nguard ready else { return }\nwait(for: [e], timeout: 1)", "a `return` at line 7 would leave `confirmation`'s closure"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\ndefer { cleanUp() }\nwait(for: [e], timeout: 1)", "a `defer` before it"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nlet x = 1\nwait(for: [e], timeout: 1)\nXCTAssertEqual(x, 1)", "`x` is declared before it and read after it"),
        ("let a = expectation(description: \"a\")\nlet b = expectation(description: \"b\")\na.fulfill(); b.fulfill()\nwait(for: [a, b], timeout: 1, enforceOrder: true)", "has a handler or enforces an order"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nwaitForExpectations(timeout: 1) { error in XCTAssertNil(error) }", "has a handler or enforces an order"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nwait(for: [e], timeout: 1)\ne.fulfill()", "is used after its wait (line 8)"),
        ("var e = expectation(description: \"e\")\ne.fulfill()\nwait(for: [e], timeout: 1)", "is a `var`"),
        ("let e = expectation(description: \"e\")\ne.expectedFulfillmentCount = n\ne.fulfill()\nwait(for: [e], timeout: 1)", "not a number"),
        ("let e = expectation(description: \"e\")\nif ok { e.fulfill(); wait(for: [e], timeout: 1) }", "is in another block than its expectations"),
        // From a hostile review: each converted would break the build or change a result.
        ("let e = expectation(description: \"e\")\ne.fulfill()\nguard let limit = parsed else { return }\nwait(for: [e], timeout: 1)\nXCTAssertEqual(limit, 10)", "`limit` is declared before it and read after it"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nstruct Point { var x = 0 }\nwait(for: [e], timeout: 1)\nXCTAssertEqual(Point().x, 0)", "`Point` is declared before it and read after it"),
        ("let result: Int\nlet e = expectation(description: \"e\")\ne.fulfill()\nresult = 4\nwait(for: [e], timeout: 1)\nXCTAssertEqual(result, 4)", "`result` is declared without a value"),
        ("let e = XCTestExpectation(description: \"e\")\ne.isInverted = true\n_ = [1].lazy.map { _ in e.fulfill() }\nwait(for: [e], timeout: 1)", "is fulfilled in a closure"),
        ("let e = expectation(description: \"e\")\n#if os(Linux)\ne.fulfill()\n#else\ne.fulfill()\n#endif\nwait(for: [e], timeout: 1)", "its `#else` and the statements before it are in different parts of an `#if`"),
        ("let e = expectation(description: \"e\"), n = 5\ne.fulfill()\nwait(for: [e], timeout: 1)\nXCTAssertEqual(n, 5)", "is made in a form this conversion does not read"),
        ("let confirmation = \"ok\"\nlet e = expectation(description: confirmation)\ne.fulfill()\nwait(for: [e], timeout: 1)", "names something `confirmation`"),
        ("let e = expectation(description: \"e\")\nfor e in others { e.fulfill() }\ne.fulfill()\nwait(for: [e], timeout: 1)", "the name `e` is declared again in the test"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\nwait(for: [e, e], timeout: 1)", "lists an expectation twice"),
        ("let e = expectation(description: \"e\")\ne.fulfill()\ne.expectedFulfillmentCount = 2\ne.fulfill()\nwait(for: [e], timeout: 1)", "is set up after it is first fulfilled"),
        ("let e = expectation(description: \"e\")\ndo { defer { e.fulfill() } }\nwait(for: [e], timeout: 1)", "is fulfilled in a `defer`"),
        // From a second hostile review: each converted would pass where XCTest failed, or break.
        ("let e = expectation(description: \"e\")\nguard ready else { return }\ne.fulfill()\nwait(for: [e], timeout: 1)", "a `return` at line 6 leaves the test after the expectation is made"),
        ("let e = XCTestExpectation(description: \"e\")\ne.isInverted = true\nbus.forEach { _ in e.fulfill() }\nwait(for: [e], timeout: 1)", "is fulfilled in a closure"),
        ("let e = expectation(description: \"n=\\(n)\")\nn += 1\ne.fulfill()\nwait(for: [e], timeout: 1)", "the description of `e` is worked out in code, and line 6 runs between"),
        ("let e = expectation(description: \"e\")\n_ = register(self)\ne.fulfill()\nwait(for: [e], timeout: 1)", "it hands `self` to other code (line 6)"),
    ])
    func whatStaysXCTestSaysWhy(body: String, reason: String) {
        let left = reasons(test(body))
        if reason.isEmpty {
            // A `return` before the first fulfilment stays outside the confirmation: converted.
            #expect(left.isEmpty, "\(left)")
        } else {
            #expect(left.count == 1 && left[0].contains(reason), "\(left)")
        }
    }

    @Test func typedThrowsAndTestsOthersCallStay() {
        #expect(reasons(test("let e = expectation(description: \"e\")\ne.fulfill()\nwait(for: [e], timeout: 1)", signature: "func testIt() throws(ParseError)"))
            .first?.contains("has typed throws") == true)
        let called = """
            import XCTest

            final class ItTests: XCTestCase {
                func testIt() {
                    let e = expectation(description: "e")
                    e.fulfill()
                    wait(for: [e], timeout: 1)
                }
                func testAgain() { testIt() }
            }

            """
        #expect(reasons(called).first?.contains("`testIt` is called by other code") == true)
    }

    @Test func theBodyKeepsItsShape() throws {
        // `try` at a line's end; a line of blanks in a multi-line string (which must move in with
        // the string's end); a labelled loop and a `break` to it; `try await fulfillment`; a
        // comment in the wait's list.
        let quotes = String(repeating: "\"", count: 3)
        let result = try converted(test([
            "let e = expectation(description: \"e\")",
            "e.fulfill()",
            "let value = try",
            "    parse(\"4\")",
            "let text = \(quotes)",
            "    alpha",
            "  ",
            "    \(quotes)",
            "outer: for i in 0..<3 { if i == 1 { break outer } }",
            "XCTAssertEqual(text, \"alpha\")",
            "try await fulfillment(of: [e /* the one */], timeout: 1)",
        ].joined(separator: "\n"), signature: "func testIt() async throws"))
        let expected = [
            "        try await confirmation(\"e\") { e in",
            "            e()",
            "            let value = try",
            "                parse(\"4\")",
            "            let text = \(quotes)",
            "                alpha",
            "              ",
            "                \(quotes)",
            "            outer: for i in 0..<3 { if i == 1 { break outer } }",
            "            #expect(text == \"alpha\")",
            "        }",
        ].joined(separator: "\n")
        #expect(result.contains(expected), "\(result)")
    }

    @Test func nestedBlocksIndentByOneLevelAndCommentsOfWhatGoesStay() throws {
        let result = try converted(test("""
            if enabled {
                let e = expectation(
                    // why it matters
                    description: "e")
                e.fulfill()
                wait(for: [e], timeout: 1) // (comment after the wait stays after it)
            }
            """))
        #expect(result.contains("""
                    if enabled {
                        // why it matters
                        await confirmation("e") { e in
                            e()
                        } // (comment after the wait stays after it)
                    }
            """), "\(result)")
    }

    @Test func aSynchronousCallerRunsItsClosureInTurn() throws {
        // `forEach`, `withExtendedLifetime`, … run their closure before they return (`map` does
        // not on a lazy sequence); a nested one inside a callback does not make it synchronous.
        #expect(reasons(test("let e = expectation(description: \"e\")\n[1].forEach { _ in e.fulfill() }\nwait(for: [e], timeout: 1)")).isEmpty)
        #expect(reasons(test("let e = expectation(description: \"e\")\n(0..<2).forEach { _ in e.fulfill() }\nwait(for: [e], timeout: 1)")).isEmpty)
        #expect(reasons(test("let e = expectation(description: \"e\")\nload { [1].forEach { _ in e.fulfill() } }\nwait(for: [e], timeout: 1)"))
            .first?.contains("is fulfilled in a closure") == true)
    }
}
