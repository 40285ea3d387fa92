@testable import CodemodKit
import SwiftTree
import Testing

/// XCTestCase subclasses as Swift Testing suites (issue 25).
@Suite struct TestClassConversionTests {
    /// The first class of some code converted, or why not.
    func converted(_ code: String) throws -> (text: String, tests: Int, assertions: Int)? {
        let tree = Parser().parse(code)
        guard let declaration = tree.root.children.first(where: { $0.kind == "class_declaration" }) else { return nil }
        guard case let .converted(edits, tests, assertions) = TestClassConversion.convert(declaration) else { return nil }
        let result = try EditSet(edits, in: tree.source).apply(to: tree.source)
        return (String(decoding: result, as: UTF8.self), tests, assertions)
    }

    func reason(_ code: String) -> String? {
        let tree = Parser().parse(code)
        guard let declaration = tree.root.children.first(where: { $0.kind == "class_declaration" }),
              case let .notConverted(reason) = TestClassConversion.convert(declaration) else { return nil }
        return reason
    }

    @Test func aFinalClassWithoutStoredVarsBecomesAStruct() throws {
        let code = """
            final class ChunkedTests: XCTestCase {
                let fruits = ["apple", "banana"]

                func testSimple() throws {
                    XCTAssertEqual(fruits.count, 2, "two fruits")
                    let first = try XCTUnwrap(fruits.first)
                    XCTAssertFalse(first.isEmpty || fruits.isEmpty)
                }

                func test_chunks() {
                    XCTAssertTrue(fruits.contains("apple"))
                }

                private func testHelper() {}
                func assertStability(_ x: Int) {}
            }

            """
        let result = try #require(try converted(code))
        #expect(result.text == """
            struct ChunkedTests {
                let fruits = ["apple", "banana"]

                @Test func simple() throws {
                    #expect(fruits.count == 2, "two fruits")
                    let first = try #require(fruits.first)
                    #expect(!(first.isEmpty || fruits.isEmpty))
                }

                @Test func chunks() {
                    #expect(fruits.contains("apple"))
                }

                private func testHelper() {}
                func assertStability(_ x: Int) {}
            }

            """)
        #expect(result.tests == 2 && result.assertions == 4)
    }

    @Test func storedVarsMakeAFinalClassAndOtherConformancesStay() throws {
        let code = "class CacheTests: XCTestCase, @unchecked Sendable {\n    var hits = 0\n    static var allTests = [(\"testHit\", testHit)]\n    func testHit() { hits += 1; XCTAssertEqual(hits, 1) }\n}\n"
        let result = try #require(try converted(code))
        #expect(result.text == "final class CacheTests: @unchecked Sendable {\n    var hits = 0\n    @Test func hit() { hits += 1; #expect(hits == 1) }\n}\n")
    }

    @Test func aNewNameThatWouldClashKeepsTheOldOne() throws {
        let code = "final class T: XCTestCase {\n    func testSort() {}\n    func sort() {}\n    func testURLs() {}\n    func test() {}\n}\n"
        let result = try #require(try converted(code))
        #expect(result.text == "struct T {\n    @Test func testSort() {}\n    func sort() {}\n    @Test func URLs() {}\n    @Test func test() {}\n}\n")
    }

    @Test func whatOnlyXCTestHasKeepsTheClassWithTheReason() {
        #expect(reason("class A: XCTestCase {\n    func testA() { wait(for: [e], timeout: 1) }\n}\n")?.contains("`wait`") == true)
        #expect(reason("class B: XCTestCase {\n    func testB() { measure { work() } }\n}\n")?.contains("`measure`") == true)
        #expect(reason("class C: BaseTestCase {\n    func testC() {}\n}\n")?.contains("inherits from BaseTestCase") == true)
        #expect(reason("class D: XCTestCase {\n    func testD() { XCTAssertEqual(x, 1.0, accuracy: 0.1) }\n}\n")?.contains("accuracy") == true)
    }
}

/// Whole files: the classes that convert, the ones left, and the imports (issue 25).
@Suite struct XCTestFileConversionTests {
    func converted(_ code: String) throws -> (text: String, conversion: XCTestFileConversion) {
        let tree = Parser().parse(code)
        let conversion = XCTestFileConversion(tree)
        let result = try EditSet(conversion.edits, in: tree.source).apply(to: tree.source)
        return (String(decoding: result, as: UTF8.self), conversion)
    }

    @Test func aFileWithNothingOfXCTestLeftImportsTestingAndFoundation() throws {
        let code = "@testable import Yams\nimport XCTest\n\nfinal class NodeTests: XCTestCase {\n    func testScalar() {\n        XCTAssertEqual(Node(\"1\").int, 1)\n    }\n}\n"
        let result = try converted(code)
        #expect(result.text == "@testable import Yams\nimport Foundation\nimport Testing\n\nstruct NodeTests {\n    @Test func scalar() {\n        #expect(Node(\"1\").int == 1)\n    }\n}\n")
        #expect(result.conversion.tests == 1 && result.conversion.assertions == 1 && result.conversion.left.isEmpty)
    }

    @Test func aClassLeftAsXCTestKeepsTheImportAndTestingIsAdded() throws {
        let code = "import Foundation\nimport XCTest\n\nfinal class A: XCTestCase {\n    func testA() { XCTAssertTrue(true) }\n}\n\nfinal class B: XCTestCase {\n    func testB() { measure { } }\n}\n"
        let result = try converted(code)
        #expect(result.text == "import Foundation\nimport XCTest\nimport Testing\n\nstruct A {\n    @Test func a() { #expect(true) }\n}\n\nfinal class B: XCTestCase {\n    func testB() { measure { } }\n}\n")
        #expect(result.conversion.left.map(\.name) == ["B"])
        #expect(result.conversion.left.first?.reason.contains("`measure`") == true)
    }

    @Test func aFileWhereNoClassConvertsIsLeftAsItIs() throws {
        let code = "import XCTest\n\nclass C: BaseTestCase {\n    func testC() {}\n}\n"
        let result = try converted(code)
        #expect(result.text == code)
        #expect(result.conversion.edits.isEmpty && result.conversion.left.count == 1)
    }
}
