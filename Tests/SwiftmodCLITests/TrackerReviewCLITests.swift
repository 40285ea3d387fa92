import Foundation
import Testing

/// The tracker as a hostile tester found it (issue 23): damaged histories, `--since` on the day of
/// the current commit's record, one team however CODEOWNERS spells it, the status of a history
/// that has no trend, and a history that starts later than the migration.
@Suite struct TrackerReviewCLITests {
    static let config = """
    migrations:
      - id: outlets
        codemod: strong-iboutlet
        priority: P1
        started: 2026-10-01
        deadline: 2026-12-31

    """

    func outlets(_ prefix: String, _ count: Int) -> String {
        "import UIKit\n\nfinal class \(prefix)View: UIView {\n"
            + (0..<count).map { "    @IBOutlet weak var \(prefix.lowercased())\($0): UILabel!\n" }.joined() + "}\n"
    }

    /// A repository recorded on each of `days`, with `uses[i]` outlets on day i.
    func repository(days: [String], uses: [Int], config: String = Self.config, codeOwners: String = "/A/ @acme/a\n") throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", config)
        try repo.write(".github/CODEOWNERS", codeOwners)
        for (day, count) in zip(days, uses) {
            try repo.write("A/Sources/AView.swift", outlets("A", count))
            try repo.commitAndRecord("day \(day)", date: day)
        }
        return repo
    }

    func migration(_ result: CLI.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any], "\(result.stderr)")
        return try #require((report["migrations"] as? [[String: Any]])?.first)
    }

    /// Runs python's sqlite3 on a history.
    func damage(_ history: String, _ sql: String) throws {
        let result = try CLI.run("python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", history, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    // MARK: - A damaged history is a clear error naming the record, never a crash

    @Test(arguments: [
        ("UPDATE count SET uses = 9223372036854775807 WHERE dimension = 'total'", "9223372036854775807 uses of outlets is more than any codebase holds"),
        ("UPDATE count SET uses = 9223372036854775807 WHERE dimension = 'owner'", "9223372036854775807 uses of outlets in @acme/a is more than any codebase holds"),
        ("UPDATE count SET uses = -3 WHERE dimension = 'module'", "-3 uses of outlets in (no module) is negative"),
        ("UPDATE snapshot SET date = '2026-02-30' WHERE id = 1", "the date '2026-02-30' is not a day of the calendar"),
        ("UPDATE snapshot SET date = '2026-13-01' WHERE id = 1", "the date '2026-13-01' is not a day of the calendar"),
        ("UPDATE count SET dimension = 'team' WHERE dimension = 'owner'", "a count of outlets by 'team', which is none of total, module and owner"),
        ("INSERT INTO count (snapshotId, migration, dimension, name, uses) SELECT snapshotId, migration, dimension, name, 1 FROM count WHERE dimension = 'total'",
         "two counts of outlets;"),
    ])
    func aDamagedHistoryIsAnErrorNamingTheRecord(damage sql: String, message: String) throws {
        let repo = try repository(days: ["2026-10-01", "2026-10-08"], uses: [3, 2])
        try damage(repo.url(".swiftmod/history.sqlite").path, sql)
        for format in ["html", "text", "json", "csv", "markdown"] {
            let result = try CLI.swiftmod(["report", "--format", format, "--date", "2026-10-09"], in: repo.path,
                                          environment: ["SWIFT_BACKTRACE": "enable=no"])
            #expect(result.status == 2, "\(format): \(sql): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("history.sqlite: not a usable swiftmod history database (record 1 (20"), "\(format): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(format): \(result.stderr)")
            #expect(result.stderr.contains("'DELETE FROM snapshot WHERE id = 1'"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    // MARK: - --since a day with a record

    @Test func sinceTheDayOfTheCurrentCommitsRecordComparesWithThatRecord() throws {
        let repo = try repository(days: ["2026-10-01", "2026-10-15", "2026-11-01"], uses: [6, 5, 4])
        // HEAD was recorded on 2026-11-01 with 4 uses; one more fixed since, not committed.
        try repo.write("A/Sources/AView.swift", outlets("A", 3))
        let report = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-03", "--since", "2026-11-01"], in: repo.path))
        let change = try #require(report["change"] as? [String: Any])
        #expect(change["since"] as? String == "2026-11-01", "\(change)")
        #expect(change["uses"] as? Int == 4 && change["delta"] as? Int == -1, "\(change)")
        // Since a day between records: the record before it.
        let earlier = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-03", "--since", "2026-10-20"], in: repo.path))
        let earlierChange = try #require(earlier["change"] as? [String: Any])
        #expect(earlierChange["since"] as? String == "2026-10-15" && earlierChange["delta"] as? Int == -2, "\(earlierChange)")
        let text = try CLI.swiftmod(["report", "--date", "2026-11-03", "--since", "2026-11-01"], in: repo.path).stdout
        #expect(text.contains("3 uses left (−1 use since 2026-11-01)"), "\(text)")
    }

    // MARK: - One team, however CODEOWNERS spells it

    @Test func aTeamSpelledInTwoCasesIsOneTeamAndAUseCountsOnce() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write(".github/CODEOWNERS", "/A/ @acme/feed\n/B/ @Acme/Feed\n/C/ @acme/feed @ACME/FEED\n")
        for name in ["A", "B", "C"] { try repo.write("\(name)/Sources/\(name)View.swift", outlets(name, 1)) }
        try repo.commitAndRecord("three uses", date: "2026-10-01")
        // A later commit, not recorded: the history holds the record, then today's counts.
        try repo.write("README.md", "Feed\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "readme"], date: "2026-10-02")

        let all = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-02"], in: repo.path))
        let teams = (all["teams"] as? [[String: Any]] ?? []).map { "\($0["owner"] ?? "") \($0["remaining"] ?? "")" }
        #expect(teams == ["@acme/feed 3"], "one team, every use once: \(teams)")
        let owners = (all["owners"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "") \($0["uses"] ?? "")" }
        #expect(owners == ["@acme/feed 3"], "\(owners)")
        let history = ((all["teams"] as? [[String: Any]])?.first?["history"] as? [[String: Any]] ?? []).map { $0["uses"] as? Int }
        #expect(history == [3, 3], "the recorded counts are the team's, once: \(history)")

        for spelling in ["@acme/feed", "@Acme/Feed", "@ACME/FEED"] {
            let one = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-02", "--team", spelling], in: repo.path)
            let mine = try migration(one)
            #expect(mine["total"] as? Int == 3, "\(spelling): \(mine["total"] ?? "")")
            #expect((mine["history"] as? [[String: Any]])?.map { $0["uses"] as? Int } == [3, 3], "\(spelling)")
        }
    }

    // MARK: - The status of a history without a trend

    @Test func recordsOnOneDayAreAHistoryWithoutATrend() throws {
        let repo = try repository(days: ["2026-11-01", "2026-11-01"], uses: [5, 4])
        let text = try CLI.swiftmod(["report", "--date", "2026-11-01"], in: repo.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("history:   2026-11-01 5, 2026-11-01 4"), "\(text.stdout)")
        #expect(!text.stdout.contains("NO HISTORY YET"), "two records are a history: \(text.stdout)")
        #expect(text.stdout.contains("— NO TREND YET"), "\(text.stdout)")
        let json = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-01"], in: repo.path))
        #expect(json["status"] as? String == "no-trend")
        // One record and today's counts: no history yet.
        let fresh = try repository(days: ["2026-11-01"], uses: [5])
        let single = try CLI.swiftmod(["report", "--date", "2026-11-01"], in: fresh.path).stdout
        #expect(single.contains("— NO HISTORY YET"), "\(single)")
    }

    // MARK: - A history that starts later than the migration

    @Test func aHistoryStartingWeeksAfterStartedIsNamedInEveryFormat() throws {
        let repo = try repository(days: ["2026-10-29", "2026-11-05"], uses: [6, 5])
        let sentence = "history starts 2026-10-29, 4 weeks after started: 2026-10-01; records before that are missing"
        let text = try CLI.swiftmod(["report", "--date", "2026-11-06"], in: repo.path)
        #expect(text.stdout.contains("  warning: \(sentence)"), "\(text.stdout)")
        let json = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-06"], in: repo.path))
        let missing = try #require(json["missingHistory"] as? [String: Any], "\(json)")
        #expect(missing["firstRecord"] as? String == "2026-10-29" && missing["started"] as? String == "2026-10-01" && missing["days"] as? Int == 28, "\(missing)")
        #expect(missing["message"] as? String == sentence, "\(missing)")
        let csv = try CLI.swiftmod(["report", "--format", "csv", "--date", "2026-11-06"], in: repo.path).stdout
        #expect(csv.contains(",missing-history,\"\(sentence)\",") || csv.contains(",missing-history,\(sentence),"), "\(csv)")
        let markdown = try CLI.swiftmod(["report", "--format", "markdown", "--date", "2026-11-06"], in: repo.path).stdout
        #expect(markdown.contains("**outlets**: \(sentence)"), "\(markdown)")
        let html = try CLI.swiftmod(["report", "--format", "html", "--date", "2026-11-06"], in: repo.path).stdout
        #expect(html.contains("<p class=\"missing-history\" data-first-record=\"2026-10-29\">\(sentence)</p>"), "\(html)")
        // Written to a file, the report says it in the log too.
        let written = try CLI.swiftmod(["report", "--format", "html", "--date", "2026-11-06", "--output", "progress.html"], in: repo.path)
        #expect(written.stderr.contains("warning: outlets: \(sentence)"), "\(written.stderr)")

        // Within a week of started: nothing to say.
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "started: 2026-10-01", with: "started: 2026-10-22"))
        let close = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-06"], in: repo.path)
        #expect(try migration(close)["missingHistory"] == nil)
        #expect(!(try CLI.swiftmod(["report", "--date", "2026-11-06"], in: repo.path).stdout.contains("warning:")))
    }

    /// Found by a second hostile review: a record dated after the report's day was dropped
    /// from the report without a word.
    @Test func recordsDatedAfterTheReportsDayAreSaidToBeLeftOut() throws {
        let repo = try repository(days: ["2026-11-02", "2999-01-01"], uses: [3, 2])
        let result = try CLI.swiftmod(["report"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: 1 record is dated after ") && result.stderr.contains(" (2999-01-01) and not shown"), "\(result.stderr)")
        // A report as of a day leaves later records out on purpose.
        let asOf = try CLI.swiftmod(["report", "--date", "2026-11-20"], in: repo.path)
        #expect(!asOf.stderr.contains("dated after"), "\(asOf.stderr)")
    }

    @Test func noHistoryAtAllAfterTheMigrationStartedIsSaid() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write("A/Sources/AView.swift", outlets("A", 2))
        let sentence = "no history recorded, though started: 2026-10-01 is 3 weeks ago; records since then are missing"
        let text = try CLI.swiftmod(["report", "--date", "2026-10-22"], in: repo.path)
        #expect(text.stdout.contains("  warning: \(sentence)"), "\(text.stdout)")
        let json = try migration(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-22"], in: repo.path))
        #expect((json["missingHistory"] as? [String: Any])?["message"] as? String == sentence, "\(json)")
        // On the day it started, or before: nothing is missing yet.
        for day in ["2026-10-01", "2026-09-20"] {
            #expect(!(try CLI.swiftmod(["report", "--date", day], in: repo.path).stdout.contains("warning:")), "\(day)")
        }
    }
}
