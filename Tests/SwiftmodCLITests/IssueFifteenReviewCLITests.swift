import Foundation
import Testing

/// The findings of a new user's review of the release candidate (issue 15): a migration run that
/// rewrote excluded files, an interactive summary that miscounted, a false warning on every pull
/// request, a summary that counted the wrong files, and shell completions without file names.
@Suite struct IssueFifteenReviewCLITests {
    /// A view controller with a weak implicitly unwrapped outlet, for `strong-iboutlet`.
    static func controller(_ name: String, outlets: [String] = ["titleLabel"]) -> String {
        """
        import UIKit

        final class \(name): UIViewController {
        \(outlets.map { "    @IBOutlet weak var \($0): UILabel!" }.joined(separator: "\n\n\n\n\n\n\n\n"))

            override func viewDidLoad() {
                super.viewDidLoad()
                titleLabel.text = "\(name)"
            }
        }

        """
    }

    /// The files a diff touches, in order.
    func changedFiles(_ diff: String) -> [String] {
        diff.components(separatedBy: "\n").filter { $0.hasPrefix("+++ b/") }.map { String($0.dropFirst(6)) }
    }

    // MARK: - 1. A migration, or a module, covers what scan covers

    /// An app whose Xcode project sits at the root, with generated code the configuration excludes.
    func shopRepository() throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", """
        migrations:
          - id: outlets
            codemod: strong-iboutlet
        exclude: ["Generated/**"]

        """)
        try repo.write("Shop.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objects = {}; }\n")
        try repo.write("Shop/Views/CartViewController.swift", Self.controller("CartViewController"))
        try repo.write("Generated/StoryboardOutlets.swift", Self.controller("GeneratedCheckoutController"))
        return repo
    }

    @Test func aMigrationOrModuleRunLeavesExcludedFilesAlone() throws {
        let repo = try shopRepository()
        let generated = try repo.text("Generated/StoryboardOutlets.swift")
        // What scan looks at...
        let scan = try CLI.swiftmod(["scan", "--module", "Shop"], in: repo.path)
        #expect(!scan.stdout.contains("Generated/StoryboardOutlets.swift:4"), "\(scan.stdout)")
        #expect(scan.stdout.contains("Generated/StoryboardOutlets.swift:1:1: note: not judged: excluded by `exclude: Generated/**`"), "\(scan.stdout)")
        // ...is all a module's run and a migration's run touch.
        let module = try CLI.swiftmod(["run", "strong-iboutlet", "--module", "Shop"], in: repo.path)
        #expect(module.status == 0, "\(module.stderr)")
        #expect(changedFiles(module.stdout) == ["Shop/Views/CartViewController.swift"], "\(module.stdout)")
        let migration = try CLI.swiftmod(["run", "outlets"], in: repo.path)
        #expect(migration.status == 0, "\(migration.stderr)")
        #expect(changedFiles(migration.stdout) == ["Shop/Views/CartViewController.swift"], "\(migration.stdout)")
        #expect(migration.stderr.contains("note: 1 file left out by the include:/exclude: of .swiftmod.yml was not processed"), "\(migration.stderr)")
        // Named by the migration it ran.
        #expect(migration.stderr.contains("outlets (strong-iboutlet): 1 file scanned, 1 to change"), "\(migration.stderr)")
        // Written: the generated file is as it was.
        let written = try CLI.swiftmod(["run", "outlets", ".", "--write"], in: repo.path)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try repo.text("Generated/StoryboardOutlets.swift") == generated)
        #expect(try repo.text("Shop/Views/CartViewController.swift").contains("@IBOutlet var titleLabel: UILabel!"))
        // Its folder named: still left out. The file named: processed, as asked.
        let folder = try CLI.swiftmod(["run", "outlets", "Generated"], in: repo.path)
        #expect(changedFiles(folder.stdout) == [], "\(folder.stdout)")
        let named = try CLI.swiftmod(["run", "outlets", "Generated/StoryboardOutlets.swift"], in: repo.path)
        #expect(changedFiles(named.stdout) == ["Generated/StoryboardOutlets.swift"], "\(named.stdout)")
    }

    // MARK: - 2. The interactive summary tells accepted, declined and not written

    /// Runs `swiftmod run strong-iboutlet -i` on a pseudo-terminal (`script`), answering `answers`.
    func review(_ repo: Scratch, _ answers: [String]) throws -> CLI.Result {
        let input = repo.url("answers.txt").path
        try (answers.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let command = "cat '\(input)' | script -qec \"'\(CLI.binary)' run strong-iboutlet Sources -i --color never\" /dev/null"
        return try CLI.run("sh", ["-c", command], in: repo.path, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    /// Three controllers: the first with two changes (two outlets close together, one far below),
    /// the others with one each: four changes, five sites.
    func reviewRepository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write("Sources/ProfileViewController.swift", """
        import UIKit

