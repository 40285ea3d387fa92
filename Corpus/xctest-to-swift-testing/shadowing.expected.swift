import Foundation
import Testing

// Tests named like the functions they call: `testMax` calls `max(…)`, which a method `max()`
// would shadow (a method called after a dot, as `sorted()` in `testSorted`, is not shadowed).

struct ShadowingTests {
    @Test func testMax() {
        #expect(max(3, 7) == 7)
        #expect(max("a", "b", "c") == "c")
    }

    @Test func minimum() {
        #expect(min(3, 7) == 3)
    }

    @Test func testAbs() {
        let values = [-3, 2]
        #expect(values.map { abs($0) } == [3, 2])
    }

    @Test func testStride() {
        #expect(Array(stride(from: 0, to: 10, by: 5)) == [0, 5])
    }

    @Test func sorted() {
        #expect([3, 1, 2].sorted() == [1, 2, 3])
        #expect(["b", "a"].sorted(by: >) == ["b", "a"])
    }

    @Test func zipped() {
        #expect(zip([1, 2], ["a", "b"]).map { "\($0)\($1)" } == ["1a", "2b"])
    }
}
