import Foundation
import Testing

/// What XCTest runs: instance methods named `test…` with no parameters (`test()` too); the rest
/// are not tests.
struct NotTestsTests {
    @Test func test() {
        #expect(helperIsCalled())
    }

    @Test func runs() {
        testHelper()
        #expect(Self.testFactory() == 1)
    }

    private func testHelper() {
        #expect(helperIsCalled())
    }

    func testing(_ value: Int) {
        #expect(value == value)
    }

    static func testFactory() -> Int { 1 }

    fileprivate func testAlsoAHelper() -> Bool { true }

    func helperIsCalled() -> Bool {
        testAlsoAHelper()
    }
}
