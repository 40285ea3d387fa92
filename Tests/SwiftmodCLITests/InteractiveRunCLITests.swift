import Foundation
import Testing

/// `run --interactive` through a pseudo-terminal (`script` gives the command one): each change is
/// shown and answered; only what was accepted is written (issue 15, part 3).
@Suite struct InteractiveRunCLITests {
    static func outlets(_ type: String, _ names: [String], lineEnding: String = "\n") -> String {
        (["import UIKit", "", "final class \(type): UIViewController {"]
            + names.flatMap { ["    @IBOutlet weak var \($0): UILabel!", "", "", "", "", "", "", ""] } + ["}", ""])
            .joined(separator: lineEnding)
    }

    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write("A.swift", Self.outlets("A", ["a"]))
        try repo.write("B.swift", Self.outlets("B", ["b", "c"], lineEnding: "\r\n"))
        try repo.write("C.swift", Self.outlets("C", ["d", "e"]))
        return repo
    }

    /// Runs `swiftmod run strong-iboutlet . -i` on a terminal, answering with `answers` (one per line).
    func review(_ repo: Scratch, _ answers: [String]) throws -> CLI.Result {
        let input = repo.url("answers.txt").path
        try (answers.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        // `script` runs the command on a pseudo-terminal and types what it reads (the answers);
        // its own output is the terminal's.
        let command = "cat '\(input)' | script -qec \"'\(CLI.binary)' run strong-iboutlet . --interactive --color never\" /dev/null"
        return try CLI.run("sh", ["-c", command], in: repo.path, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    func weak(_ repo: Scratch, _ file: String) throws -> [String] {
        // `\r\n` is one Character: split on line breaks, whichever.
        try repo.text(file).split(whereSeparator: \.isNewline).filter { $0.contains("@IBOutlet") }
            .map { $0.contains("weak") ? "weak" : "strong" }
    }

    @Test func onlyAcceptedChangesAreWritten() throws {
        let repo = try repository()
        // A: yes. B: no, then yes. C: all.
        let result = try review(repo, ["y", "n", "y", "a"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("(1/1) Make this change to A.swift? [y,n,a,s,q,?]"), "\(result.stdout)")
        #expect(result.stdout.contains("-    @IBOutlet weak var a: UILabel!"))
        // Five offered (C's second is accepted with "all", unseen), four accepted, B's first declined.
        #expect(result.stdout.contains("Accepted 4 of 5 changes (3 files), declined 1; all were written."), "\(result.stdout)")
        #expect(result.stdout.contains("; 5 sites: 4 converted, 1 declined, 0 not converted"), "\(result.stdout)")
        #expect(try weak(repo, "A.swift") == ["strong"])
        #expect(try weak(repo, "B.swift") == ["weak", "strong"])
        #expect(try weak(repo, "C.swift") == ["strong", "strong"])
        // Line endings kept.
        #expect(try repo.text("B.swift") == Self.outlets("B", ["b", "c"], lineEnding: "\r\n").replacingOccurrences(of: "@IBOutlet weak var c", with: "@IBOutlet var c"))
    }

    @Test func skipFileQuitAndHelp() throws {
        let repo = try repository()
        // A: help, then no. B: skip the file. C: yes, then quit.
        let result = try review(repo, ["?", "n", "s", "y", "q"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("s - leave this one and all the others in this file"), "\(result.stdout)")
        // A's declined, B's two skipped, C's second left by quitting at it.
        #expect(result.stdout.contains("Accepted 1 of 5 changes (1 file), declined 4; it was written."), "\(result.stdout)")
        #expect(try weak(repo, "A.swift") == ["weak"])
        #expect(try weak(repo, "B.swift") == ["weak", "weak"])
        #expect(try weak(repo, "C.swift") == ["strong", "weak"])
        // The terminal closing (no more answers) accepts nothing more.
        let closed = try review(repo, [])
        #expect(closed.status == 0)
        #expect(try weak(repo, "A.swift") == ["weak"])
    }

    @Test func refusesWithoutATerminal() throws {
        let repo = try repository()
        let result = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--interactive"], in: repo.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--interactive asks about each change on a terminal, and stdin or stdout is not one"), "\(result.stderr)")
        #expect(try weak(repo, "A.swift") == ["weak"])
    }

    /// A codemod whose rewrite is an action (here swap-type, which adds an import its uses need)
    /// offers each file as one change: a rename is never taken without its import.
    @Test func anActionsEditsAreOneChangePerFile() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - id: webview\n    codemod: swap-type\n    params: { from: UIWebView, to: WKWebView, import: WebKit }\n")
        let browser = "import UIKit\n\nfinal class Browser {\n    let a = UIWebView()\n" + String(repeating: "\n", count: 10) + "    let b = UIWebView()\n}\n"
        try repo.write("Browser.swift", browser)
        let input = repo.url("answers.txt").path
        try "y\n".write(toFile: input, atomically: true, encoding: .utf8)
        let command = "cat '\(input)' | script -qec \"'\(CLI.binary)' run webview . --interactive --color never\" /dev/null"
        let result = try CLI.run("sh", ["-c", command], in: repo.path, environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(result.stdout.contains("(1/1) Make this change to Browser.swift?"), "\(result.stdout)")
        #expect(try repo.text("Browser.swift") == browser.replacingOccurrences(of: "import UIKit\n", with: "import UIKit\nimport WebKit\n")
            .replacingOccurrences(of: "UIWebView", with: "WKWebView"))
    }
}
