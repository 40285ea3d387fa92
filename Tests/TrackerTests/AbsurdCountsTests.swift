import Foundation
import Migrations
import Testing
@testable import Tracker

/// Counts at the limit of `Int` (a damaged history that reached the report some other way than
/// `HistoryStore`, which refuses them) are added up without overflowing, in every format: a
/// report never traps (issue 23).
@Suite struct AbsurdCountsTests {
    func use(_ migration: String, _ file: String) -> Finding {
        Finding(kind: .use, migration: migration, codemod: Migration.moduleRulesID, file: file, line: 1, column: 1,
                endLine: 1, endColumn: 2, text: "x", scope: "s", inErrorRegion: false)
    }

    func migration(_ id: String) -> Migration {
        var settings = MigrationSettings(id: id, codemod: Migration.moduleRulesID, deadline: "2027-06-30", line: 1)
        settings.started = "2026-11-01"
        return Migration(rule: settings, type: nil)
    }

    @Test(arguments: [false, true])
    func countsAtIntsLimitAreAddedWithoutOverflow(byModule: Bool) throws {
        let most = Int.max
        // Two records of one day, two migrations, two modules: every sum the report makes.
        let history = [
            Snapshot(date: "2026-11-01", commit: "a", totals: ["m": most, "n": most], modules: ["m": ["A": most, "B": most], "n": ["A": most]],
                     owners: ["m": ["@t": most, "@T": most], "n": ["@t": most]]),
            Snapshot(date: "2026-11-01", commit: "b", totals: ["m": most, "n": most], modules: ["m": ["A": most, "B": most], "n": ["A": most]],
                     owners: ["m": ["@t": most], "n": ["@t": most]]),
            Snapshot(date: "2026-11-08", commit: "c", totals: ["m": 0, "n": most], modules: [:], owners: ["n": ["@t": most]]),
        ]
        var builder = ProgressBuilder(moduleMap: ModuleMap(explicit: [], folders: []),
                                      owners: CodeOwners(text: "* @t\n"), today: "2026-11-15")
        if byModule { builder.modules = ["A", "B"] }
        builder.since = "2026-11-01"
        let report = builder.report(uses: [use("m", "A/x.swift"), use("n", "B/y.swift")], migrations: [migration("m"), migration("n")],
                                    history: history, commit: "d")
        let m = try #require(report.migrations.first { $0.id == "m" })
        #expect(m.history.first?.uses == most, "the sum of the modules is held at Int.max")
        #expect(m.teams.first { $0.owner == "@t" }?.history.first?.uses == most, "the team's spellings are held at Int.max")
        #expect(m.change?.delta == (m.history.last?.uses ?? 0) - most)
        for format in ProgressFormat.allCases {
            #expect(!format.render(report).isEmpty, "\(format)")
        }
        #expect(ProgressFormat.html.render(report).contains("data-total=\"2\""))
    }

    @Test func aRateTooSlowForTheCalendarProjectsNoDay() throws {
        // A billion uses, one fewer in 90 days: done in 246 million years, a day no date holds.
        let projection = try #require(ProgressBuilder.projection([("2026-01-01", 1_000_000_000), ("2026-04-01", 999_999_999)], today: "2026-04-01"))
        #expect(projection.burnPerWeek == 0.1)
        #expect(projection.completionDate == nil, "\(projection)")
        #expect(ProgressBuilder.status(total: 999_999_999, projection: projection, deadline: "2027-01-01", today: "2026-04-01", hasHistory: true) == .behind)
    }
}
