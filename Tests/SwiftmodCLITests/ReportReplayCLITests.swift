import Foundation
import Testing

/// Filling the history from the past: `report --record --commit SHA --date DAY` at each commit,
/// checked out in a separate worktree, in any order, and the replay loop of `docs/tracker.md` as written.
@Suite struct ReportReplayCLITests {
    static let days = ["2026-03-02", "2026-03-09", "2026-03-16"]
    static let uses = [6, 4, 1]
    /// Today's configuration, which the repository's history never held in this form.
    static let config = """
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView }
        deadline: 2026-06-30

    """

    /// A repository of three commits on three days, with fewer web views each time. The last
    /// commit adds a first draft of the configuration; the working tree holds today's.
    func repository() throws -> (repo: Scratch, commits: [String]) {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        var commits: [String] = []
        for (index, day) in Self.days.enumerated() {
            try repo.write("Sources/Help.swift", "final class Help {\n"
                + (0..<Self.uses[index]).map { "    let page\($0) = UIWebView()\n" }.joined() + "}\n")
            if index == 2 { try repo.write(".swiftmod.yml", "# first draft\n" + Self.config) }
            try repo.git(["add", "-A"])
            let stamp = "\(day)T12:00:00Z"
            let commit = try CLI.run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "day \(index)"],
                                     in: repo.path, environment: ["GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp])
            #expect(commit.status == 0, "\(commit.stderr)")
            commits.append(try git(["rev-parse", "HEAD"], in: repo))
        }
        try repo.write(".swiftmod.yml", Self.config)
        return (repo, commits)
    }

    @discardableResult
    func git(_ arguments: [String], in repo: Scratch) throws -> String {
        let result = try CLI.run("git", arguments, in: repo.path)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `git status` of the user's working tree, but for swiftmod's own folder (the history the
    /// replay writes, the scan cache of the reports the test runs there).
    func status(of repo: Scratch) throws -> String {
        try git(["status", "--porcelain", "--untracked-files=all"], in: repo).split(separator: "\n")
            .filter { !$0.hasPrefix("?? .swiftmod/") }.joined(separator: "\n")
    }

    /// The loop's body for one commit: check it out in the worktree, copy today's configuration
    /// in, record it under its commit and committer day.
    func record(_ sha: String, worktree: String, in repo: Scratch) throws -> CLI.Result {
        try git(["-C", worktree, "checkout", "-q", "-f", sha], in: repo)
        try Self.config.write(toFile: worktree + "/.swiftmod.yml", atomically: true, encoding: .utf8)
        let day = try git(["show", "-s", "--format=%cs", sha], in: repo)
        return try CLI.swiftmod(["report", "--record", "--config", worktree + "/.swiftmod.yml", "--commit", sha, "--date", day,
                                 "--history", ".swiftmod/history.sqlite", "--format", "json"], in: repo.path)
    }

    func history(_ result: CLI.Result) throws -> (points: [[String: Any]], projection: [String: Any]?, status: String?) {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any], "\(result.stderr)")
        let webview = try #require((report["migrations"] as? [[String: Any]])?.first { $0["id"] as? String == "webview" })
        return (webview["history"] as? [[String: Any]] ?? [], webview["projection"] as? [String: Any], webview["status"] as? String)
    }

    /// The report at HEAD on the last day: three recorded points in date order, and the projection.
    func expectReplayedHistory(in repo: Scratch, commits: [String]) throws {
        let report = try CLI.swiftmod(["report", "--format", "json", "--date", Self.days[2]], in: repo.path)
        #expect(report.status == 0, "\(report.stderr)")
        let (points, projection, status) = try history(report)
        #expect(points.map { $0["date"] as? String } == Self.days)
        #expect(points.map { $0["commit"] as? String } == commits)
        #expect(points.map { $0["uses"] as? Int } == Self.uses)
        #expect(points.allSatisfy { $0["recorded"] as? Bool == true })
        // Least squares over (0, 6), (7, 4), (14, 1): 5/14 a use a day, 2.5 a week; 1 left → 3 days.
        #expect(projection?["burnPerWeek"] as? Double == 2.5)
        #expect(projection?["completionDate"] as? String == "2026-03-19")
        #expect(status == "on-track")
    }