        final class ProfileViewController: UIViewController {
            @IBOutlet weak var nameLabel: UILabel!
            @IBOutlet weak var emailLabel: UILabel!








            @IBOutlet weak var avatarView: UIImageView!
        }

        """)
        try repo.write("Sources/SettingsViewController.swift", Self.controller("SettingsViewController"))
        try repo.write("Sources/TermsViewController.swift", Self.controller("TermsViewController"))
        return repo
    }

    @Test func theInteractiveSummaryTellsWhatWasAcceptedDeclinedAndNotWritten() throws {
        // Profile: the first change yes, the second no; Settings yes; Terms no.
        let repo = try reviewRepository()
        let declining = try review(repo, ["y", "n", "y", "n"])
        #expect(declining.status == 0, "\(declining.stdout)")
        #expect(declining.stdout.contains("Accepted 2 of 4 changes (2 files), declined 2; all were written."), "\(declining.stdout)")
        // Two outlets were declined and are left: not "0 not converted" as if all were done.
        #expect(declining.stdout.contains("; 5 sites: 3 converted, 2 declined, 0 not converted"), "\(declining.stdout)")
        #expect(try repo.text("Sources/TermsViewController.swift") == Self.controller("TermsViewController"))

        // Everything accepted, but one file is read-only: it is named, and the summary points at
        // the error that says why (no note was printed).
        let locked = try reviewRepository()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked.url("Sources/TermsViewController.swift").path)
        let readOnly = try review(locked, ["y", "y", "y", "y"])
        #expect(readOnly.status == 1, "\(readOnly.stdout)")
        #expect(readOnly.stdout.contains("error: Sources/TermsViewController.swift: not written"), "\(readOnly.stdout)")
        #expect(readOnly.stdout.contains("Accepted 4 of 4 changes (3 files), declined 0; 3 written, 1 not: Sources/TermsViewController.swift could not be written (see the error above)."),
                "\(readOnly.stdout)")
        #expect(readOnly.stdout.contains("; 5 sites: 4 converted, 0 declined, 1 not converted (see the errors above)"), "\(readOnly.stdout)")
        #expect(!readOnly.stdout.contains("see the notes above"), "\(readOnly.stdout)")
    }

    // MARK: - 3. --changed-since on a module with nothing changed

    @Test func aModuleWithNoChangesIsNotSaidToHaveNoFiles() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Features", targets: [
            .target(name: "CheckoutUI"),
            .target(name: "SearchUI"),
            .target(name: "Resources"),
        ])

        """)
        try repo.write("Sources/CheckoutUI/CheckoutViewController.swift", Self.controller("CheckoutViewController"))
        try repo.write("Sources/SearchUI/SearchViewController.swift", Self.controller("SearchViewController"))
        try repo.write("Sources/Resources/README.md", "Assets only.\n")
        try CLI.swiftmod(["baseline"], in: repo.path)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "features"])
        // A pull request that touches CheckoutUI only.
        try repo.write("Sources/CheckoutUI/CheckoutViewController.swift", Self.controller("CheckoutViewController") + "\nextension CheckoutViewController {}\n")

        let search = try CLI.swiftmod(["check", "--module", "SearchUI", "--changed-since", "HEAD"], in: repo.path)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(!search.stderr.contains("selects no file"), "\(search.stderr)")
        #expect(search.stderr.contains("note: --module 'SearchUI': no file of it changed since HEAD"), "\(search.stderr)")
        // The changed module is checked as before.
        let checkout = try CLI.swiftmod(["check", "--module", "CheckoutUI", "--changed-since", "HEAD"], in: repo.path)
        #expect(checkout.status == 0, "\(checkout.stderr)")
        #expect(!checkout.stderr.contains("--module 'CheckoutUI'"), "\(checkout.stderr)")
        // A module that truly has no Swift file is still warned about.
        let resources = try CLI.swiftmod(["check", "--module", "Resources", "--changed-since", "HEAD"], in: repo.path)
        #expect(resources.stderr.contains("warning: --module 'Resources' selects no file: its folder holds no Swift file of its own"), "\(resources.stderr)")
    }

    // MARK: - 4. check's summary counts the files with new uses

    @Test func checksSummaryCountsTheFilesHoldingNewUses() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write("Sources/App/LegacyViewController.swift", Self.controller("LegacyViewController"))
        for name in ["CartView", "OrderView", "Money"] {
            try repo.write("Sources/App/\(name).swift", "import Foundation\n\nstruct \(name) {\n    var id: Int\n}\n")
        }
        try CLI.swiftmod(["baseline"], in: repo.path)
        // New uses in three of the six files.
        try repo.write("Sources/App/CartViewController.swift", Self.controller("CartViewController", outlets: ["titleLabel", "totalLabel"]))
        try repo.write("Sources/App/OrderViewController.swift", Self.controller("OrderViewController", outlets: ["titleLabel", "dateLabel"]))
        try repo.write("Sources/App/LegacyViewController.swift", Self.controller("LegacyViewController", outlets: ["titleLabel", "noteLabel"]))
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stderr.contains("swiftmod check: 5 new uses the baseline does not allow (1 allowed by the baseline) in 3 files; 6 files checked\n"),
                "\(check.stderr)")
        // Nothing new: only the files checked are counted.
        try CLI.swiftmod(["baseline"], in: repo.path)
        let clean = try CLI.swiftmod(["check"], in: repo.path)
        #expect(clean.stderr.contains("swiftmod check: no new uses (6 allowed by the baseline); 6 files checked\n"), "\(clean.stderr)")
    }

    // MARK: - 5. Shell completions complete file names

    /// What bash offers for the last word of `words`, from swiftmod's completion script, in `folder`.
    func bashCompletions(_ words: [String], in folder: Scratch) throws -> [String] {
        let script = try CLI.swiftmod(["--generate-completion-script", "bash"])
        try folder.write("completion.bash", script.stdout)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = """
        source ./completion.bash
        COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
        _swiftmod swiftmod "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try CLI.run("bash", ["-c", driver], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesPathsFilesAndCodemodIDs() throws {
        let folder = try Scratch()
        try folder.write("AppDelegate.swift", "import UIKit\n")
        try folder.write("Apple.yml", "id: apple\n")
        try folder.write("report.html", "<html></html>\n")
        try folder.write(".swiftmod.yml", "migrations: [strong-iboutlet]\n")
        try FileManager.default.createDirectory(atPath: folder.url("AppSources").path, withIntermediateDirectories: true)
        #expect(try bashCompletions(["swiftmod", "run", "strong-iboutlet", "App"], in: folder) == ["AppDelegate.swift", "AppSources", "Apple.yml"])
        #expect(try bashCompletions(["swiftmod", "check", "App"], in: folder) == ["AppDelegate.swift", "AppSources", "Apple.yml"])
        #expect(try bashCompletions(["swiftmod", "parse", "App"], in: folder) == ["AppDelegate.swift", "AppSources"])
        #expect(try bashCompletions(["swiftmod", "report", "--output", "rep"], in: folder) == ["report.html"])
        #expect(try bashCompletions(["swiftmod", "scan", "--config", ".swift"], in: folder) == [".swiftmod.yml"])
        #expect(try bashCompletions(["swiftmod", "init", "--root", "App"], in: folder) == ["AppSources"])
        // The codemod of `run`: the bundled ids.
        #expect(try bashCompletions(["swiftmod", "run", "s"], in: folder) == ["strong-iboutlet", "swap-type"])
        // Formats, as before.
        #expect(try bashCompletions(["swiftmod", "run", "strong-iboutlet", "--format", ""], in: folder) == ["diff", "json"])
    }

    @Test func aModulesReportHasTheModulesHistoryAndAPathsReportNone() throws {
        let repo = try Scratch()
        try repo.copy("Examples/SampleApp")
        try repo.git(["init", "-q"])
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "start"], date: "2026-10-01")
        #expect(try CLI.swiftmod(["report", "--record", "--date", "2026-10-01"], in: repo.path).status == 0)
        // The app fixes an outlet; FeedUI does nothing.
        let file = "App/Sources/HelpViewController.swift"
        try repo.write(file, try repo.text(file).replacingOccurrences(of: "@IBOutlet weak var closeButton", with: "@IBOutlet var closeButton"))
        try repo.git(["commit", "-qam", "fix"], date: "2026-10-15")
        #expect(try CLI.swiftmod(["report", "--record", "--date", "2026-10-15"], in: repo.path).status == 0)

        let feed = try CLI.swiftmod(["report", "--module", "FeedUI", "--migration", "strong-iboutlet", "--format", "json", "--date", "2026-10-20"], in: repo.path)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(feed.stdout.utf8)) as? [String: Any])
        let migration = try #require((report["migrations"] as? [[String: Any]])?.first)
        #expect((migration["history"] as? [[String: Any]])?.compactMap { $0["uses"] as? Int } == [1, 1], "FeedUI's own counts")
        #expect(migration["status"] as? String == "behind", "no progress in FeedUI: \(migration)")
        #expect((migration["teams"] as? [[String: Any]])?.compactMap { $0["owner"] as? String } == ["@sample/feed"])

        let path = try CLI.swiftmod(["report", "--migration", "strong-iboutlet", "--format", "json", "--date", "2026-10-20", "Packages"], in: repo.path)
        let pathReport = try #require(try JSONSerialization.jsonObject(with: Data(path.stdout.utf8)) as? [String: Any])
        let pathMigration = try #require((pathReport["migrations"] as? [[String: Any]])?.first)
        #expect((pathMigration["history"] as? [[String: Any]])?.count == 1, "only today's counts: the history is the whole repository's")
    }
}
