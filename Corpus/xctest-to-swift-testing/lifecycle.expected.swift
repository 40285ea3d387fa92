import Foundation
import Testing

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

@Suite(.serialized)
final class CounterTests {
    var counter: Counter
    var seen: [Int]

    init() {
        counter = Counter()
        seen = []
    }

    @Test func startsAtZero() {
        #expect(counter.value == 0)
        #expect(seen.isEmpty)
    }

    @Test func increments() {
        counter.increment()
        seen.append(counter.value)
        #expect(seen == [1], "a fresh counter per test 🧮")
    }
}

@Suite(.serialized)
final class JournalTests {
    var journal: Journal!

    init() throws {
        journal = try Journal.open()
        journal.write("opened")
    }

    deinit {
        journal?.close()
    }

    @Test func opened() {
        #expect(journal.lines == ["opened"])
    }
}

struct StrictTests {
    @Test func stops() throws {
        let values = [3, 1, 2].sorted()
        try #require(values.first == 1)
        try #require(values.count == 3, "all there")
        if values.isEmpty { try #require(Bool(false), "never empty") }
    }
}

struct AsyncSetUpTests {
    @Test func runs() async {
        #expect(true)
    }
}
