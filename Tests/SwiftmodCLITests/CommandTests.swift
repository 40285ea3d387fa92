import Foundation
import Testing

@Suite struct CommandTests {
    let weakOutlet = "class A {\n    @IBOutlet weak var label: UILabel!\n}\n"

    @Test func versionAndHelp() throws {
        let version = try CLI.swiftmod(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression) != nil)
        for command in ["list", "parse", "run", "test", "scan", "baseline", "check", "report"] {
            let help = try CLI.swiftmod([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("swiftmod \(command)"), "\(command) --help shows an example")
        }
    }

    @Test func listShowsBundledCodemods() throws {
        let list = try CLI.swiftmod(["list"])
        #expect(list.status == 0)
        // The columns are as wide as the longest id.
        #expect(list.stdout.range(of: "strong-iboutlet +yes", options: .regularExpression) != nil)
        #expect(list.stdout.range(of: "xctest-to-swift-testing +yes", options: .regularExpression) != nil)
    }

    @Test func testRunsEveryExample() throws {
        let result = try CLI.swiftmod(["test"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("✓ strong-iboutlet"))
        #expect(result.stdout.contains("0 failed"))
    }

    @Test func testReportsAFailingExample() throws {
        let scratch = try Scratch()
        let definition = try scratch.write("bad-fix.yml", """
        id: bad-fix
        summary: Renames foo
        why: Because.
        match:
          query: ((simple_identifier) @id (#eq? @id "foo"))
        rewrite:
          replace: id
          with: bar
        examples:
          match: ["foo()"]
          no-match: ["bar()"]
          fix:
            - before: "foo()"
              after: "baz()"
        """)
        let result = try CLI.swiftmod(["test", definition])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ bad-fix: 1 of 3 examples fail"))
        #expect(result.stdout.contains("bad-fix.yml:13: examples.fix[0]"))
    }

    @Test func userCodemodsRunWithoutRecompiling() throws {
        let scratch = try Scratch()
        try scratch.write("Codemods/no-nslog.yml", """
        id: no-nslog
        summary: Use os.Logger instead of NSLog
        why: NSLog is slow and unstructured.
        match:
          query: |
            (call_expression (simple_identifier) @callee (#eq? @callee "NSLog")) @call
          use: call
        rewrite:
          replace: callee
          with: logger.log
        examples:
          match: ["NSLog(\\"hi\\")"]
          no-match: ["print(\\"NSLog\\")"]
          fix:
            - before: "NSLog(\\"hi\\")"
              after: "logger.log(\\"hi\\")"
        """)
        try scratch.write("Sources/A.swift", "func f() {\n    NSLog(\"started\")\n}\n")
        let list = try CLI.swiftmod(["list", "--codemods", "Codemods"], in: scratch.path)
        #expect(list.stdout.contains("no-nslog"))
        let run = try CLI.swiftmod(["run", "no-nslog", "Sources", "--codemods", "Codemods", "--write"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.text("Sources/A.swift") == "func f() {\n    logger.log(\"started\")\n}\n")
        // A definition file can also be named directly.
        let direct = try CLI.swiftmod(["run", "Codemods/no-nslog.yml", "Sources"], in: scratch.path)
        #expect(direct.status == 0)
    }

    @Test func usageErrorsExitWithTwo() throws {
        let scratch = try Scratch()
        try scratch.write("A.swift", weakOutlet)
        let unknown = try CLI.swiftmod(["run", "no-such-codemod", "A.swift"], in: scratch.path)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown codemod 'no-such-codemod'"))
        #expect(unknown.stderr.contains("strong-iboutlet"))

        let missing = try CLI.swiftmod(["run", "strong-iboutlet", "Nope/"], in: scratch.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Nope/: no such file or directory"))

        let badParam = try CLI.swiftmod(["run", "strong-iboutlet", "A.swift", "--param", "x=1"], in: scratch.path)
        #expect(badParam.status == 2)
        #expect(badParam.stderr.contains("unknown parameter 'x'"))

        let malformedParam = try CLI.swiftmod(["run", "strong-iboutlet", "A.swift", "--param", "novalue"], in: scratch.path)
        #expect(malformedParam.status == 2)

        try scratch.write("Broken/broken.yml", "id: broken\nsummary: s\nwhy: w\nmatch:\n  query: (no_such_node) @x\n")
        let broken = try CLI.swiftmod(["run", "strong-iboutlet", "A.swift", "--codemods", "Broken"], in: scratch.path)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("Broken/broken.yml:5: field 'match.query': invalid node type"))
        #expect(try scratch.text("A.swift") == weakOutlet)
    }

    /// A keyword cannot name the binding (`guard let class = self` does not compile): a usage
    /// error naming the parameter, before any file is read; `self`, the default, and words Swift
    /// only reserves in some places (`async`, `open`) are names.
    @Test func keywordBindingIsAUsageError() throws {
        let scratch = try Scratch()
        let source = "final class A {\n    func f() {\n        g { [weak self] in\n            guard let `self` = self else { return }\n            self.h()\n        }\n    }\n}\n"
        try scratch.write("A.swift", source)
        for keyword in ["class", "in", "_", "true", "Self", "init", "super", "Any", "Type", "inout", "let", "var", "func", "nil", "try"] {
            let run = try CLI.swiftmod(["run", "backtick-self", "A.swift", "--param", "binding=\(keyword)", "--write"], in: scratch.path)
            #expect(run.status == 2, "binding=\(keyword)")
            #expect(run.stderr.contains("parameter 'binding'") && run.stderr.contains("'\(keyword)'"), "\(run.stderr)")
        }
        #expect(try scratch.text("A.swift") == source)
        for name in ["self", "this", "async", "open", "strongSelf"] {
            let run = try CLI.swiftmod(["run", "backtick-self", "A.swift", "--param", "binding=\(name)"], in: scratch.path)
            #expect(run.status == 0, "binding=\(name): \(run.stderr)")
        }
    }

    @Test func badFilesAreReportedAndTheRestWritten() throws {
        let scratch = try Scratch()
        try scratch.write("Good.swift", weakOutlet)
        try scratch.write("Latin1.swift", data: Data("// caf".utf8) + Data([0xE9]) + Data("\n\(weakOutlet)".utf8))
        let readOnly = try scratch.write("ReadOnly.swift", weakOutlet)
        chmod(readOnly, 0o444)
        let result = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--write"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: Latin1.swift: not valid UTF-8"))
        #expect(result.stderr.contains("error: ReadOnly.swift: not written: the file is read-only"))
        #expect(result.stderr.contains("3 files scanned, 1 written"))
        #expect(try scratch.text("Good.swift").contains("@IBOutlet var label"))
        #expect(try scratch.text("ReadOnly.swift") == weakOutlet)
        #expect(try scratch.read("Latin1.swift").count == 8 + weakOutlet.utf8.count)
    }

