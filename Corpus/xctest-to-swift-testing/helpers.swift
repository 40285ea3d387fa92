import XCTest

// Helpers that hand the caller's location on, so that a failure points at the test.

/// Checks that a list is sorted, reporting at the caller's line.
func assertAscending(
    _ values: [Int],
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    for (previous, next) in zip(values, values.dropFirst()) {
        XCTAssertLessThanOrEqual(previous, next, message(), file: file, line: line)
    }
}

/// Calls the checker above with the same location.
func assertAscendingAndUnique(_ values: [Int], file: StaticString = #filePath, line: UInt = #line) {
    assertAscending(values, file: file, line: line)
    XCTAssertEqual(Set(values).count, values.count, "duplicates in \(values)", file: file, line: line)
}

/// A value that remembers where it was made, and checks against it later.
struct Recording {
    var samples: [Int] = []
    let file: StaticString
    let line: UInt

    mutating func record(_ sample: Int) {
        samples.append(sample)
    }

    func verify(count: Int) {
        XCTAssertEqual(samples.count, count, "recorded \(samples)", file: file, line: line)
        XCTAssertFalse(samples.isEmpty, file: file, line: line)
    }
}

/// A recording made at the caller's line.
func startRecording(file: StaticString = #filePath, line: UInt = #line) -> Recording {
    Recording(file: file, line: line)
}

final class HelperTests: XCTestCase {
    func testAscending() {
        assertAscending([1, 2, 2, 5])
        assertAscending([], "an empty list is sorted")
    }

    func testAscendingAndUnique() {
        assertAscendingAndUnique([-3, 0, 8])
    }

    func testRecording() {
        var log = startRecording()
        log.record(4)
        log.record(2)
        log.verify(count: 2)
    }

    func testRecordingMadeHere() {
        var here = Recording(file: #filePath, line: #line)
        here.record(1)
        here.verify(count: 1)
    }

    func testLocationWrittenOut() {
        XCTAssertEqual(1 + 1, 2, file: #filePath, line: #line)
    }
}
