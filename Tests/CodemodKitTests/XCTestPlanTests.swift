@testable import CodemodKit
import SwiftTree
import Testing

/// The XCTest conversion across the files of a run (issue 25): helpers follow the tests that call
/// them, since neither framework sees the other's assertions (an `XCTAssert…` in a `@Test`, or an
/// `#expect` in an XCTest test, fails silently with Swift 6.3.1).
@Suite struct XCTestPlanTests {
    /// Each file converted with the plan of all of them.
    func converted(_ files: [String]) throws -> [String] {
        let trees = files.map { Parser().parse($0) }
        let plan = XCTestPlan(trees.map(XCTestSurvey.init))
        return try trees.map { tree in
            let conversion = XCTestFileConversion(tree, plan: plan)
            return String(decoding: try EditSet(conversion.edits, in: tree.source).apply(to: tree.source), as: UTF8.self)
        }
    }

    static let helper = """
        import XCTest

        func assertSorted(_ values: [Int], file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(values, values.sorted(), file: file, line: line)
        }

        """

    @Test func aHelperConvertsWithTheTestsThatCallItInOtherFiles() throws {
        let tests = """
            import XCTest

            final class SortTests: XCTestCase {
                func testSorted() {
                    assertSorted([1, 2])
                }
            }

            """
        let result = try converted([Self.helper, tests])
        #expect(result[0] == """
            import Foundation
            import Testing

            func assertSorted(_ values: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(values == values.sorted(), sourceLocation: sourceLocation)
            }

            """)
        #expect(result[1].contains("@Test func sorted()"))
    }

    @Test func oneCallerThatStaysXCTestKeepsTheHelperAndEveryOtherCallerXCTest() throws {
        let staying = """
            import XCTest

            final class SlowTests: XCTestCase {
                func testSpeed() {
                    measure { assertSorted([1]) }
                }
            }

            """
        let other = """
            import XCTest

            final class SortTests: XCTestCase {
                func testSorted() {
                    assertSorted([1, 2])
                }
            }

            """
        let trees = [Self.helper, staying, other].map { Parser().parse($0) }
        let plan = XCTestPlan(trees.map(XCTestSurvey.init))
        #expect(plan.helpersConverted.isEmpty)
        #expect(plan.helpersLeft["assertSorted"]?.contains("SlowTests") == true)
        #expect(plan.classesLeft["SortTests"]?.contains("assertSorted") == true)
        let result = try converted([Self.helper, staying, other])
        #expect(result == [Self.helper, staying, other])
    }

    @Test func aTypeThatStoresTheLocationStoresOne() throws {
        let code = """
            import XCTest

            struct Checker {
                let file: StaticString
                let line: UInt
                func check(_ x: Int) { XCTAssertEqual(x, 1, file: file, line: line) }
            }

            func check(_ x: Int, file: StaticString = #file, line: UInt = #line) {
                Checker(file: file, line: line).check(x)
            }

            final class CheckTests: XCTestCase {
                func testOne() { check(1) }
            }

            """
        let result = try converted([code])[0]
        #expect(result.contains("    let sourceLocation: SourceLocation\n    func check"))
        #expect(result.contains("#expect(x == 1, sourceLocation: sourceLocation)"))
        #expect(result.contains("Checker(sourceLocation: sourceLocation).check(x)"))
        #expect(!result.contains("XCT"))
    }

    @Test func aNameSwiftTestingAlsoDeclaresIsWrittenWithItsModule() throws {
        let code = """
            import XCTest
            import Yams

            final class TagTests: XCTestCase {
                func testTag() {
                    XCTAssertEqual(node.tag, Tag(.int))
                    let other: Tag = .init(.str)
                    XCTAssertNotNil(other)
                }
            }

            """
        let result = try converted([code])[0]
        #expect(result.contains("#expect(node.tag == Yams.Tag(.int))"))
        #expect(result.contains("let other: Yams.Tag = .init(.str)"))
    }

    @Test func aTestWhoseAssertionThrowsThrowsAndARenameThatWouldShadowIsNotMade() throws {
        let code = """
            import XCTest

            final class ProductTests: XCTestCase {
                func testProduct() {
                    XCTAssertEqual(try product(2, 3), 6)
                }
            }

            """
        let result = try converted([code])[0]
        #expect(result.contains("@Test func testProduct() throws {"))
        #expect(result.contains("#expect((try product(2, 3)) == 6)"))
    }

    @Test func aLocalValueNamedLikeXCTestAPIDoesNotKeepAClass() throws {
        let code = """
            import XCTest

            final class PermutationTests: XCTestCase {
                func testPermutations() {
                    for (k, expectation) in [[1]].enumerated() {
                        XCTAssertEqual(expectation.count, k + 1)
                    }
                }
            }

            """
        #expect(try converted([code])[0].contains("@Test func permutations()"))
    }
}

extension XCTestPlanTests {
    @Test func subclassesOfATestClassFollowTheirBaseAcrossFiles() throws {
        let base = """
            import XCTest

            class APITestCase: XCTestCase {
                func testBase() { measure { } }
            }

            class APISpec: APITestCase {
                func check(_ x: Int) { XCTAssertEqual(x, 1) }
            }

            """
        let spec = """
            import XCTest

            class MessageSpec: APISpec {
                func testProperties() { XCTAssertTrue(true) }
            }

            """
        let trees = [base, spec].map { Parser().parse($0) }
        let plan = XCTestPlan(trees.map(XCTestSurvey.init))
        #expect(plan.subclassesOfTests == ["APISpec": "APITestCase", "MessageSpec": "APISpec"])
        // Their methods are not helpers of their own.
        #expect(plan.helpersLeft["testProperties"] == nil && plan.helpersLeft["check"] == nil)
        let left = XCTestFileConversion(trees[1], plan: plan).left
        #expect(left.map(\.reason) == ["it inherits from APISpec, a test class, not from XCTestCase: convert the base class first"])
        #expect(try converted([base, spec]) == [base, spec])
    }
}

/// The hostile review's silent passes (issue 25): each input had a failing XCTest assertion that
/// a conversion turned into a passing test; now the code that holds it and what reaches it stay.
extension XCTestPlanTests {
    static let slow = """
        import XCTest

        final class PerfTests: XCTestCase {
            func testValues() { measure { [3, -1].forEach(assertPositive) } }
        }

        """

    @Test func aHelperReachedByReferenceFollowsTheClassThatReferencesIt() throws {
        let helper = "import XCTest\n\nfunc assertPositive(_ x: Int) { XCTAssertGreaterThan(x, 0) }\n"
        let direct = "import XCTest\n\nfinal class DirectTests: XCTestCase {\n    func testOne() { assertPositive(1) }\n}\n"
        let result = try converted([helper, Self.slow, direct])
        #expect(result == [helper, Self.slow, direct])
    }

    @Test func assertionsInAnInitOrAClosureKeepWhatReachesThem() throws {
        let code = """
            import XCTest

            let assertEven: (Int) -> Void = { XCTAssertEqual($0 % 2, 0) }
            struct Checker { init(_ x: Int) { XCTAssertEqual(x, 1) } }

            final class EvenTests: XCTestCase {
                func testEven() { assertEven(3) }
            }

            final class InitTests: XCTestCase {
                func testChecker() { _ = Checker(2) }
            }

            """
        let tree = Parser().parse(code)
        let plan = XCTestPlan([XCTestSurvey(tree)])
        #expect(plan.classesLeft["EvenTests"]?.contains("assertEven") == true)
        #expect(plan.classesLeft["InitTests"]?.contains("Checker") == true)
        #expect(try converted([code]) == [code])
    }

    @Test func suitesThatUseEachOtherStayTogether() throws {
        let code = """
            import XCTest

            final class ModelTests: XCTestCase {
                static func assertValid(_ x: Int) { XCTAssertGreaterThan(x, 0) }
                func testValid() { Self.assertValid(1) }
            }

            final class SpeedTests: XCTestCase {
                func testSpeed() { measure { ModelTests.assertValid(-5) } }
            }

            """
        #expect(try converted([code]) == [code])
    }

    @Test func aHandlerThatReturnsAndASkipThatSetUpDecidesAreNotMovedOutOfPlace() throws {
        let code = """
            import XCTest

            final class ParseTests: XCTestCase {
                func testBad() {
                    XCTAssertThrowsError(try parse("x")) { error in
                        if error is ParseError { return }
                        XCTFail("other error")
                    }
                }
            }

            """
        #expect(XCTestFileConversion(Parser().parse(code)).left.first?.reason.contains("returns") == true)
        let skipping = """
            import XCTest

            final class FeatureTests: XCTestCase {
                override func setUp() {
                    super.setUp()
                    Feature.enabled = true
                }
                func testMath() throws {
                    try XCTSkipUnless(Feature.enabled, "off")
                    XCTAssertEqual(1, 1)
                }
            }

            """
        // setUp sets what the skip reads, and it is shared state: the class stays as it is.
        #expect(XCTestFileConversion(Parser().parse(skipping)).left.first?.reason.contains("shared state (`Feature.enabled`)") == true)
    }

    @Test func aFileTheRunCannotReadKeepsEveryClass() {
        let code = "import XCTest\n\nfinal class A: XCTestCase {\n    func testA() { XCTAssertTrue(true) }\n}\n"
        let plan = XCTestPlan([XCTestSurvey(Parser().parse(code)), XCTestSurvey(unreadable: "Helpers.swift (over the size limit)")])
        #expect(plan.classesLeft["A"]?.contains("Helpers.swift") == true)
    }
}

extension XCTestPlanTests {
    /// swift-algorithms' `testProduct` calls the global `product(…)` and names a closure's
    /// parameter `product`: the parameter does not free the name.
    @Test func aNameCalledBareKeepsTheTestNameThoughAClosureParameterSharesIt() throws {
        let code = """
            import XCTest

            final class ProductTests: XCTestCase {
                func testProduct() {
                    XCTAssertEqual(product(1, 2), 2)
                    let check: (Int) -> Bool = { product in product > 0 }
                    XCTAssertTrue(check(1))
                }
            }

            """
        #expect(try converted([code])[0].contains("@Test func testProduct()"))
    }
}

extension XCTestPlanTests {
    /// `@Test` refuses a test marked `@available(macOS 14, *)` in an extension as in the class.
    @Test func aTestInAnExtensionMarkedAvailableKeepsItsClass() {
        let code = """
            import XCTest

            final class NewTests: XCTestCase {
                func testOld() { XCTAssertTrue(true) }
            }

            extension NewTests {
                @available(macOS 14, *)
                func testNew() { XCTAssertTrue(true) }
            }

            """
        let plan = XCTestPlan([XCTestSurvey(Parser().parse(code))])
        #expect(plan.classesLeft["NewTests"]?.contains("`testNew` is marked `@available`") == true)
    }
}
