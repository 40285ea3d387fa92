import Foundation
import XCTest

// Skips: a condition that needs no instance, first in a test, is a trait; anything else is a
// cancellation where the skip was (Test.cancel, Swift 6.3).

final class SkipTests: XCTestCase {
    let ready = false

    func testSkippedOnAMissingVariable() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["SWIFTMOD_NEVER_SET"] == nil, "the variable is not set")
        XCTFail("not reached")
    }

    func testSkippedUnlessReady() throws {
        try XCTSkipUnless(ready, "not ready")
        XCTFail("not reached")
    }

    func testThrownSkip() throws {
        if !ready {
            throw XCTSkip("skipped where it is thrown")
        }
        XCTFail("not reached")
    }

    func testRuns() throws {
        try XCTSkipIf(ready, "ready tests are elsewhere")
        XCTAssertFalse(ready)
    }
}
