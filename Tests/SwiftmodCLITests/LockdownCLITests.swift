import Foundation
import Testing
import TestSupport

/// The lock-down as CI meets it: a repository with history, a baseline taken at one commit, and a
/// later commit that moves lines, re-indents, renames and moves files, deletes uses and adds new
/// ones. `check` must report exactly the new uses.
@Suite struct LockdownCLITests {
    static let config = Repository.standardConfig + """

    baseline: .swiftmod-baseline.jsonl

    """

    static let help = """
    import UIKit

    final class HelpViewController: UIViewController {
        @IBOutlet weak var titleLabel: UILabel!
        private let webView = UIWebView()

        func load() {
            fetch { [weak self] in
                guard let `self` = self else { return }
                self.webView.reload()
            }
        }
    }

    """

    static let settings = """
    import UIKit

    final class SettingsViewController: UIViewController {
        private let legal = UIWebView()
        private let faq = UIWebView()

        func refresh() {
            reload { [weak self] in
                guard let `self` = self else { return }
                self.legal.reload()
            }
        }
    }

    """

    func repository() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.git(["init", "-q"])
        try scratch.write(".swiftmod.yml", Self.config)
        try scratch.write("Sources/Help/HelpViewController.swift", Self.help)
        try scratch.write("Sources/Settings/SettingsViewController.swift", Self.settings)
        try scratch.write("Pods/Vendor/Vendor.swift", "let vendored = UIWebView()\n")
        return scratch
    }

    @Test func historyWithMovesRenamesAndNewUses() throws {
        let repo = try repository()
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("Recorded 6 uses"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "baseline"])
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 0)

        // The next commit: lines inserted above uses, re-indented code, a renamed and moved file,
        // a deleted use, and two genuinely new uses.
        let help = Self.help
            .replacingOccurrences(of: "final class HelpViewController: UIViewController {\n",
                                  with: "/// Help.\n///\n/// Shows the manual.\nfinal class HelpViewController: UIViewController {\n    let version = 2\n")
            .replacingOccurrences(of: "    private let webView = UIWebView()\n", with: "")
            .replacingOccurrences(of: "                guard let `self` = self else { return }",
                                  with: "                    guard let `self` = self else { return }")
        try repo.write("Sources/Help/HelpViewController.swift", help)
        try FileManager.default.createDirectory(at: repo.url("Sources/Account"), withIntermediateDirectories: true)
        try repo.git(["mv", "Sources/Settings/SettingsViewController.swift", "Sources/Account/AccountSettingsViewController.swift"])
        let settings = Self.settings.replacingOccurrences(of: "    func refresh() {", with: """
            private let terms = UIWebView()

            func refresh() {
        """)
        try repo.write("Sources/Account/AccountSettingsViewController.swift", settings)
        try repo.write("Sources/Profile/ProfileView.swift", """
        import UIKit

        final class ProfileView: UIView {
            @IBOutlet weak var avatar: UIImageView!
        }

        """)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "work"])

        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 1)
        let errors = check.stdout.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(check.stdout)")
        #expect(errors.contains { $0.hasPrefix("Sources/Account/AccountSettingsViewController.swift:7:") && $0.contains("'webview'") })
        #expect(errors.contains { $0.hasPrefix("Sources/Profile/ProfileView.swift:4:15:") && $0.contains("'strong-iboutlet'") })
        // Each report says why, what instead, the docs, the contact and how to fix.
        #expect(check.stdout.contains("why: `UIWebView` is being retired"))
        #expect(check.stdout.contains("instead: `WKWebView`"))
        #expect(check.stdout.contains("docs: https://wiki.example.com/webview"))
        #expect(check.stdout.contains("contact: #ios-platform"))
        #expect(check.stdout.contains("fix: swiftmod run webview Sources/Account/AccountSettingsViewController.swift"))
        // The deleted use lets the baseline shrink.
        #expect(check.stderr.contains("the baseline can shrink: 1 recorded use is gone"))

        // --strict fails on a baseline that can shrink; prune removes it and adds nothing.
        try repo.write("Sources/Profile/ProfileView.swift", "import UIKit\n")
        try repo.write("Sources/Account/AccountSettingsViewController.swift", settings.replacingOccurrences(of: "    private let terms = UIWebView()\n", with: ""))
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 0)
        let strict = try CLI.swiftmod(["check", "--strict"], in: repo.path)
        #expect(strict.status == 1)
        let prune = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(prune.stdout.contains("Removed 1 fixed use"))
        #expect(try CLI.swiftmod(["check", "--strict"], in: repo.path).status == 0)
        // A fixed use that comes back is new again.
        try repo.write("Sources/Help/HelpViewController.swift", Self.help)
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 1)
    }

    @Test func oneMoreIdenticalUseReportsOnlyThatOne() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        let more = Self.settings.replacingOccurrences(of: "    private let faq = UIWebView()\n",
                                                      with: "    private let faq = UIWebView()\n    private let news = UIWebView()\n")
        try repo.write("Sources/Settings/SettingsViewController.swift", more)
        let check = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        #expect(check.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: check.stdoutBytes) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding["migration"] as? String == "webview")
        #expect(finding["codemod"] as? String == "swap-type")
        #expect(finding["file"] as? String == "Sources/Settings/SettingsViewController.swift")
        #expect(finding["line"] as? Int == 6)
        #expect(finding["column"] as? Int == 24)
        #expect(finding["fixable"] as? Bool == true)
        #expect(finding["priority"] as? String == "P1")
    }

    @Test func formats() throws {
        let repo = try repository()
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n")
        let github = try CLI.swiftmod(["check", "--format", "github"], in: repo.path)
        #expect(github.status == 1)
        #expect(github.stdout.contains("::error file=Sources/Help/HelpViewController.swift,line=5,col=27,"))
        #expect(github.stdout.contains("title=swiftmod%3A webview::new use of deprecated pattern 'webview'"))
        #expect(github.stdout.contains("%0Awhy: "))
        let sarif = try CLI.swiftmod(["check", "--format", "sarif"], in: repo.path)
        let document = try #require(try JSONSerialization.jsonObject(with: sarif.stdoutBytes) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 6)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == ["webview", "backtick-self", "strong-iboutlet"])
        let xcode = try CLI.swiftmod(["check", "--format", "xcode"], in: repo.path)
        #expect(xcode.stdout.components(separatedBy: "\n").first?.hasPrefix(repo.path) == true
                || xcode.stdout.components(separatedBy: "\n").first?.contains("/Sources/Help/HelpViewController.swift:4:15: error:") == true)
        let scan = try CLI.swiftmod(["scan", "--migration", "webview"], in: repo.path + "/Sources")
        #expect(scan.status == 0)
        #expect(scan.stdout.components(separatedBy: "\n").filter { $0.contains(": warning: use of") }.count == 3)
        // The excluded vendor folder is named, not judged.
        #expect(scan.stdout.contains("Pods/Vendor/Vendor.swift:1:1: note: not judged: excluded by `exclude: Pods/**`"), "\(scan.stdout)")
    }

    @Test func errorsAreClearAndNeverAnEmptyBaseline() throws {
        let repo = try repository()
        let missing = try CLI.swiftmod(["check"], in: repo.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no baseline file"))
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n{\"file\": [")
        let corrupt = try CLI.swiftmod(["check"], in: repo.path)
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("not a swiftmod baseline"))
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: swap-type\n    priority: urgent\n")
        let badConfig = try CLI.swiftmod(["scan"], in: repo.path)
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains(".swiftmod.yml:3: field 'migrations[0].priority': must be P0, P1, P2 or P3"))
        let scratch = try Scratch()
        let none = try CLI.swiftmod(["check"], in: scratch.path)
        #expect(none.status == 2)
        #expect(none.stderr.contains("no .swiftmod.yml"))
    }

    @Test func runAcceptsAMigrationId() throws {
        let repo = try repository()
        let run = try CLI.swiftmod(["run", "webview", "Sources/Help", "--write"], in: repo.path)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try repo.text("Sources/Help/HelpViewController.swift")
        #expect(text.contains("private let webView = WKWebView()"))
        #expect(text.contains("import WebKit"))
    }
}

