import Foundation
import Testing

// Skips: a condition that needs no instance, first in a test, is a trait; anything else is a
// cancellation where the skip was (Test.cancel, Swift 6.3).

struct SkipTests {
    let ready = false

    @Test(.disabled(if: ProcessInfo.processInfo.environment["SWIFTMOD_NEVER_SET"] == nil, "the variable is not set")) func skippedOnAMissingVariable() throws {
        Issue.record("not reached")
    }

    @Test func skippedUnlessReady() throws {
        if !ready { try Test.cancel("not ready") }
        Issue.record("not reached")
    }

    @Test func thrownSkip() throws {
        if !ready {
            try Test.cancel("skipped where it is thrown")
        }
        Issue.record("not reached")
    }

    @Test func runs() throws {
        if ready { try Test.cancel("ready tests are elsewhere") }
        #expect(!ready)
    }
}
