import Foundation
import Testing

// Helpers that hand the caller's location on, so that a failure points at the test.

/// Checks that a list is sorted, reporting at the caller's line.
func assertAscending(
    _ values: [Int],
    _ message: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (previous, next) in zip(values, values.dropFirst()) {
        #expect(previous <= next, Comment(rawValue: message()), sourceLocation: sourceLocation)
    }
}

/// Calls the checker above with the same location.
func assertAscendingAndUnique(_ values: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
    assertAscending(values, sourceLocation: sourceLocation)
    #expect(Set(values).count == values.count, "duplicates in \(values)", sourceLocation: sourceLocation)
}

/// A value that remembers where it was made, and checks against it later.
struct Recording {
    var samples: [Int] = []
    let sourceLocation: SourceLocation

    mutating func record(_ sample: Int) {
        samples.append(sample)
    }

    func verify(count: Int) {
        #expect(samples.count == count, "recorded \(samples)", sourceLocation: sourceLocation)
        #expect(!samples.isEmpty, sourceLocation: sourceLocation)
    }
}

/// A recording made at the caller's line.
func startRecording(sourceLocation: SourceLocation = #_sourceLocation) -> Recording {
    Recording(sourceLocation: sourceLocation)
}

struct HelperTests {
    @Test func ascending() {
        assertAscending([1, 2, 2, 5])
        assertAscending([], "an empty list is sorted")
    }

    @Test func ascendingAndUnique() {
        assertAscendingAndUnique([-3, 0, 8])
    }

    @Test func recording() {
        var log = startRecording()
        log.record(4)
        log.record(2)
        log.verify(count: 2)
    }

    @Test func recordingMadeHere() {
        var here = Recording(sourceLocation: #_sourceLocation)
        here.record(1)
        here.verify(count: 1)
    }

    @Test func locationWrittenOut() {
        #expect(1 + 1 == 2, sourceLocation: #_sourceLocation)
    }
}