/// What the lock-down review found, kept as regressions.
@Suite struct LockdownEdgeTests {
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", LockdownCLITests.config)
        try repo.write("App/Help/HelpViewController.swift", LockdownCLITests.help)
        try repo.write("App/Settings/SettingsViewController.swift", LockdownCLITests.settings)
        return repo
    }

    @Test func partialCheckAfterAMoveIsQuiet() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        try FileManager.default.createDirectory(at: repo.url("Features/Help"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: repo.url("App/Help/HelpViewController.swift"), to: repo.url("Features/Help/HelpVC.swift"))
        let partial = try CLI.swiftmod(["check", "Features"], in: repo.path)
        #expect(partial.status == 0, "\(partial.stdout)")
        // Pruning moves the entries to the new path; a copy is then caught.
        let prune = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(prune.stdout.contains("moved 3 to renamed files or declarations"))
        #expect(try repo.text(".swiftmod-baseline.jsonl").contains("Features/Help/HelpVC.swift"))
        #expect(!(try repo.text(".swiftmod-baseline.jsonl")).contains("App/Help/"))
        try FileManager.default.copyItem(at: repo.url("Features/Help/HelpVC.swift"), to: repo.url("Features/Help/Copy.swift"))
        let copy = try CLI.swiftmod(["check"], in: repo.path)
        #expect(copy.status == 1)
        #expect(copy.stdout.components(separatedBy: "\n").filter { $0.contains(": error: ") }.count == 3)
    }

    @Test func changedSinceAfterAnEarlierRenameAgreesWithAFullCheck() throws {
        let repo = try repository()
        let git = { (arguments: [String]) in
            _ = try CLI.run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: repo.path)
        }
        try git(["init", "-q"])
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        try git(["add", "-A"]); try git(["commit", "-qm", "baseline"])
        try git(["mv", "App/Help/HelpViewController.swift", "App/Help/Help.swift"]); try git(["commit", "-qm", "rename"])
        try repo.write("App/README.txt", "unrelated\n"); try git(["add", "-A"]); try git(["commit", "-qm", "other"])
        let full = try CLI.swiftmod(["check", "--strict"], in: repo.path)
        #expect(full.status == 0, "\(full.stderr)")
        let changed = try CLI.swiftmod(["check", "--strict", "--changed-since", "HEAD~1"], in: repo.path)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(!changed.stderr.contains("can shrink"))
    }

    @Test func partialBaselineRefusesACorruptBaselineAndDropsDeletedFiles() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        try FileManager.default.removeItem(at: repo.url("App/Help/HelpViewController.swift"))
        let partial = try CLI.swiftmod(["baseline", "App"], in: repo.path)
        #expect(partial.status == 0)
        #expect(!(try repo.text(".swiftmod-baseline.jsonl")).contains("HelpViewController"))
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n<<<<<<< HEAD\n")
        let corrupt = try CLI.swiftmod(["baseline", "App/Settings"], in: repo.path)
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains(":2: not a swiftmod baseline (a merge conflict marker"))
    }

    @Test func allowCommentsOfOtherMigrationsAreLeftAlone() throws {
        let repo = try repository()
        try repo.write("App/Web.swift", "// swiftmod:allow webview -- the help screen until 2027\nlet web = UIWebView()\n")
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        let check = try CLI.swiftmod(["check", "--migration", "strong-iboutlet"], in: repo.path)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func fixingOneFileDoesNotCoverANewUseInAnother() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        try repo.write("App/Help/HelpViewController.swift", LockdownCLITests.help.replacingOccurrences(of: "UIWebView()", with: "WKWebView()"))
        try repo.write("App/Other/HelpViewController.swift", LockdownCLITests.help.replacingOccurrences(of: "    @IBOutlet weak var titleLabel: UILabel!\n", with: "")
            .replacingOccurrences(of: "                guard let `self` = self else { return }\n", with: ""))
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("App/Other/HelpViewController.swift:4:27:"))
    }

    @Test func unreadableFilesShowInMachineFormats() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        try repo.write("App/Latin1.swift", data: Data("let caf".utf8) + Data([0xE9]) + Data(" = 1\n".utf8))
        let json = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"unreadableFiles\""))
        #expect(json.stdout.contains("App/Latin1.swift"))
        let github = try CLI.swiftmod(["check", "--format", "github"], in: repo.path)
        #expect(github.stdout.contains("::error file=App/Latin1.swift,title=swiftmod%3A cannot be scanned::"))
        let sarif = try CLI.swiftmod(["check", "--format", "sarif"], in: repo.path)
        #expect(sarif.stdout.contains("\"executionSuccessful\" : false"))
    }

    @Test func sarifURIsAreEncodedAndColumnsCountCharacters() throws {
        let repo = try repository()
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n")
        try repo.write("App/My Feature/Web 100%.swift", "let 名前 = \"日本\"; let web = UIWebView()\n")
        let sarif = try CLI.swiftmod(["check", "--format", "sarif", "--migration", "webview", "App/My Feature"], in: repo.path)
        #expect(sarif.stdout.contains("\"uri\" : \"App/My%20Feature/Web%20100%25.swift\""))
        // `let 名前 = "日本"; let web = ` is 25 characters (and UTF-16 units), 33 UTF-8 bytes.
        #expect(sarif.stdout.contains("\"startColumn\" : 26"))
        let github = try CLI.swiftmod(["check", "--format", "github", "--migration", "webview", "App/My Feature"], in: repo.path)
        #expect(github.stdout.contains(",col=26,"))
        let text = try CLI.swiftmod(["check", "--migration", "webview", "App/My Feature"], in: repo.path)
        #expect(text.stdout.contains("App/My Feature/Web 100%.swift:1:34: error:"))
    }

    @Test func movingAMethodIntoAnExtensionKeepsItsUses() throws {
        let repo = try repository()
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        let split = LockdownCLITests.settings.replacingOccurrences(of: "\n    func refresh() {", with: "\n}\n\nextension SettingsViewController {\n    func refresh() {")
        try repo.write("App/Settings/SettingsViewController.swift", split)
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 0, "\(check.stdout)")
    }
}
