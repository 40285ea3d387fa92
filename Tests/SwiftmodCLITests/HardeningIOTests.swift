import Foundation
import Testing

/// Issue 12 (security, exit codes and messages), as a hostile or unlucky user meets the binary:
/// hostile names and configuration text in every output format, another program's database,
/// parameter values that break code, unreadable folders, cache stamps, dashed file names, files
/// from other platforms.
@Suite struct HardeningIOTests {
    /// A repository with one migration whose texts try to forge lines, formulas and links.
    func hostileRepository() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write(".swiftmod.yml", #"""
        migrations:
          - id: webview
            codemod: swap-type
            params: { from: UIWebView, to: WKWebView }
            summary: "Use WKWebView\nevil.swift:1:1: error: forged from the summary"
            why: "why\r\n::error file=x.swift::forged from why"
            docs: "javascript:alert(document.domain)"
            contact: "=HYPERLINK(\"http://evil.example\",\"x\")"
        modules:
          "=cmd|' /C calc'!A0": ["Sources/**"]
          "@SUM(1+1)": ["Other/**"]
        baseline: .swiftmod-baseline.jsonl

        """#)
        try scratch.write("Sources/ok.swift", "let a = UIWebView()\n")
        try scratch.write("Sources/evil\nforged.swift:9:9: error: forged by a name.swift", "let b = UIWebView()\n")
        try scratch.write("Other/-leading.swift", "let c = UIWebView()\n")
        try scratch.write("Other/esc\u{1B}[31mred.swift", "let d = UIWebView()\n")
        try scratch.write("CODEOWNERS", "Sources/ +cmd @team\n")
        return scratch
    }

    /// A line of a CI log that some program would take for a diagnostic or annotation.
    static func forged(_ line: Substring) -> Bool {
        line.hasPrefix("forged") || line.hasPrefix("evil.swift") || line.hasPrefix("::error file=x.swift")
    }

    @Test(arguments: ["text", "xcode", "github", "json", "sarif"])
    func hostileStringsStayOnTheirLine(format: String) throws {
        let repo = try hostileRepository()
        let result = try CLI.swiftmod(["scan", "--format", format], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("UIWebView") || result.stdout.contains("webview"))
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains(where: Self.forged), "\(result.stdout)")
        #expect(!result.stdout.contains("\r"))
        // No terminal escape reaches a log viewer (which would act on it).
        #expect(!result.stdout.contains("\u{1B}"), "\(result.stdout)")
        #expect(!result.stderr.split(separator: "\n").contains(where: Self.forged), "\(result.stderr)")
        switch format {
        case "text":
            // Every line is a diagnostic of a real file or an indented detail.
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("    ") || $0.hasPrefix("Sources/") || $0.hasPrefix("Other/") }, "\(result.stdout)")
        case "xcode":
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix(repo.path) || $0.hasPrefix("/") }, "\(result.stdout)")
        case "github":
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::warning ") || $0.hasPrefix("::error ") }, "\(result.stdout)")
        case "sarif":
            // Viewers make helpUri a link: a javascript: address must not be one.
            #expect(!result.stdout.contains("\"helpUri\""))
        default:
            break
        }
    }

    @Test func reportFormatsAreSafeForTheirReaders() throws {
        let repo = try hostileRepository()
        let csv = try CLI.swiftmod(["report", "--format", "csv"], in: repo.path)
        #expect(csv.status == 0, "\(csv.stderr)")
        // No cell may start a formula: each cell is split on commas outside quotes.
        for line in csv.stdout.split(separator: "\n") {
            for cell in Self.cells(String(line)) {
                #expect(!["=", "+", "-", "@", "\t", "\r"].contains(where: { cell.hasPrefix($0) }), "cell \(cell) in \(line)")
            }
        }
        #expect(csv.stdout.contains("\"'=cmd|' /C calc'!A0\""))
        #expect(csv.stdout.contains("'@SUM(1+1)"))
        #expect(csv.stdout.contains("'+cmd"))

        let html = try CLI.swiftmod(["report", "--format", "html"], in: repo.path)
        #expect(html.status == 0)
        #expect(!html.stdout.lowercased().contains("href=\"javascript:"))
        #expect(html.stdout.contains("Docs: javascript:alert(document.domain)"))

        let text = try CLI.swiftmod(["report"], in: repo.path)
        #expect(!text.stdout.split(separator: "\n").contains(where: Self.forged), "\(text.stdout)")
        #expect(!text.stdout.contains("\r"))
    }

    /// The cells of one CSV line (RFC 4180 quoting), unquoted.
    static func cells(_ line: String) -> [String] {
        var cells: [String] = [], current = "", quoted = false, previousQuote = false
        for character in line {
            if quoted {
                if character == "\"" { quoted = false; previousQuote = true; continue }
                current.append(character)
            } else if character == "\"" {
                if previousQuote { current.append("\"") }
                quoted = true
            } else if character == "," {
                cells.append(current); current = ""
            } else {
                current.append(character)
            }
            previousQuote = false
        }
        return cells + [current]
    }

    @Test func aListingOfUsesKeepsHostileNamesOnTheirLine() throws {
        let repo = try Scratch()
        try repo.write("Find.yml", """
        id: find-webview
        summary: "Find\\nforged: error"
        why: test
        match:
          query: '((type_identifier) @t (#eq? @t "UIWebView"))'

        """)
        try repo.write("x\nforged.swift", "let a: UIWebView\n")
        let result = try CLI.swiftmod(["run", "Find.yml", "."], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.split(separator: "\n").contains(where: Self.forged), "\(result.stdout)")
        #expect(result.stdout.contains("x\\nforged.swift:1:8: find-webview: Find\\nforged: error"))
    }

    // MARK: History databases

    func sqlite(_ path: String, _ sql: String) throws {
        let result = try CLI.run("python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", path, sql])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: [[String](), ["--record"]])
    func anotherProgramsDatabaseIsNeverModified(extra: [String]) throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        try repo.write("A.swift", "let a = UIWebView()\n")
        let other = repo.path + "/other.db"
        try sqlite(other, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let result = try CLI.swiftmod(["report", "--history", "other.db"] + extra, in: repo.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("not a swiftmod history"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        // Marked by another program, even without tables: also left alone.
        let marked = repo.path + "/marked.db"
        try sqlite(marked, "PRAGMA application_id = 1234;")
        let markedBefore = try Data(contentsOf: URL(fileURLWithPath: marked))
        #expect(try CLI.swiftmod(["report", "--history", "marked.db"] + extra, in: repo.path).status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: marked)) == markedBefore)
    }

    @Test func readingAHistoryNeverWritesIt() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        try repo.write("A.swift", "let a = UIWebView()\n")
        #expect(try CLI.swiftmod(["report", "--record", "--history", "h.sqlite", "--date", "2026-01-01"], in: repo.path).status == 0)
        let before = try repo.read("h.sqlite")
        let shown = try CLI.swiftmod(["report", "--history", "h.sqlite", "--format", "json"], in: repo.path)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(try repo.read("h.sqlite") == before)
        // An empty file is no history yet: read as empty, and left empty.
        try repo.write("empty.sqlite", "")
        #expect(try CLI.swiftmod(["report", "--history", "empty.sqlite"], in: repo.path).status == 0)
        #expect(try repo.read("empty.sqlite").isEmpty)
    }

    // MARK: Parameters

    @Test(arguments: [
        ("to=WKWebView\n", "to"), ("to=class", "to"), ("from=in", "from"), ("to=self", "to"), ("to=_", "to"),
        ("to=Kit.class", "to"), ("import=Web\nKit", "import"), ("from=Self", "from"),
    ])
    func parameterValuesThatBreakCodeAreUsageErrors(param: String, name: String) throws {
        let repo = try Scratch()
        try repo.write("A.swift", "let a = UIWebView()\n")
        var params = ["from=UIWebView", "to=WKWebView"].filter { !$0.hasPrefix(param.prefix(while: { $0 != "=" }) + "=") }
        params.append(param)
        let result = try CLI.swiftmod(["run", "swap-type", "A.swift"] + params.flatMap { ["--param", $0] }, in: repo.path)
        #expect(result.status == 2, "\(param): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("parameter '\(name)'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aCustomCodemodsBadValueNamesTheParameter() throws {
        let repo = try Scratch()
        try repo.write("Kind.yml", """
        id: find-kind
        summary: Find a kind of node
        why: test
        params:
          kind: { summary: a node kind, default: comment }
        match:
          query: '({{kind}}) @node'

        """)
        try repo.write("A.swift", "let a = 1\n")
        let good = try CLI.swiftmod(["run", "Kind.yml", "A.swift", "--param", "kind=integer_literal"], in: repo.path)
        #expect(good.status == 0, "\(good.stderr)")
        let bad = try CLI.swiftmod(["run", "Kind.yml", "A.swift", "--param", "kind=no such) (kind"], in: repo.path)
        #expect(bad.status == 2, "\(bad.stderr)")
        #expect(bad.stderr.contains("parameter 'kind'"), "\(bad.stderr)")
    }

    // MARK: Folders, files and names

    /// Runs swiftmod as an unprivileged user when the tests run as root (who reads any folder).
    func swiftmodUnprivileged(_ arguments: [String], in directory: String) throws -> CLI.Result {
        guard geteuid() == 0 else { return try CLI.swiftmod(arguments, in: directory) }
        return try CLI.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary] + arguments, in: directory)
    }

    @Test(arguments: ["check", "scan", "baseline", "report", "run"])
    func anUnreadableFolderIsReportedAndFails(command: String) throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        try repo.write("A.swift", "let a = 1\n")
        try repo.write("Secret/B.swift", "let b = UIWebView()\n")
        chmod(repo.path, 0o777)
        if command == "check" {
            #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
            try repo.write("Secret/B.swift", "let b = UIWebView()\nlet c = UIWebView()\n")
        }
        chmod(repo.path + "/Secret", 0o000)
        defer { chmod(repo.path + "/Secret", 0o755) }
        let arguments = command == "run" ? ["run", "uiwebview", "."] : [command, "--no-cache"]
        let result = try swiftmodUnprivileged(arguments, in: repo.path)
        #expect(result.status == 1, "\(command): \(result.stdout) \(result.stderr)")
        #expect((result.stdout + result.stderr).contains("Secret/"), "\(result.stdout) \(result.stderr)")
        #expect((result.stdout + result.stderr).contains("cannot be read"), "\(result.stdout) \(result.stderr)")
        // What could not be read is not called fixed.
        #expect(!result.stderr.contains("can shrink"), "\(result.stderr)")
    }

    @Test func aSameSizeEditWithItsTimeRestoredIsNotMissed() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        let old = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01, far from the cache's write
        let file = try repo.write("A.swift", "let a = UIWebView()\n// padding padding padding\n")
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file)
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 0)  // fills the cache
        // The same size, a new use, the modification time put back (as cp -p, rsync -a, tar do).
        let edited = "let a = UIWebView()\nlet b = UIWebView()"
        try repo.write("A.swift", edited + String(repeating: " ", count: 47 - edited.utf8.count - 1) + "\n")
        #expect(try repo.read("A.swift").count == "let a = UIWebView()\n// padding padding padding\n".utf8.count)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file)
        let result = try CLI.swiftmod(["check"], in: repo.path)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("A.swift:2:"))
    }

    @Test(arguments: ["-help.swift", "-x.swift", "-.swift", "--.swift", "with space.swift", "ünïcødé 名前.swift"])
    func oddFileNamesWorkOrFailLoudly(name: String) throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n")
        try repo.write(name, "let a = UIWebView()\n")
        // After `--`, every name is a path.
        let explicit = try CLI.swiftmod(["check", "--", name], in: repo.path)
        #expect(explicit.status == 1, "\(name): \(explicit.stdout) \(explicit.stderr)")
        #expect(explicit.stdout.contains("\(name):1:9: error: new use"), "\(explicit.stdout)")
        // Without it, a name is checked, or refused with a usage error: never help and exit 0.
        let plain = try CLI.swiftmod(["check", name], in: repo.path)
        if name.hasPrefix("-") && name.count > 2 && !name.hasPrefix("--") {
            #expect(plain.status == 2, "\(name): \(plain.stdout) \(plain.stderr)")
            #expect(plain.stderr.contains("put `--` before the paths"), "\(plain.stderr)")
        } else if name.hasPrefix("-") {
            #expect(plain.status == 2 || plain.status == 1, "\(name): \(plain.stdout) \(plain.stderr)")
        } else {
            #expect(plain.status == 1, "\(name): \(plain.stderr)")
            #expect(plain.stdout.contains("\(name):1:9"))
        }
        #expect(!plain.stdout.contains("USAGE"))
        // Run and scan read the same way.
        let run = try CLI.swiftmod(["run", "uiwebview", "--", name], in: repo.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("+let a = WKWebView()"))
    }

    @Test(arguments: [
        ("crlf", "\r\n", false), ("bom", "\n", true), ("crlf and bom", "\r\n", true),
    ])
    func filesFromOtherPlatformsAreRead(name: String, newline: String, bom: Bool) throws {
        let repo = try Scratch()
        let prefix = bom ? "\u{FEFF}" : ""
        try repo.write(".swiftmod.yml", prefix + ["migrations:", "  - id: webview", "    codemod: uiwebview", "    priority: P1", ""].joined(separator: newline))
        try repo.write("A.swift", "let a = UIWebView()\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let recorded = try repo.text(".swiftmod-baseline.jsonl")
        try repo.write(".swiftmod-baseline.jsonl", prefix + recorded.replacingOccurrences(of: "\n", with: newline))
        let result = try CLI.swiftmod(["check"], in: repo.path)
        #expect(result.status == 0, "\(name): \(result.stderr)")
    }

    @Test func aBaselineHeaderSaysWhatIsWrong() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: uiwebview\n")
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":7}\n")
        #expect(try CLI.swiftmod(["check"], in: repo.path).stderr.contains("a baseline of version 7"))
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1,}\n")
        let broken = try CLI.swiftmod(["check"], in: repo.path)
        #expect(broken.status == 2)
        #expect(!broken.stderr.contains("another version"), "\(broken.stderr)")
        #expect(broken.stderr.contains("the first line must be"), "\(broken.stderr)")
    }
}

/// What a hostile review of the workspace layer found (issue 13).
@Suite struct WorkspaceReviewTests {
    /// A repository whose `build/` folder git ignores, holding a use.
    func repositoryWithAnIgnoredUse() throws -> Scratch {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write(".gitignore", "build/\n.swiftmod/\n")
        try repo.write("A.swift", "class A {\n    @IBOutlet weak var label: UILabel!\n}\n")
        try repo.write("build/B.swift", "class B {\n    @IBOutlet weak var label: UILabel!\n}\n")
        try repo.git(["init", "-q"])
        try repo.git(["add", "."])
        try repo.git(["commit", "-qm", "one"])
        return repo
    }

    @Test func gitStillAnswersWhenStartedWithChildSignalsIgnored() throws {
        let repo = try repositoryWithAnIgnoredUse()
        // Some supervisors start programs with SIGCHLD ignored; children are then reaped away.
        func ignoringChildSignals(_ arguments: [String]) throws -> CLI.Result {
            let quoted = ([CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
            return try CLI.run("/bin/sh", ["-c", "trap '' CHLD; exec \(quoted)"], in: repo.path)
        }
        let scan = try ignoringChildSignals(["scan", "--no-cache", "--format", "json"])
        #expect(scan.stdout.contains("A.swift"), "\(scan.stdout) \(scan.stderr)")
        #expect(!scan.stdout.contains("build/B.swift"), "\(scan.stdout)")
        #expect(try ignoringChildSignals(["baseline"]).status == 0)
        try repo.write("A.swift", "class A {\n    @IBOutlet weak var label: UILabel!\n    @IBOutlet weak var other: UILabel!\n}\n")
        let changed = try ignoringChildSignals(["check", "--changed-since", "HEAD"])
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(changed.stdout.contains("A.swift:3:"), "\(changed.stdout) \(changed.stderr)")
        let dry = try ignoringChildSignals(["run", "strong-iboutlet", "."])
        #expect(!dry.stdout.contains("build/B.swift"), "\(dry.stdout)")
    }

    @Test func anUnreadableFolderInsideAnIgnoredOneIsNotReportedFromASubfolder() throws {
        let repo = try repositoryWithAnIgnoredUse()
        try repo.write("Sub/C.swift", "let c = 1\n")
        try repo.write("build/locked/D.swift", "let d = 1\n")
        // Owned by the user who runs swiftmod (git refuses a repository another user owns).
        if geteuid() == 0 { _ = try CLI.run("chown", ["-R", "65534:65534", repo.path]) }
        chmod(repo.path + "/build/locked", 0o000)
        defer { chmod(repo.path + "/build/locked", 0o755) }
        // Several times: git's answer may come before or after the walk reaches the folder.
        for _ in 0..<4 {
            for arguments in [["scan", "--no-cache"], ["scan"], ["run", "strong-iboutlet", repo.path]] {
                let result = try swiftmodUnprivileged(arguments, in: repo.path + "/Sub")
                #expect(!result.stderr.contains("cannot be read"), "\(arguments): \(result.stderr)")
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
        }
    }

    func swiftmodUnprivileged(_ arguments: [String], in directory: String) throws -> CLI.Result {
        guard geteuid() == 0 else { return try CLI.swiftmod(arguments, in: directory) }
        return try CLI.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary] + arguments, in: directory)
    }

    @Test func anXcodeProjectThatIsALinkStillNamesItsModule() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write("projects/App.xcodeproj/project.pbxproj", "// project\n")
        try repo.write("App/V.swift", "class V {\n    @IBOutlet weak var label: UILabel!\n}\n")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/App.xcodeproj", withDestinationPath: "../projects/App.xcodeproj")
        let report = try CLI.swiftmod(["report", "--format", "json", "--no-cache"], in: repo.path)
        #expect(report.stdout.contains("\"App\""), "\(report.stdout) \(report.stderr)")
    }

    @Test func aCodemodWithSeveralLimitsKeepsItsCacheBetweenRuns() throws {
        let repo = try Scratch()
        try repo.write("Codemods/limits.yml", """
        id: limits
        summary: Find labels
        why: test
        match:
          query: '(property_declaration) @decl'
          requires: "label"
          constraints:
            decl: { at-most: { pattern: 1, modifiers: 1, type_annotation: 1, value_binding_pattern: 1 } }

        """)
        try repo.write(".swiftmod.yml", "codemods: [Codemods]\nmigrations:\n  - codemod: limits\n")
        try repo.write("A.swift", "let label = 1\n")
        // Files changed in the second before a cache is written are hashed again next time (and
        // the cache updated): let that second pass.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try CLI.swiftmod(["scan"], in: repo.path).status == 0)
        let cache = repo.path + "/.swiftmod/cache/scan.cache"
        var first = stat(), second = stat()
        #expect(stat(cache, &first) == 0)
        for _ in 0..<3 { #expect(try CLI.swiftmod(["scan"], in: repo.path).status == 0) }
        // Unchanged tree, same configuration: the cache was valid, so it was not written again.
        #expect(stat(cache, &second) == 0)
        #expect(first.st_ino == second.st_ino)
    }

    @Test func aPathOutsideTheRepositoryIsRefusedBeforeWalkingIt() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        let outside = try Scratch()
        try outside.write("Locked/X.swift", "let x = 1\n")
        chmod(outside.path + "/Locked", 0o000)
        defer { chmod(outside.path + "/Locked", 0o755) }
        let result = try CLI.swiftmod(["scan", outside.path], in: repo.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is outside the repository"), "\(result.stderr)")
        #expect(!result.stderr.contains("cannot be read"), "\(result.stderr)")
    }
}
