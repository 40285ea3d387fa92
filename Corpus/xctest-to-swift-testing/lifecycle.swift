import Foundation
import XCTest

// Setup and teardown: one instance per test in both frameworks. setUp becomes init, tearDown
// deinit (the suite is then a final class), and what setUp sets first to a literal or `Type()`
// becomes non-optional.

final class Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

final class Journal {
    static func open() throws -> Journal { Journal() }
    private(set) var lines: [String] = []
    func write(_ line: String) { lines.append(line) }
    func close() { lines.removeAll() }
}

final class CounterTests: XCTestCase {
    var counter: Counter!
    var seen: [Int]!

    override func setUp() {
        super.setUp()
        counter = Counter()
        seen = []
    }

    override func tearDown() {
        counter = nil
        seen = nil
        super.tearDown()
    }

    func testStartsAtZero() {
        XCTAssertEqual(counter.value, 0)
        XCTAssertTrue(seen.isEmpty)
    }

    func testIncrements() {
        counter.increment()
        seen.append(counter.value)
        XCTAssertEqual(seen, [1], "a fresh counter per test 🧮")
    }
}

final class JournalTests: XCTestCase {
    var journal: Journal!

    override func setUpWithError() throws {
        try super.setUpWithError()
        journal = try Journal.open()
        journal.write("opened")
    }

    override func tearDown() {
        journal?.close()
        super.tearDown()
    }

    func testOpened() {
        XCTAssertEqual(journal.lines, ["opened"])
    }
}

final class StrictTests: XCTestCase {
    override func setUp() {
        super.setUp()
        continueAfterFailure = false
    }

    func testStops() {
        let values = [3, 1, 2].sorted()
        XCTAssertEqual(values.first, 1)
        XCTAssertEqual(values.count, 3, "all there")
        if values.isEmpty { XCTFail("never empty") }
    }
}

final class AsyncSetUpTests: XCTestCase {
    override func setUp() async throws {
        try await super.setUp()
    }

    func testRuns() async {
        XCTAssertTrue(true)
    }
}