    @Test func jsonOutput() throws {
        let scratch = try Scratch()
        try scratch.write("A.swift", weakOutlet)
        let result = try CLI.swiftmod(["run", "strong-iboutlet", "A.swift", "--format", "json"], in: scratch.path)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect(object["codemod"] as? String == "strong-iboutlet")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.first?["path"] as? String == "A.swift")
        #expect(files.first?["status"] as? String == "changed")
        let change = try #require((files.first?["changes"] as? [[String: Any]])?.first)
        #expect(change["line"] as? Int == 2)
        #expect(change["column"] as? Int == 15)
        #expect(change["original"] as? String == "weak ")
        #expect((object["summary"] as? [String: Any])?["edits"] as? Int == 1)
    }

    /// What a run leaves to do by hand is counted in the summary and listed, with reasons, in the
    /// JSON: sites the codemod refused (a name clash), and every use of a file the safety net refused.
    @Test func sitesNotConvertedAreCountedAndListed() throws {
        let scratch = try Scratch()
        try scratch.write("Feed.swift", """
        final class Feed {
            func load() {
                fetch { [weak self] in
                    guard let `self` = self else { return }
                    self.render()
                }
                fetch { [weak self] in
                    let this = 1
                    guard let `self` = self else { return }
                    self.render(this)
                }
            }
        }

        """)
        let run = try CLI.swiftmod(["run", "backtick-self", "Feed.swift", "--param", "binding=this", "--format", "json"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("note: Feed.swift:9:23: not rewritten: 'this' is already used in this scope"))
        #expect(run.stderr.contains("; 2 sites, 1 not converted (see the notes above"), "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        #expect((report["summary"] as? [String: Any])?["sitesNotConverted"] as? Int == 1)
        let feed = try #require((report["files"] as? [[String: Any]])?.first)
        let sites = try #require(feed["notConverted"] as? [[String: Any]])
        #expect(sites.count == 1)
        #expect(sites.first?["line"] as? Int == 9)
        #expect((sites.first?["reason"] as? String)?.contains("'this' is already used") == true)

        // A file the safety net refuses: named with its reason, and each of its uses left to do.
        try scratch.write("mods/breaker.yml", """
        id: breaker
        summary: Breaks every weak outlet
        why: To see the safety net at work.
        match:
          query: (ownership_modifier) @weak
        rewrite:
          replace: weak
          with: "weak ("
        """)
        try scratch.write("Outlets.swift", "class A {\n    @IBOutlet weak var label: UILabel!\n    @IBOutlet weak var icon: UIImageView!\n}\n")
        let refused = try CLI.swiftmod(["run", "mods/breaker.yml", "Outlets.swift", "--format", "json"], in: scratch.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("1 refused"))
        #expect(refused.stderr.contains("; 2 sites, 2 not converted"), "\(refused.stderr)")
        let refusedReport = try #require(try JSONSerialization.jsonObject(with: refused.stdoutBytes) as? [String: Any])
        let outlets = try #require((refusedReport["files"] as? [[String: Any]])?.first)
        #expect(outlets["path"] as? String == "Outlets.swift")
        #expect(outlets["status"] as? String == "refused")
        let reason = try #require(outlets["message"] as? String)
        #expect(reason.contains("syntax error region"))
        let left = try #require(outlets["notConverted"] as? [[String: Any]])
        #expect(left.map { $0["line"] as? Int } == [2, 3])
        #expect(left.allSatisfy { $0["reason"] as? String == reason })
        #expect((refusedReport["summary"] as? [String: Any])?["sitesNotConverted"] as? Int == 2)

        // All converted: the count says so.
        let clean = try CLI.swiftmod(["run", "strong-iboutlet", "Outlets.swift"], in: scratch.path)
        #expect(clean.stderr.contains("; 2 sites, 0 not converted"), "\(clean.stderr)")
    }

    @Test func notesAreInTheJSONEvenForAFileWithNothingElse() throws {
        let scratch = try Scratch()
        try scratch.write("Picker.swift", "final class Picker: UIView {\n    @IBOutlet weak var delegate: PickerDelegate!\n}\n")
        let run = try CLI.swiftmod(["run", "strong-iboutlet", "Picker.swift", "--format", "json"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
        let file = try #require((report["files"] as? [[String: Any]])?.first)
        #expect(file["status"] as? String == "unchanged")
        let notes = try #require(file["notes"] as? [[String: Any]])
        #expect(notes.count == 1)
        #expect(notes.first?["line"] as? Int == 2)
        #expect((notes.first?["message"] as? String)?.contains("stays weak") == true)
    }

    @Test func parseCommand() throws {
        let scratch = try Scratch()
        try scratch.write("Broken.swift", "func f() {\n    let x = (1 +\n}\n")
        let broken = try CLI.swiftmod(["parse", "Broken.swift"], in: scratch.path)
        #expect(broken.status == 0)
        #expect(broken.stdout.contains("(ERROR") || broken.stdout.contains("(MISSING"))
        #expect(broken.stderr.contains("Broken.swift:"))
        let missing = try CLI.swiftmod(["parse", "Nope.swift"], in: scratch.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: Nope.swift: no such file"))
        let directory = try CLI.swiftmod(["parse", "."], in: scratch.path)
        #expect(directory.status == 2)
        #expect(directory.stderr.contains("is a directory"))
        try scratch.write("Bad.swift", data: Data([0x6C, 0x65, 0x74, 0xFF, 0xFE]))
        let bad = try CLI.swiftmod(["parse", "Bad.swift"], in: scratch.path)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("Bad.swift: not valid UTF-8"))
        let query = try CLI.swiftmod(["parse", "Broken.swift", "--query", "(integer_literal) @n"], in: scratch.path)
        #expect(query.stdout.contains("@n integer_literal 2:14-2:15: 1"))
    }

    @Test func symbolicLinksAreProcessedOnce() throws {
        let scratch = try Scratch()
        let real = try scratch.write("App/Real.swift", weakOutlet)
        try FileManager.default.createSymbolicLink(atPath: scratch.url("Link.swift").path, withDestinationPath: real)
        let dry = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: scratch.path)
        #expect(dry.stdout.components(separatedBy: "+++ ").count == 2, "one patch, not two:\n\(dry.stdout)")
        #expect(dry.stdout.contains("+++ b/App/Real.swift"))
        try dry.stdoutBytes.write(to: scratch.url("p.diff"))
        #expect(try CLI.run("git", ["apply", "p.diff"], in: scratch.path).status == 0)
        #expect(try scratch.text("App/Real.swift").contains("@IBOutlet var label"))
    }

    @Test func badJobsIsAUsageError() throws {
        let result = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--jobs", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--jobs must be at least 1"))
    }

    @Test func findOnlyCodemodsListTheirUses() throws {
        let scratch = try Scratch()
        try scratch.write("mods/force-cast.yml", """
        id: force-cast
        summary: Avoid force casts
        why: They crash.
        match:
          query: |
            (as_expression (as_operator) @op (#eq? @op "as!")) @cast
          use: cast
        examples:
          match: ["let x = y as! Foo"]
          no-match: ["let x = y as? Foo"]
        """)
        try scratch.write("A.swift", "let a = b as! Int\nlet c = d as? Int\n")
        let result = try CLI.swiftmod(["run", "force-cast", "A.swift", "--codemods", "mods", "--codemods", "mods/"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "A.swift:1:9: force-cast: Avoid force casts\n")
        #expect(result.stderr.contains("1 use found (this codemod only finds"))
        let tested = try CLI.swiftmod(["test", "mods"], in: scratch.path)
        #expect(tested.status == 0)
        #expect(tested.stdout.contains("✓ force-cast"))
    }

    @Test func replacingABundledCodemodIsSaid() throws {
        let scratch = try Scratch()
        try scratch.write("mods/strong-iboutlet.yml", """
        id: strong-iboutlet
        summary: Our own take
        why: Team rules.
        match:
          query: (ownership_modifier) @weak
        """)
        let list = try CLI.swiftmod(["list", "--codemods", "mods"], in: scratch.path)
        #expect(list.status == 0)
        #expect(list.stdout.contains("Our own take"))
        #expect(list.stderr.contains("note: mods/strong-iboutlet.yml replaces the bundled codemod 'strong-iboutlet'"))
    }

    @Test func damagedFilesAreCountedInTheSummary() throws {
        let scratch = try Scratch()
        try scratch.write("A.swift", weakOutlet + "func f() {\n    let x = [1, 2,\n}\n")
        let result = try CLI.swiftmod(["run", "strong-iboutlet", "A.swift"], in: scratch.path)
        #expect(result.status == 0)
        #expect(result.stderr.contains("1 file with syntax errors"))
        #expect(result.stdout.contains("+    @IBOutlet var label"))
    }
}
