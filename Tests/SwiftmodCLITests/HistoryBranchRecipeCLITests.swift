import Foundation
import Testing

/// The GitHub Actions recipe of `docs/lockdown.md` keeps the tracker's history on a branch, which no
/// cache eviction loses: its shell step, run as written against local bare repositories standing
/// in for the remote, starts the history, adds to it from a fresh checkout, and refuses to start
/// over when the remote cannot be asked (issue 23).
@Suite struct HistoryBranchRecipeCLITests {
    static let config = """
    migrations:
      - id: outlets
        codemod: strong-iboutlet
        started: 2026-01-01

    """

    /// The `run: |` step of the report job of `docs/lockdown.md`, without its YAML indentation.
    static func recipe() throws -> String {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/docs/lockdown.md", encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.contains("- run: |   # the history lives on its own branch") })
        let body = lines[(start + 1)...].prefix { $0.hasPrefix("          ") || $0.isEmpty }
        #expect(body.count > 10, "\(body)")
        return body.map { String($0.dropFirst(10)) }.joined(separator: "\n") + "\n"
    }

    func outlets(_ count: Int) -> String {
        "import UIKit\n\nfinal class AView: UIView {\n" + (0..<count).map { "    @IBOutlet weak var a\($0): UILabel!\n" }.joined() + "}\n"
    }

    @discardableResult
    func git(_ arguments: [String], in folder: String) throws -> String {
        let result = try CLI.run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: folder)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the recipe in a fresh clone of the remote, as a CI runner would (nothing left from an
    /// earlier run), with swiftmod on the PATH and bash as GitHub runs a step.
    func runRecipe(_ script: String, remote: String, in scratch: Scratch, name: String, remoteURL: String? = nil) throws -> (CLI.Result, String) {
        let checkout = scratch.url(name).path
        try git(["clone", "-q", remote, checkout], in: scratch.path)
        if let remoteURL { try git(["remote", "set-url", "origin", remoteURL], in: checkout) }
        let bin = scratch.url("bin").path
        let folder = FileManager.default.fileExists(atPath: bin) ? bin : try scratch.folderWithSwiftmod()
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try CLI.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: checkout, environment: ["PATH": path])
        return (result, checkout)
    }

    @Test func theHistoryBranchOutlivesEveryCheckout() throws {
        let script = try Self.recipe()
        #expect(script.contains("swiftmod report --record"))
        let scratch = try Scratch()
        let remote = scratch.url("origin.git").path
        try git(["init", "-q", "--bare", "--initial-branch=main", remote], in: scratch.path)
        let work = scratch.url("work").path
        try git(["clone", "-q", remote, work], in: scratch.path)
        try Self.config.write(toFile: work + "/.swiftmod.yml", atomically: true, encoding: .utf8)
        try ".swiftmod/\nprogress.html\n".write(toFile: work + "/.gitignore", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: work + "/A", withIntermediateDirectories: true)
        try outlets(3).write(toFile: work + "/A/AView.swift", atomically: true, encoding: .utf8)
        try git(["add", "-A"], in: work)
        try git(["commit", "-qm", "three outlets"], in: work)
        try git(["push", "-q", "origin", "HEAD:refs/heads/main"], in: work)
        let first = try git(["rev-parse", "HEAD"], in: work)

        // Day one: no branch yet; the history starts and is pushed.
        let (one, _) = try runRecipe(script, remote: remote, in: scratch, name: "ci-1")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains("recorded"), "\(one.stderr)")

        // Day two, on another runner: one outlet fixed; the history is fetched, added to, pushed.
        try outlets(2).write(toFile: work + "/A/AView.swift", atomically: true, encoding: .utf8)
        try git(["commit", "-qam", "one outlet fixed"], in: work)
        try git(["push", "-q", "origin", "HEAD:refs/heads/main"], in: work)
        let second = try git(["rev-parse", "HEAD"], in: work)
        let (two, checkout) = try runRecipe(script, remote: remote, in: scratch, name: "ci-2")
        #expect(two.status == 0, "\(two.stderr)")
        #expect(try git(["status", "--porcelain", "--untracked-files=no"], in: checkout).isEmpty, "the checkout's files are untouched")
        #expect(FileManager.default.fileExists(atPath: checkout + "/progress.html"))

        // The branch: one file, one commit per run, each on top of the one before.
        let reader = scratch.url("reader").path
        try git(["clone", "-q", remote, reader], in: scratch.path)
        #expect(try git(["rev-list", "--count", "origin/swiftmod-history"], in: reader) == "2")
        #expect(try git(["ls-tree", "--name-only", "origin/swiftmod-history"], in: reader) == "history.sqlite")
        let history = scratch.url("history.sqlite").path
        let blob = try CLI.run("git", ["show", "origin/swiftmod-history:history.sqlite"], in: reader)
        try blob.stdoutBytes.write(to: URL(fileURLWithPath: history))
        let report = try CLI.swiftmod(["report", "--format", "json", "--history", history], in: reader)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: report.stdoutBytes) as? [String: Any])
        let points = ((json["migrations"] as? [[String: Any]])?.first?["history"] as? [[String: Any]]) ?? []
        #expect(points.map { $0["commit"] as? String } == [first, second], "\(points)")
        #expect(points.map { $0["uses"] as? Int } == [3, 2], "\(points)")
    }

    @Test func aRemoteThatCannotBeAskedNeverStartsANewHistory() throws {
        let script = try Self.recipe()
        let scratch = try Scratch()
        let remote = scratch.url("origin.git").path
        try git(["init", "-q", "--bare", "--initial-branch=main", remote], in: scratch.path)
        let work = scratch.url("work").path
        try git(["clone", "-q", remote, work], in: scratch.path)
        try Self.config.write(toFile: work + "/.swiftmod.yml", atomically: true, encoding: .utf8)
        try git(["add", "-A"], in: work)
        try git(["commit", "-qm", "configuration"], in: work)
        try git(["push", "-q", "origin", "HEAD:refs/heads/main"], in: work)
        let (result, checkout) = try runRecipe(script, remote: remote, in: scratch, name: "ci", remoteURL: scratch.url("gone.git").path)
        #expect(result.status != 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: checkout + "/.swiftmod/history.sqlite"), "nothing recorded")
    }
}
