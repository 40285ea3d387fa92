import XCTest

/// What XCTest runs: instance methods named `test…` with no parameters (`test()` too); the rest
/// are not tests.
class NotTestsTests: XCTestCase {
    func test() {
        XCTAssertTrue(helperIsCalled())
    }

    func testRuns() {
        testHelper()
        XCTAssertEqual(Self.testFactory(), 1)
    }

    private func testHelper() {
        XCTAssertTrue(helperIsCalled())
    }

    func testing(_ value: Int) {
        XCTAssertEqual(value, value)
    }

    static func testFactory() -> Int { 1 }

    fileprivate func testAlsoAHelper() -> Bool { true }

    func helperIsCalled() -> Bool {
        testAlsoAHelper()
    }
}