    @Test func commitsRecordedOutOfOrderMakeAHistoryInDateOrder() throws {
        let (repo, commits) = try repository()
        let statusBefore = try status(of: repo)
        let worktree = repo.path + "-replay"
        try git(["worktree", "add", "-q", "--detach", worktree], in: repo)
        defer { try? FileManager.default.removeItem(atPath: worktree) }

        let newest = try record(commits[2], worktree: worktree, in: repo)
        #expect(newest.status == 0, "\(newest.stderr)")
        #expect(newest.stderr.contains("recorded \(Self.days[2]) at \(commits[2].prefix(10))"), "\(newest.stderr)")
        // Today's configuration copied over the commit's own is not an uncommitted change.
        #expect(!newest.stderr.contains("uncommitted"), "\(newest.stderr)")
        let oldest = try record(commits[0], worktree: worktree, in: repo)
        #expect(oldest.status == 0, "\(oldest.stderr)")
        // Recorded after a newer day, the oldest record's report ends at its own day, once.
        #expect(try history(oldest).points.map { $0["date"] as? String } == [Self.days[0]])
        #expect(try history(oldest).points.map { $0["uses"] as? Int } == [Self.uses[0]])
        let middle = try record(commits[1], worktree: worktree, in: repo)
        #expect(middle.status == 0, "\(middle.stderr)")
        #expect(try history(middle).points.map { $0["uses"] as? Int } == Array(Self.uses.prefix(2)))
        for result in [newest, oldest, middle] { #expect(!result.stderr.contains("note:"), "\(result.stderr)") }

        try expectReplayedHistory(in: repo, commits: commits)
        // The same commit again replaces its record.
        let again = try record(commits[0], worktree: worktree, in: repo)
        #expect(again.stderr.contains("replaced the record of \(Self.days[0]) at \(commits[0].prefix(10))"), "\(again.stderr)")
        try expectReplayedHistory(in: repo, commits: commits)

        try git(["worktree", "remove", "--force", worktree], in: repo)
        #expect(try git(["rev-parse", "HEAD"], in: repo) == commits[2])
        let statusAfter = try status(of: repo)
        #expect(statusAfter == statusBefore, "the user's working tree is untouched")
        #expect(statusBefore == "M .swiftmod.yml")
    }

    /// The replay loop of `docs/tracker.md`, run as written with `sh`.
    static func readmeLoop() throws -> String {
        let page = try String(contentsOfFile: CLI.packageRoot + "/docs/tracker.md", encoding: .utf8)
        let start = try #require(page.range(of: "```sh\nreplay=$(mktemp -d)\n"))
        let end = try #require(page[start.upperBound...].range(of: "\n```\n"))
        return String(page[page.index(start.lowerBound, offsetBy: "```sh\n".count)..<end.lowerBound]) + "\n"
    }

    @Test func theReadmeLoopReplaysEveryCommitWithoutTouchingTheWorkingTree() throws {
        let (repo, commits) = try repository()
        let statusBefore = try status(of: repo)
        let binaryFolder = (CLI.binary as NSString).deletingLastPathComponent
        let path = binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let script = try Self.readmeLoop()
        #expect(script.contains("swiftmod report --record"))
        let first = try CLI.run("sh", ["-e", "-c", script], in: repo.path, environment: ["PATH": path])
        #expect(first.status == 0, "\(first.stderr)")
        for (day, commit) in zip(Self.days, commits) {
            #expect(first.stderr.contains("recorded \(day) at \(commit.prefix(10))"), "\(first.stderr)")
        }
        #expect(!first.stderr.contains("note:"), "\(first.stderr)")
        try expectReplayedHistory(in: repo, commits: commits)

        // Run again: every record is replaced, none added.
        let second = try CLI.run("sh", ["-e", "-c", script], in: repo.path, environment: ["PATH": path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.components(separatedBy: "replaced the record of").count - 1 == 3, "\(second.stderr)")
        try expectReplayedHistory(in: repo, commits: commits)

        #expect(try git(["worktree", "list", "--porcelain"], in: repo).components(separatedBy: "worktree ").count - 1 == 1)
        #expect(try git(["rev-parse", "HEAD"], in: repo) == commits[2])
        let statusAfter = try status(of: repo)
        #expect(statusAfter == statusBefore, "the user's working tree is untouched")
        #expect(statusBefore == "M .swiftmod.yml")
    }

    @Test func aCommitIsResolvedByGitOrTakenAsAHexSHAOutsideGit() throws {
        let (repo, commits) = try repository()
        // A ref resolves to the full SHA; one that names no commit is refused before any scan.
        let parent = try CLI.swiftmod(["report", "--format", "json", "--commit", "HEAD~1"], in: repo.path)
        #expect(parent.status == 0, "\(parent.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: parent.stdoutBytes) as? [String: Any])
        #expect(report["commit"] as? String == commits[1])
        #expect(parent.stderr.contains("note: the files checked out at \(commits[2].prefix(10)) are counted, under commit \(commits[1].prefix(10))"))
        let short = try CLI.swiftmod(["report", "--format", "json", "--commit", String(commits[0].prefix(8))], in: repo.path)
        #expect((try JSONSerialization.jsonObject(with: short.stdoutBytes) as? [String: Any])?["commit"] as? String == commits[0])
        for wrong in ["no-such-branch", "deadbeef1", "HEAD~9"] {
            let refused = try CLI.swiftmod(["report", "--record", "--commit", wrong], in: repo.path)
            #expect(refused.status == 2, "\(wrong): \(refused.stderr)")
            #expect(refused.stderr.contains("--commit \(wrong): no such commit in the git repository at"), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.swiftmod/history.sqlite"), "nothing recorded")

        // Outside git, a hex SHA is taken as given (in lower case); anything else is refused.
        let plain = try Scratch()
        try plain.write(".swiftmod.yml", Self.config)
        try plain.write("Help.swift", "let page = UIWebView()\n")
        let recorded = try CLI.swiftmod(["report", "--record", "--commit", "0123ABC", "--date", "2026-03-02", "--format", "json"], in: plain.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let points = try history(recorded).points
        #expect(points.map { $0["commit"] as? String } == ["0123abc"])
        for wrong in ["0123ab", "main", String(repeating: "a", count: 41)] {
            let refused = try CLI.swiftmod(["report", "--commit", wrong], in: plain.path)
            #expect(refused.status == 2, "\(wrong): \(refused.stderr)")
            #expect(refused.stderr.contains("takes a commit SHA (7 to 40 hex digits)"), "\(refused.stderr)")
        }
    }
}
