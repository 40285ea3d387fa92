import XCTest

// Tests named like the functions they call: `testMax` calls `max(…)`, which a method `max()`
// would shadow (a method called after a dot, as `sorted()` in `testSorted`, is not shadowed).

final class ShadowingTests: XCTestCase {
    func testMax() {
        XCTAssertEqual(max(3, 7), 7)
        XCTAssertEqual(max("a", "b", "c"), "c")
    }

    func testMinimum() {
        XCTAssertEqual(min(3, 7), 3)
    }

    func testAbs() {
        let values = [-3, 2]
        XCTAssertEqual(values.map { abs($0) }, [3, 2])
    }

    func testStride() {
        XCTAssertEqual(Array(stride(from: 0, to: 10, by: 5)), [0, 5])
    }

    func testSorted() {
        XCTAssertEqual([3, 1, 2].sorted(), [1, 2, 3])
        XCTAssertEqual(["b", "a"].sorted(by: >), ["b", "a"])
    }

    func testZipped() {
        XCTAssertEqual(zip([1, 2], ["a", "b"]).map { "\($0)\($1)" }, ["1a", "2b"])
    }
}
