import Foundation
import Testing

/// The tracker as teams use it (issue 16): teams judged against their commitments or the
/// deadline, the change since a record, one team's report, the drill-down in every format, and
/// Markdown for a pull request.
@Suite struct TrackerCommitmentsCLITests {
    static let config = """
    migrations:
      - id: outlets
        codemod: strong-iboutlet
        priority: P1
        started: 2026-10-01
        deadline: 2026-12-31
        commitments: { "@acme/a": 2026-11-30, "@acme/b": 2026-11-10 }
    repository-url: https://code.example.com/ios/blob/{commit}/{path}#L{line}

    """

    func outlets(_ prefix: String, _ count: Int) -> String {
        "import UIKit\n\nfinal class \(prefix)View: UIView {\n"
            + (0..<count).map { "    @IBOutlet weak var \(prefix.lowercased())\($0): UILabel!\n" }.joined() + "}\n"
    }

    /// Three teams over three weeks: a burns 2 a week (meets its commitment), b burns 1 a week
    /// (misses its commitment), c does nothing (behind, no commitment).
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write(".github/CODEOWNERS", "/A/ @acme/a\n/B/ @acme/b\n/C/ @acme/c\n")
        for (week, (a, b)) in [(6, 6), (4, 5), (2, 4)].enumerated() {
            try repo.write("A/Sources/AView.swift", outlets("A", a))
            try repo.write("B/Sources/BView.swift", outlets("B", b))
            try repo.write("C/Sources/C View.swift", outlets("C", 3))
            let date = "2026-10-\(String(format: "%02d", 1 + 7 * week))"
            try repo.commitAndRecord("week \(week)", date: date)
        }
        return repo
    }

    func json(_ result: CLI.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func teamsAreJudgedAgainstTheirCommitmentsElseTheDeadline() throws {
        let repo = try repository()
        let report = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15"], in: repo.path))
        let migration = try #require((report["migrations"] as? [[String: Any]])?.first)
        #expect(migration["started"] as? String == "2026-10-01")
        let teams = (migration["teams"] as? [[String: Any]] ?? []).map {
            "\($0["owner"] ?? "") \($0["remaining"] ?? "") \($0["status"] ?? "") \($0["commitment"] ?? "-") \(($0["projection"] as? [String: Any])?["completionDate"] ?? "-")"
        }
        #expect(teams == [
            "@acme/b 4 behind 2026-11-10 2026-11-12",
            "@acme/c 3 behind - -",
            "@acme/a 2 on-track 2026-11-30 2026-10-22",
        ], "\(teams)")
        #expect(migration["uncommitted"] as? [String] == ["@acme/c"])
        let change = try #require(migration["change"] as? [String: Any])
        #expect(change["since"] as? String == "2026-10-08" && change["delta"] as? Int == -3, "since the previous record: \(change)")

        let text = try CLI.swiftmod(["report", "--date", "2026-10-15"], in: repo.path).stdout
        #expect(text.contains("team:      @acme/b 4 left, behind its commitment (committed to 2026-11-10): projected to finish 2026-11-12, after its commitment 2026-11-10"), "\(text)")
        #expect(text.contains("behind without a commitment: @acme/c"), "\(text)")
        #expect(text.contains("9 uses left (−3 uses since 2026-10-08)"), "\(text)")

        // Since the first record: 15 → 9.
        let since = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15", "--since", "2026-10-01"], in: repo.path))
        let sinceChange = (since["migrations"] as? [[String: Any]])?.first?["change"] as? [String: Any]
        #expect(sinceChange?["delta"] as? Int == -6 && sinceChange?["uses"] as? Int == 15, "\(String(describing: sinceChange))")
    }

    @Test func oneTeamsReportAndItsUsesInEveryFormat() throws {
        let repo = try repository()
        let head = try CLI.run("git", ["rev-parse", "HEAD"], in: repo.path).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let report = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15", "--team", "@acme/c", "--uses"], in: repo.path))
        #expect(report["team"] as? String == "@acme/c")
        let migration = try #require((report["migrations"] as? [[String: Any]])?.first)
        #expect(migration["total"] as? Int == 3)
        #expect((migration["history"] as? [[String: Any]])?.compactMap { $0["uses"] as? Int } == [3, 3, 3], "the team's own history")
        #expect(migration["status"] as? String == "behind")
        let uses = migration["uses"] as? [[String: Any]] ?? []
        #expect(uses.map { "\($0["file"] ?? ""):\($0["line"] ?? "") \($0["code"] ?? "")" } == [
            "C/Sources/C View.swift:4 @IBOutlet weak var c0: UILabel!",
            "C/Sources/C View.swift:5 @IBOutlet weak var c1: UILabel!",
            "C/Sources/C View.swift:6 @IBOutlet weak var c2: UILabel!",
        ])
        #expect(uses.first?["url"] as? String == "https://code.example.com/ios/blob/\(head)/C/Sources/C%20View.swift#L4")

        let text = try CLI.swiftmod(["report", "--date", "2026-10-15", "--team", "@acme/c", "--uses"], in: repo.path).stdout
        #expect(text.contains("  uses of @acme/c (3):\n    C/Sources/C View.swift:4: @IBOutlet weak var c0: UILabel!\n"), "\(text)")
        let csv = try CLI.swiftmod(["report", "--format", "csv", "--date", "2026-10-15", "--uses"], in: repo.path).stdout
        // Cells that start with @ are kept from being read as formulas.
        #expect(csv.contains(",use,\"'@acme/c\",1,,,,,,,,C/Sources/C View.swift,4,\"'@IBOutlet weak var c0: UILabel!\",https://code.example.com/"), "\(csv)")
        let markdown = try CLI.swiftmod(["report", "--format", "markdown", "--date", "2026-10-15", "--uses"], in: repo.path).stdout
        #expect(markdown.contains("| P1 | **outlets** | 9 | −3 uses since 2026-10-08 | 2026-12-31 | 🟢 on track |"), "\(markdown)")
        #expect(markdown.contains("- **outlets**: `@acme/b`, 4 left, behind its commitment: projected to finish 2026-11-12, after its commitment 2026-11-10"), "\(markdown)")
        #expect(markdown.contains("<details><summary>outlets: 3 uses of <code>@acme/c</code></summary>"), "\(markdown)")
        #expect(markdown.contains("- [`C/Sources/C View.swift:4`](<https://code.example.com/ios/blob/\(head)/C/Sources/C%20View.swift#L4>) ((no module)) `@IBOutlet weak var c0: UILabel!`"), "\(markdown)")

        // An unknown team names the known ones.
        let unknown = try CLI.swiftmod(["report", "--team", "@acme/d"], in: repo.path)
        #expect(unknown.status == 2 && unknown.stderr.contains("@acme/a") && unknown.stderr.contains("@acme/c"), "\(unknown.stderr)")
    }

    @Test func commitmentsAndStartDatesAreChecked() throws {
        let repo = try repository()
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "2026-11-10", with: "soon"))
        let bad = try CLI.swiftmod(["report"], in: repo.path)
        #expect(bad.status == 2 && bad.stderr.contains("commitments.@acme/b") && bad.stderr.contains("must be a date"), "\(bad.stderr)")
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "started: 2026-10-01", with: "started: 2027-10-01"))
        let late = try CLI.swiftmod(["report"], in: repo.path)
        #expect(late.status == 2 && late.stderr.contains("after the deadline"), "\(late.stderr)")
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "https://code.example.com/ios/blob/{commit}/{path}#L{line}", with: "code.example.com"))
        let url = try CLI.swiftmod(["report"], in: repo.path)
        #expect(url.status == 2 && url.stderr.contains("repository-url"), "\(url.stderr)")
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "{commit}", with: "{comit}"))
        let typo = try CLI.swiftmod(["report"], in: repo.path)
        #expect(typo.status == 2 && typo.stderr.contains("{comit} is not a placeholder"), "\(typo.stderr)")
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "2026-11-10", with: "2026-09-10"))
        let early = try CLI.swiftmod(["report"], in: repo.path)
        #expect(early.status == 2 && early.stderr.contains("before the migration started"), "\(early.stderr)")
    }

    // MARK: - Found by a hostile review

    @Test func uncommittedChangesAtARecordedCommitEndTheHistory() throws {
        let repo = try repository()
        // HEAD was recorded on 2026-10-15 with 9 uses; one more outlet fixed, not committed.
        try repo.write("A/Sources/AView.swift", outlets("A", 1))
        let report = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-16"], in: repo.path))
        let migration = try #require((report["migrations"] as? [[String: Any]])?.first)
        #expect(migration["total"] as? Int == 8)
        #expect((migration["history"] as? [[String: Any]])?.last?["uses"] as? Int == 8, "the history ends where uses left stand")
        let change = migration["change"] as? [String: Any]
        #expect(change?["delta"] as? Int == -4 && change?["since"] as? String == "2026-10-08", "\(String(describing: change))")
        // A report of a day before HEAD's record still ends with today's counts.
        let early = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-10"], in: repo.path))
        let earlyHistory = (early["migrations"] as? [[String: Any]])?.first?["history"] as? [[String: Any]] ?? []
        #expect(earlyHistory.map { "\($0["date"] ?? "") \($0["uses"] ?? "")" } == ["2026-10-01 15", "2026-10-08 12", "2026-10-10 8"], "\(earlyHistory)")
    }

    @Test func sinceWithoutAnEarlierRecordShowsNoChangeAndTeamsMatchInAnyCase() throws {
        let repo = try repository()
        let before = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15", "--since", "2026-09-01"], in: repo.path)
        #expect(before.stderr.contains("no record on or before 2026-09-01"), "\(before.stderr)")
        #expect((try json(before)["migrations"] as? [[String: Any]])?.first?["change"] == nil)

        let upper = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15", "--team", "@ACME/B"], in: repo.path))
        #expect(upper["team"] as? String == "@acme/b")

        // A commitment written in another case is the team's; one for a team nobody knows is a warning.
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "\"@acme/b\": 2026-11-10", with: "\"@ACME/B\": 2026-11-10, \"@acme/ghost\": 2027-01-01"))
        let result = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-10-15"], in: repo.path)
        #expect(result.stderr.contains("warning: outlets: a commitment for '@acme/ghost'"), "\(result.stderr)")
        let teams = (try json(result)["migrations"] as? [[String: Any]])?.first?["teams"] as? [[String: Any]] ?? []
        #expect(teams.first { $0["owner"] as? String == "@acme/b" }?["commitment"] as? String == "2026-11-10")
        #expect(!teams.contains { ($0["owner"] as? String)?.lowercased() == "@acme/b" && $0["owner"] as? String != "@acme/b" }, "no phantom team")
    }

    @Test func markdownListsAFewUsesPerTeamAndMentionsNobody() throws {
        let repo = try repository()
        try repo.write("C/Sources/C View.swift", outlets("C", 45))
        let markdown = try CLI.swiftmod(["report", "--format", "markdown", "--uses"], in: repo.path).stdout
        #expect(markdown.contains("- … and 15 more (`--format html` or `json` lists them all)"), "\(markdown)")
        #expect(!markdown.contains(" @acme/"), "handles are code spans, so a comment notifies nobody: \(markdown)")
    }
}
