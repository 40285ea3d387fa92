import Foundation
import Migrations
import Testing
@testable import Tracker

/// A history filled from the past (`report --record --commit SHA --date DAY` at each commit),
/// possibly out of order: it reads in date order, and a commit it holds is never counted twice.
@Suite struct ReplayedHistoryTests {
    func snapshot(_ date: String, _ commit: String, _ uses: Int) -> Snapshot {
        Snapshot(date: date, commit: commit, totals: ["m": uses], modules: [:], owners: [:])
    }

    @Test func recordsMadeOutOfOrderReadInDateOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HistoryStore(path: path)
        try store.record(snapshot("2026-03-16", "ccc", 1))
        try store.record(snapshot("2026-03-02", "aaa", 6))
        try store.record(snapshot("2026-03-09", "bbb", 4))
        #expect(try store.record(snapshot("2026-03-02", "aaa", 6)), "the same commit again replaces its record")
        let snapshots = try HistoryStore(path: path, access: .read).snapshots()
        #expect(snapshots.map(\.date) == ["2026-03-02", "2026-03-09", "2026-03-16"])
        #expect(snapshots.map(\.commit) == ["aaa", "bbb", "ccc"])
        #expect(snapshots.map { $0.totals["m"] } == [6, 4, 1])
    }

    @Test func aCommitTheHistoryHoldsBeforeNewerRecordsIsNotAddedAgain() {
        let settings = MigrationSettings(id: "m", codemod: Migration.moduleRulesID, line: 1)
        let migration = Migration(rule: settings, type: nil)
        let builder = ProgressBuilder(moduleMap: ModuleMap(explicit: [], folders: []), owners: CodeOwners(text: ""), today: "2026-03-02")
        let history = [snapshot("2026-03-02", "aaa", 6), snapshot("2026-03-09", "bbb", 4)]
        // Just recorded `aaa` on its own day, after `bbb` was recorded: one point, the recorded one,
        // with the counts of the files counted today (none here), as "uses left" says.
        let report = builder.report(uses: [], migrations: [migration], history: history, commit: "aaa")
        #expect(report.migrations[0].history == [.init(date: "2026-03-02", commit: "aaa", uses: 0, recorded: true)])
        // Reported later at the same commit: the newer record is shown, and `aaa` is not added twice.
        var later = builder
        later.today = "2026-03-20"
        let points = later.report(uses: [], migrations: [migration], history: history, commit: "aaa").migrations[0].history
        #expect(points.map(\.commit) == ["aaa", "bbb"])
    }
}
