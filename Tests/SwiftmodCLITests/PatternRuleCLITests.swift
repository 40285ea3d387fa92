import Foundation
import Testing

/// ast-grep rule files and folders work with every command (issue 24): run, scan, baseline,
/// check, report, test, parse, list.
@Suite struct PatternRuleCLITests {
    /// A repository with an ast-grep project (sgconfig.yml, rules, utils, rule tests), a
    /// configuration that tracks two of its rules, and code using them.
    func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("lint/sgconfig.yml", "ruleDirs: [rules]\nutilDirs: [utils]\ntestConfigs:\n  - testDir: rule-tests\n")
        try scratch.write("lint/utils/is-main-queue.yml", "id: is-main-queue\nlanguage: swift\nrule: { pattern: DispatchQueue.main }\n")
        try scratch.write("lint/rules/main-async.yml", """
            id: main-async-to-task
            language: swift
            message: Use a main-actor task instead of DispatchQueue.main.async
            note: Swift concurrency checks main-actor isolation; GCD does not.
            url: https://example.com/concurrency
            rule:
              pattern: $Q.async { $$$BODY }
            constraints:
              Q: { matches: is-main-queue }
            fix: |-
              Task { @MainActor in
                  $$$BODY
              }
            """)
        try scratch.write("lint/rules/key-window.yml", """
            id: no-key-window
            language: Swift
            message: keyWindow is deprecated
            rule: { pattern: UIApplication.shared.keyWindow }
            """)
        try scratch.write("lint/rule-tests/main-async-test.yml", """
            id: main-async-to-task
            valid:
              - DispatchQueue.global().async { work() }
            invalid:
              - DispatchQueue.main.async { update() }
            """)
        try scratch.write(".swiftmod.yml", """
            codemods: [lint]
            migrations:
              - codemod: main-async-to-task
              - codemod: no-key-window
                priority: P1
            baseline: .swiftmod-baseline.jsonl
            """)
        try scratch.write("Sources/Feed/Feed.swift", """
            import UIKit

            final class Feed {
                func reload() {
                    DispatchQueue.main.async {
                        self.render()
                        // keep the spinner
                        self.spin()
                    }
                    DispatchQueue.global().async { self.load() }
                    _ = UIApplication.shared.keyWindow
                }
            }

            """)
        try scratch.git(["init", "-q"])
        try scratch.git(["add", "-A"])
        try scratch.git(["commit", "-qm", "start"])
        return scratch
    }

    @Test func aRuleOfAnAstGrepFolderRunsAsACodemodWithItsUtilitiesAndReindentedBody() throws {
        let scratch = try project()
        let run = try CLI.swiftmod(["run", "main-async-to-task", "--write"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.text("Sources/Feed/Feed.swift").contains("""
                    Task { @MainActor in
                        self.render()
                        // keep the spinner
                        self.spin()
                    }
                    DispatchQueue.global().async { self.load() }
            """))
        // A second run changes nothing.
        let again = try CLI.swiftmod(["run", "main-async-to-task"], in: scratch.path)
        #expect(again.stdout.isEmpty)
        #expect(try CLI.swiftcParseErrors([scratch.url("Sources/Feed/Feed.swift").path]).isEmpty)
    }

    @Test func filesAndIgnoresAreReadFromTheRulesProjectWhateverTheWorkingFolder() throws {
        let scratch = try Scratch()
        try scratch.write("proj/sgconfig.yml", "ruleDirs: [rules]\n")
        try scratch.write("proj/rules/ig.yml", "id: ig\nlanguage: swift\nrule: { pattern: 'print($A)' }\nfix: 'debugPrint($A)'\nignores: ['Sources/Generated/**']\n")
        try scratch.write("proj/Sources/App/A.swift", "func f() { print(1) }\n")
        try scratch.write("proj/Sources/Generated/G.swift", "func g() { print(2) }\n")
        for (folder, rule, sources) in [(scratch.path, "proj/rules/ig.yml", "proj/Sources"), (scratch.url("proj").path, "rules/ig.yml", "Sources"),
                                        ("/", scratch.url("proj/rules/ig.yml").path, scratch.url("proj/Sources").path)] {
            let run = try CLI.swiftmod(["run", rule, sources], in: folder)
            #expect(run.stdout.contains("debugPrint(1)") && !run.stdout.contains("debugPrint(2)"), "from \(folder): \(run.stdout)")
            #expect(run.stderr.contains("1 file left out by the files:/ignores: of ig"), "from \(folder): \(run.stderr)")
        }
    }

    @Test func aRuleWithoutFixIsLockedDownAndTracked() throws {
        let scratch = try project()
        #expect(try CLI.swiftmod(["baseline"], in: scratch.path).status == 0)
        try scratch.git(["add", "-A"])
        try scratch.git(["commit", "-qm", "baseline"])
        try scratch.write("Sources/Feed/More.swift", "import UIKit\nlet w = UIApplication.shared.keyWindow\n")
        let check = try CLI.swiftmod(["check"], in: scratch.path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("More.swift:2:9: error: new use of deprecated pattern 'no-key-window' (P1): keyWindow is deprecated"))
        #expect(!check.stdout.contains("why:"), "a rule without a note shows no empty why")
        let json = try CLI.swiftmod(["report", "--format", "json"], in: scratch.path)
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"no-key-window\""))
        let sarif = try CLI.swiftmod(["check", "--format", "sarif"], in: scratch.path)
        // A rule without a note is described by its message, never by an empty text.
        #expect(sarif.stdout.contains("keyWindow is deprecated"))
        #expect(!sarif.stdout.contains("\"text\" : \"\""))
    }

    @Test func ruleTestsRunBesideExamplesAndARuleWithoutExamplesIsFlagged() throws {
        let scratch = try project()
        let test = try CLI.swiftmod(["test", "lint"], in: scratch.path)
        #expect(test.status == 0, "\(test.stdout)")
        #expect(test.stdout.contains("✓ main-async-to-task: 0 examples and 2 rule-test cases hold"))
        #expect(test.stdout.contains("! no-key-window: no examples"))
        try scratch.write("lint/rule-tests/main-async-test.yml", "id: main-async-to-task\ninvalid:\n  - DispatchQueue.global().async { x() }\n")
        let failing = try CLI.swiftmod(["test", "lint"], in: scratch.path)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("invalid: no use found in `DispatchQueue.global().async { x() }`"))
    }

    @Test func parseExplainsWhyAPatternDoesNotMatch() throws {
        let scratch = try project()
        let explained = try CLI.swiftmod(["parse", "Sources/Feed/Feed.swift", "--pattern", "UIApplication.shared.keyWindow()"], in: scratch.path)
        #expect(explained.status == 0)
        #expect(explained.stdout.contains("no match."))
        #expect(explained.stdout.contains("no call_expression of the file comes close"))
        let closest = try CLI.swiftmod(["parse", "Sources/Feed/Feed.swift", "--pattern", "DispatchQueue.main.sync { $$$ }"], in: scratch.path)
        #expect(closest.stdout.contains("closest: Sources/Feed/Feed.swift:5:9: DispatchQueue.main.async {"))
        #expect(closest.stdout.contains("the pattern wants `sync` (simple_identifier); the code has `async` (simple_identifier)"))
        let found = try CLI.swiftmod(["parse", "Sources/Feed/Feed.swift", "--rule", "lint/rules/key-window.yml"], in: scratch.path)
        #expect(found.stdout.contains("Sources/Feed/Feed.swift:11:13: UIApplication.shared.keyWindow"))
        let bad = try CLI.swiftmod(["parse", "Sources/Feed/Feed.swift", "--pattern", "foo(,"], in: scratch.path)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("does not parse as Swift"))
    }

    @Test func aMultiLineFixInACRLFFileWithTabsKeepsBoth() throws {
        let scratch = try Scratch()
        try scratch.write("rule.yml", "id: t\nlanguage: swift\nrule: { pattern: 'DispatchQueue.main.async { $$$B }' }\nfix: |-\n  Task { @MainActor in\n      $$$B\n  }\n")
        let code = "func f() {\r\n\tlet 🎉 = 1; DispatchQueue.main.async {\r\n\t\ta()\r\n\t\tb()\r\n\t}\r\n}\r\n"
        try scratch.write("a.swift", code)
        let run = try CLI.swiftmod(["run", "rule.yml", "a.swift", "--write"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.text("a.swift") == "func f() {\r\n\tlet 🎉 = 1; Task { @MainActor in\r\n\t\ta()\r\n\t\tb()\r\n\t}\r\n}\r\n")
    }

    @Test func aRefusedRewriteShowsTheChangeItWouldHaveMade() throws {
        let scratch = try Scratch()
        try scratch.write("rule.yml", "id: broken\nlanguage: swift\nrule: { pattern: 'foo($A)' }\nfix: 'bar($A'\n")
        try scratch.write("a.swift", "let a = foo(1)\n")
        let run = try CLI.swiftmod(["run", "rule.yml", "a.swift"], in: scratch.path)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty, "nothing for git apply")
        #expect(run.stderr.contains("the change it would have made (not applied):"))
        #expect(run.stderr.contains("    +let a = bar(1"))
    }

    @Test func filesAndIgnoresLimitWhereARuleLooks() throws {
        let scratch = try Scratch()
        try scratch.write("rule.yml", "id: no-print\nlanguage: swift\nrule: { pattern: 'print($$$)' }\nfiles: ['Sources/**']\nignores: ['**/Generated/**']\n")
        try scratch.write("Sources/A.swift", "print(1)\n")
        try scratch.write("Sources/Generated/B.swift", "print(2)\n")
        try scratch.write("Scripts/C.swift", "print(3)\n")
        try scratch.git(["init", "-q"])
        let run = try CLI.swiftmod(["run", "rule.yml", "."], in: scratch.path)
        #expect(run.stdout.contains("Sources/A.swift:1:1"))
        #expect(!run.stdout.contains("B.swift") && !run.stdout.contains("C.swift"))
        #expect(run.stderr.contains("2 files left out by the files:/ignores: of no-print"))
    }

    @Test func scanWithACodemodsFolderScansForEveryRuleOfIt() throws {
        let scratch = try project()
        // Alone (no configuration): the folder's rules are the migrations, and nothing is written.
        try FileManager.default.removeItem(atPath: scratch.url(".swiftmod.yml").path)
        let alone = try CLI.swiftmod(["scan", "--codemods", "lint", "--format", "json"], in: scratch.path)
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("\"main-async-to-task\"") && alone.stdout.contains("\"no-key-window\""))
        #expect(alone.stderr.contains("2 uses of 2 migrations in 1 file"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url(".swiftmod").path))
        // Beside a configuration: its migrations keep their settings, the folder's others join.
        try scratch.write(".swiftmod.yml", "migrations:\n  - codemod: backtick-self\n  - codemod: no-key-window\n    priority: P0\n")
        let beside = try CLI.swiftmod(["scan", "--codemods", "lint"], in: scratch.path)
        #expect(beside.stdout.contains("'no-key-window' (P0)"))
        #expect(beside.stdout.contains("'main-async-to-task' (P2)"))
    }

    @Test func theEditorShowsAPatternRuleAndOffersItsFix() throws {
        let scratch = try project()
        let uri = "file://" + scratch.url("Sources/Feed/Feed.swift").path
        let text = try scratch.text("Sources/Feed/Feed.swift")
        let client = try LanguageServerClient()
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:]])
        try client.notify("initialized", [:])
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "swift", "version": 1, "text": text]])
        let diagnostics = try client.diagnostics(for: uri)
        #expect(Set(diagnostics.compactMap { $0["code"] as? String }) == ["main-async-to-task", "no-key-window"], "\(diagnostics)")
        // Hover: the rule's message, note and url.
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 4, "character": 10]])
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("Use a main-actor task instead of DispatchQueue.main.async"), "\(contents)")
        #expect(contents.contains("**Why:** Swift concurrency checks main-actor isolation; GCD does not."), "\(contents)")
        #expect(contents.contains("**Docs:** https://example.com/concurrency"), "\(contents)")
        // The fix as a code action, re-indented as `run` does it.
        let range: [String: Any] = ["start": ["line": 4, "character": 10], "end": ["line": 4, "character": 10]]
        let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
        let actions = response["result"] as? [[String: Any]] ?? []
        #expect(actions.first?["title"] as? String == "Apply main-async-to-task here", "\(actions)")
        let edits = (((actions.first?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]) ?? []
        #expect(edits.contains { ($0["newText"] as? String)?.contains("Task { @MainActor in") == true }, "\(edits)")
        _ = try client.request("shutdown", [:])
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func aBrokenRuleIsAUsageErrorNamingFileLineAndField() throws {
        let scratch = try Scratch()
        try scratch.write("rule.yml", "id: r\nlanguage: swift\nrule:\n  pattern: 'foo($A)'\nfix: 'bar($B)'\n")
        try scratch.write("a.swift", "foo(1)\n")
        let run = try CLI.swiftmod(["run", "rule.yml", "a.swift"], in: scratch.path)
        #expect(run.status == 2)
        #expect(run.stderr.contains("rule.yml:5"))
        #expect(run.stderr.contains("fix"))
        #expect(run.stderr.contains("'$B' is never bound by the rule (it binds: $A)"))
    }
}
