import XCTest

// Two classes in one file: one has no Swift Testing form yet and stays XCTest, the other converts.

func average(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
}

/// Stays XCTest: `accuracy:` has no Swift Testing form.
final class AverageAccuracyTests: XCTestCase {
    func testThirds() {
        XCTAssertEqual(average([1, 2, 2]), 1.6667, accuracy: 0.001)
        XCTAssertEqual(average([]), 0)
    }
}

/// Stays XCTest: `measure` has no Swift Testing form.
final class AveragePerformanceTests: XCTestCase {
    func testSpeed() {
        let values = (1...1_000).map(Double.init)
        measure {
            XCTAssertEqual(average(values), 500.5)
        }
    }
}

/// Converts.
final class AverageTests: XCTestCase {
    func testEmpty() {
        XCTAssertEqual(average([]), 0, "nothing averages to zero")
    }

    func testWhole() {
        XCTAssertEqual(average([2, 4, 6]), 4)
        XCTAssertGreaterThan(average([-1, 5]), 1.9)
    }
}
