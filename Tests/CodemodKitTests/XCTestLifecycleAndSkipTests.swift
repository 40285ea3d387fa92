@testable import CodemodKit
import SwiftTree
import Testing

/// setUp/tearDown, skips, known issues and `continueAfterFailure` in Swift Testing (issue 25);
/// each form was also compiled and run with Swift Testing 6.3.1 in a scratch package.
@Suite struct XCTestLifecycleAndSkipTests {
    func converted(_ code: String) throws -> String { try XCTestFile.converted(code) }

    func reasons(_ code: String) -> [String] { XCTestFile.reasons(code) }

    @Test func setUpBecomesInitAndTearDownDeinit() throws {
        let result = try converted("""
            import XCTest

            final class StoreTests: XCTestCase {
                var store: Store!
                var log: [String]!

                override func setUpWithError() throws {
                    try super.setUpWithError()
                    store = try Store.open()
                    log = []
                    store.reset()
                }

                override func tearDown() {
                    log = nil
                    store?.close()
                    super.tearDown()
                }

                func testEmpty() {
                    XCTAssertTrue(log.isEmpty)
                }
            }

            """)
        #expect(result == """
            import Foundation
            import Testing

            @Suite(.serialized)
            final class StoreTests {
                var store: Store!
                var log: [String]

                init() throws {
                    store = try Store.open()
                    log = []
                    store.reset()
                }

                deinit {
                    store?.close()
                }

                @Test func empty() {
                    #expect(log.isEmpty)
                }
            }

            """)
    }

    @Test func whatADeinitCannotBeKeepsTheClass() {
        #expect(reasons("""
            import XCTest
            final class A: XCTestCase {
                override func tearDown() async throws { try await cleanUp() }
                func testA() { XCTAssertTrue(true) }
            }
            """).first?.contains("async") == true)
        #expect(reasons("""
            import XCTest
            final class B: XCTestCase {
                override class func setUp() { super.setUp() }
                func testB() { XCTAssertTrue(true) }
            }
            """).first?.contains("once for all its tests") == true)
        #expect(reasons("""
            import XCTest
            final class C: XCTestCase {
                func testC() { addTeardownBlock { }; XCTAssertTrue(true) }
            }
            """).first?.contains("addTeardownBlock") == true)
    }

    @Test func skipsBecomeTraitsOrCancellations() throws {
        let result = try converted("""
            import XCTest

            final class SkipTests: XCTestCase {
                let ready = true

                func testOnCI() throws {
                    try XCTSkipIf(ProcessInfo.processInfo.environment["CI"] != nil, "slow on CI")
                    XCTAssertTrue(true)
                }

                func testReady() throws {
                    try XCTSkipUnless(ready, "not ready")
                }

                func testThrown() throws {
                    if isCI { throw XCTSkip("not here") }
                }
            }

            """)
        #expect(result.contains("@Test(.disabled(if: ProcessInfo.processInfo.environment[\"CI\"] != nil, \"slow on CI\")) func onCI() throws {\n        #expect(true)"))
        #expect(result.contains("if !ready { try Test.cancel(\"not ready\") }"))
        #expect(result.contains("if isCI { try Test.cancel(\"not here\") }"))
    }

    @Test func expectedFailuresAreKnownIssues() throws {
        let result = try converted("""
            import XCTest
            final class KnownTests: XCTestCase {
                func testKnown() {
                    XCTExpectFailure("bug 12", strict: false) {
                        XCTAssertEqual(1, 2)
                    }
                }
            }
            """)
        #expect(result.contains("withKnownIssue(\"bug 12\", isIntermittent: true) {\n            #expect(1 == 2)"))
        #expect(reasons("""
            import XCTest
            final class Open: XCTestCase {
                func testOpen() { XCTExpectFailure("bug"); XCTAssertEqual(1, 2) }
            }
            """).first?.contains("withKnownIssue") == true)
    }

    @Test func stoppingOnFailureRequires() throws {
        let result = try converted("""
            import XCTest
            final class StopTests: XCTestCase {
                override func setUp() {
                    super.setUp()
                    continueAfterFailure = false
                }
                func testStops() {
                    XCTAssertEqual(1 + 1, 2)
                    if Bool(false) { XCTFail("never") }
                }
            }
            """)
        #expect(result.contains("@Test func stops() throws {"))
        #expect(result.contains("try #require(1 + 1 == 2)"))
        #expect(result.contains("try #require(Bool(false), \"never\")"))
        #expect(!result.contains("init()"))
        #expect(!result.contains("continueAfterFailure"))
    }

    @Test func aSuiteBesideUIKitRunsOnTheMainActor() throws {
        let result = try converted("""
            import UIKit
            import XCTest

            final class ButtonTests: XCTestCase {
                func testTitle() {
                    XCTAssertNil(UIButton().title(for: .normal))
                }
            }

            """)
        #expect(result.contains("@MainActor\nstruct ButtonTests {\n    @Test func title() {"))
    }
}
