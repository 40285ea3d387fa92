import Foundation
import Testing
@testable import Tracker

@Suite struct ProgressTests {
    @Test func projectionFollowsTheRecentRate() throws {
        // 40 uses, 10 fewer every 7 days: 10 left on 2026-01-22, gone 7 days later.
        let projection = try #require(ProgressBuilder.projection([("2026-01-01", 40), ("2026-01-08", 30), ("2026-01-15", 20), ("2026-01-22", 10)]))
        #expect(projection.burnPerWeek == 10)
        #expect(projection.completionDate == "2026-01-29")
        #expect(ProgressBuilder.projection([("2026-01-01", 5)]) == nil)
        #expect(ProgressBuilder.projection([("2026-01-01", 5), ("2026-02-01", 7)])?.completionDate == nil)
        #expect(ProgressBuilder.projection([("2026-01-01", 5), ("2026-02-01", 0)])?.completionDate == "2026-02-01")
    }

    @Test func statusAgainstTheDeadline() {
        let onTrack = ProgressReport.Projection(burnPerWeek: 1, completionDate: "2026-03-01")
        #expect(ProgressBuilder.status(total: 0, projection: nil, deadline: "2026-01-01", today: "2026-02-01", hasHistory: false) == .done)
        #expect(ProgressBuilder.status(total: 3, projection: onTrack, deadline: "2026-04-01", today: "2026-02-01", hasHistory: true) == .onTrack)
        #expect(ProgressBuilder.status(total: 3, projection: onTrack, deadline: "2026-02-15", today: "2026-02-01", hasHistory: true) == .behind)
        #expect(ProgressBuilder.status(total: 3, projection: onTrack, deadline: "2026-01-15", today: "2026-02-01", hasHistory: true) == .overdue)
        #expect(ProgressBuilder.status(total: 3, projection: nil, deadline: "2026-04-01", today: "2026-02-01", hasHistory: false) == .noHistory)
        #expect(ProgressBuilder.status(total: 3, projection: nil, deadline: nil, today: "2026-02-01", hasHistory: true) == .noDeadline)
    }

    @Test func historyKeepsOneRecordPerCommit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)/h.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try HistoryStore(path: path)
        let first = Snapshot(date: "2026-01-01", commit: "aaa", totals: ["m": 5], modules: ["m": ["A": 5]], owners: ["m": ["@t": 5]])
        try store.record(first)
        try store.record(Snapshot(date: "2026-01-01", commit: "aaa", totals: ["m": 4], modules: ["m": ["A": 4]], owners: ["m": ["@t": 4]]))
        try store.record(Snapshot(date: "2026-01-08", commit: "bbb", totals: ["m": 3], modules: [:], owners: [:]))
        let snapshots = try HistoryStore(path: path).snapshots()
        #expect(snapshots.map(\.commit) == ["aaa", "bbb"])
        #expect(snapshots.map { $0.totals["m"] } == [4, 3])
        #expect(snapshots[0].owners["m"]?["@t"] == 4)
    }

    @Test func aFileThatIsNotAHistoryIsAnError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-history-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "this is not sqlite".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: HistoryError.self) { try HistoryStore(path: path) }
    }
}

@Suite struct ProjectionEdgeTests {
    @Test func aFinishedMigrationIsDoneOnTheDayItReachedZero() {
        let projection = ProgressBuilder.projection([("2026-10-01", 1), ("2026-10-15", 0), ("2026-11-01", 0)], today: "2026-11-01")
        #expect(projection?.completionDate == "2026-10-15")
    }

    @Test func theProjectionStartsFromTheReportDay() {
        // Recorded until 2026-01-15 at 10 a week; reported on 2026-03-01 with 10 left: not "done by
        // 2026-01-22" (in the report's past) but a week after the report day.
        let projection = ProgressBuilder.projection([("2026-01-01", 30), ("2026-01-08", 20), ("2026-01-15", 10)], today: "2026-03-01")
        #expect(projection?.completionDate == "2026-03-08")
    }

    @Test func datesAreStrict() {
        #expect(Deadline.date("2026-10-03") != nil)
        for bad in ["2026/10/03", "2026.10.03", "2026-9-1", "2026-13-01", "2026-02-30", "26-10-03"] {
            #expect(Deadline.date(bad) == nil, "\(bad)")
        }
    }
}

import Migrations

/// A history database is only written when recording, and only when it is swiftmod's (issue 12).
@Suite struct HistoryAccessTests {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)-\(name)").path
    }

    func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(arguments: [HistoryStore.Access.read, .write])
    func anotherProgramsDatabaseIsLeftAlone(access: HistoryStore.Access) throws {
        let path = temporary("other.db")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try sqlite(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: HistoryError.self) { try HistoryStore(path: path, access: access) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func readingLeavesTheFileAsItWas() throws {
        let path = temporary("h.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try HistoryStore(path: path).record(Snapshot(date: "2026-01-01", commit: "a", totals: ["m": 1], modules: [:], owners: [:]))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try HistoryStore(path: path, access: .read).snapshots().count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aHistoryFromBeforeTheApplicationIDIsStillOne() throws {
        let path = temporary("old.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try HistoryStore(path: path).record(Snapshot(date: "2026-01-01", commit: "a", totals: ["m": 1], modules: [:], owners: [:]))
        try sqlite(path, "PRAGMA application_id = 0;")
        #expect(try HistoryStore(path: path, access: .read).snapshots().count == 1)
        #expect(try HistoryStore(path: path).snapshots().count == 1)
    }
}
