import Foundation
import Migrations
import Testing
@testable import Tracker

/// Teams judged against their own commitment (`commitments:`), else the deadline; and the HTML
/// drill-down's cap on long lists.
@Suite struct CommitmentTests {
    func use(_ file: String, _ line: Int) -> Finding {
        Finding(kind: .use, migration: "m", codemod: Migration.moduleRulesID, file: file, line: line, column: 1,
                endLine: line, endColumn: 2, text: "x", scope: "s", inErrorRegion: false)
    }

    /// Three teams of the same migration (deadline 2027-06-30), reported on 2026-11-15 after two
    /// records: @met burns 2 a week and committed to 2026-12-15; @missed made no progress and
    /// committed to 2026-11-30; @none made no progress and committed to nothing.
    func report(today: String = "2026-11-15") -> ProgressReport.MigrationProgress {
        var settings = MigrationSettings(id: "m", codemod: Migration.moduleRulesID, deadline: "2027-06-30", line: 1)
        settings.started = "2026-11-01"
        settings.commitments = ["@met": "2026-12-15", "@missed": "2026-11-30"]
        let migration = Migration(rule: settings, type: nil)
        let owners = CodeOwners(text: "/Met/ @met\n/Missed/ @missed\n/None/ @none\n")
        let builder = ProgressBuilder(moduleMap: ModuleMap(explicit: [], folders: []), owners: owners, today: today)
        let history = [
            Snapshot(date: "2026-11-01", commit: "a", totals: ["m": 9], modules: [:], owners: ["m": ["@met": 4, "@missed": 3, "@none": 2]]),
            Snapshot(date: "2026-11-08", commit: "b", totals: ["m": 7], modules: [:], owners: ["m": ["@met": 2, "@missed": 3, "@none": 2]]),
        ]
        let uses = [use("Met/A.swift", 1)] + (1...3).map { use("Missed/B.swift", $0) } + (1...2).map { use("None/C.swift", $0) }
        return builder.report(uses: uses, migrations: [migration], history: history, commit: "c").migrations[0]
    }

    @Test func metMissedAndNoCommitment() throws {
        let migration = report()
        let teams = Dictionary(uniqueKeysWithValues: migration.teams.map { ($0.owner, $0) })
        let met = try #require(teams["@met"]), missed = try #require(teams["@missed"]), none = try #require(teams["@none"])
        #expect(met.commitment == "2026-12-15" && met.target == "2026-12-15")
        #expect(met.status == .onTrack && met.reason == nil)
        #expect(met.statusLabel == "on track for its commitment")
        #expect(missed.commitment == "2026-11-30" && missed.status == .behind)
        #expect(missed.statusLabel == "behind its commitment")
        #expect(missed.reason == "no progress recently")
        #expect(none.commitment == nil && none.target == "2027-06-30" && none.status == .behind)
        #expect(none.statusLabel == "behind")
        #expect(migration.uncommitted == ["@none"])
        #expect(Set(migration.teamsBehind.map(\.owner)) == ["@missed", "@none"])
        #expect(migration.teams.map(\.owner) == ["@missed", "@none", "@met"])  // most uses first
    }

    @Test func aCommitmentPastIsOverdueEvenBeforeTheDeadline() throws {
        let migration = report(today: "2026-12-01")
        let missed = try #require(migration.teams.first { $0.owner == "@missed" })
        #expect(missed.status == .overdue)
        #expect(missed.reason == "its commitment 2026-11-30 has passed")
        #expect(migration.uncommitted == ["@none"], "a team with a commitment is never listed as uncommitted")
    }

    @Test func theHTMLDrillDownIsCappedAndEscaped() throws {
        var migration = report()
        migration.uses = (1...250).map {
            ProgressReport.Use(file: "None/<C>.swift", line: $0, column: 1, module: "M&M", owners: ["@none"],
                               code: "let a = \"<b>\" && b", url: $0 == 1 ? "javascript:alert(1)" : "https://example.com/x#L\($0)")
        }
        let page = ProgressHTML.render(ProgressReport(date: "2026-11-15", commit: "c", team: nil, migrations: [migration], modules: nil))
        #expect(page.components(separatedBy: "<li class=\"use\"").count - 1 == 2 * ProgressHTML.drillDownLimit)  // by team, by module
        #expect(page.contains("<li class=\"more\" data-more=\"50\">… and 50 more</li>"))
        #expect(page.contains("<code>let a = &quot;&lt;b&gt;&quot; &amp;&amp; b</code>"))
        #expect(page.contains("data-file=\"None/&lt;C&gt;.swift\""))
        #expect(page.contains("data-module=\"M&amp;M\""))
        #expect(!page.contains("javascript:"), "an unsafe link is shown as text")
        #expect(page.contains("<a href=\"https://example.com/x#L2\" rel=\"noopener\">None/&lt;C&gt;.swift:2</a>"))
        #expect(!page.contains("<b>\""))
        // The overview: one row per team, most uses first.
        let rows = page.components(separatedBy: "<tr data-team=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(rows == ["@missed", "@none", "@met"])
        #expect(page.contains("data-team=\"@met\" data-migration=\"m\" data-uses=\"1\" data-status=\"on-track\""))
    }
}
