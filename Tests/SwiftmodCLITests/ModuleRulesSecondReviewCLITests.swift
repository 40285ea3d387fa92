import Foundation
import Testing

/// Regressions for a second hostile review of module rules (after dependencies on cycles became
/// the findings): each failed on the binary of f99827e.
@Suite struct ModuleRulesSecondReviewCLITests {
    let helpers = ModuleRulesReviewCLITests()
    static let manifest = ModuleRulesReviewCLITests.manifest
    static let cyclesOnly = ModuleRulesReviewCLITests.cyclesOnly

    /// A dependency on a cycle first written in a manifest, then also (first) in an import, and
    /// back: the same finding, whether its place is an import or a manifest entry.
    @Test func aCycleDependencyIsTheSameWhetherImportedOrDeclared() throws {
        let repo = try helpers.repository(Self.cyclesOnly, [
            "Package.swift": Self.manifest([".target(name: \"A\", dependencies: [\"B\"])", ".target(name: \"B\", dependencies: [\"A\"])"]),
            "Sources/A/A.swift": "struct AA {}\n",
            "Sources/B/B.swift": "struct BB {}\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try helpers.commit(repo, "baseline")
        try repo.write("Sources/A/A.swift", "import B\n\nstruct AA {}\n")
        try helpers.check(repo, status: 0, [])
        try helpers.check(repo, ["--strict"], status: 0, [])
        let pruned = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(pruned.stdout.contains("Removed 0 fixed uses"), "\(pruned.stdout)")
        try helpers.check(repo, status: 0, [])
        try helpers.commit(repo, "import")
        // And back: the import goes, the manifest entry stays.
        try repo.write("Sources/A/A.swift", "struct AA {}\n")
        try helpers.check(repo, status: 0, [])
    }

    /// An allow comment on any place that writes a dependency on a cycle allows it, wherever its
    /// first place moves.
    @Test func anAllowCommentOnAnyPlaceOfACycleDependencyHolds() throws {
        let config = Self.cyclesOnly + "modules:\n  A: [\"Modules/A/**\"]\n  B: [\"Modules/B/**\"]\n"
        let repo = try helpers.repository(config, [
            "Modules/A/Main.swift": "// swiftmod:allow no-cycles -- A and B are split in Q3\nimport B\n",
            "Modules/B/B.swift": "import A\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try helpers.entries(repo) == ["no-cycles Modules/B/B.swift B → A"])
        try helpers.commit(repo, "baseline")
        // A file sorting first now holds the dependency's first place.
        try repo.write("Modules/A/Aardvark.swift", "import B\n")
        try helpers.check(repo, status: 0, [])
        let scanned = try helpers.scan(repo)
        #expect(scanned.findings == ["no-cycles Modules/B/B.swift:1:8 B → A | B → A is on the dependency cycle B → A → B"])
        #expect(scanned.allowedInline == 1)
        // A comment on no place of a dependency on a cycle allows nothing.
        try repo.write("Modules/A/Other.swift", "// swiftmod:allow no-cycles -- nothing here\nimport Foundation\n")
        try helpers.check(repo, status: 1, [
            "Modules/A/Other.swift:1:1: error: swiftmod:allow no-cycles allows nothing: no dependency on a cycle is written on this line or the next",
        ])
    }

    /// A file renamed outside a partial check's paths that holds a module-rule finding: its
    /// codemod entries (their uses unknown to the partial scan) excuse nothing in a sibling.
    @Test func aPartialCheckDoesNotLetARenamedFilesCodemodEntriesExcuseANewUse() throws {
        let config = """
        migrations:
          - id: webview
            codemod: swap-type
            params: { from: UIWebView, to: WKWebView, import: WebKit }
        modules: { FeedService: ["Modules/FeedService/**"] }
        module-types:
          Service: { modules: ["*Service"], may-not-import: [UIKit] }

        """
        let feed = "import UIKit\n\nfinal class Feed {\n    func load() {\n        let view: UIWebView? = nil\n        _ = view\n    }\n}\n"
        let repo = try helpers.repository(config, ["Modules/FeedService/Old.swift": feed])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try helpers.commit(repo, "baseline")
        try repo.git(["mv", "Modules/FeedService/Old.swift", "Modules/FeedService/New.swift"])
        try repo.write("Modules/FeedService/Sibling.swift", "extension Feed {\n    func load() {\n        let view: UIWebView? = nil\n        _ = view\n    }\n}\n")
        try repo.git(["add", "-A"])
        let newUse = "Modules/FeedService/Sibling.swift:3:19: error: new use of deprecated pattern 'webview' (P2): Replace every use of `UIWebView` with `WKWebView`"
        try helpers.check(repo, status: 1, [newUse])
        try helpers.check(repo, ["Modules/FeedService/Sibling.swift"], status: 1, [newUse])
        // A partial prune leaves the baseline as it was: the full check still fails on the new use only.
        _ = try CLI.swiftmod(["baseline", "--prune", "Modules/FeedService/Sibling.swift"], in: repo.path)
        try helpers.check(repo, status: 1, [newUse])
    }

    /// `baseline PATH` keeps the entry of a dependency on a cycle whose first place moved out of PATH.
    @Test func aPartialBaselineKeepsACycleDependencyWrittenElsewhereNow() throws {
        let config = Self.cyclesOnly + "modules:\n  A: [\"Modules/A/**\"]\n  B: [\"Modules/B/**\"]\n"
        let repo = try helpers.repository(config, ["Modules/A/A.swift": "import B\n", "Modules/B/B.swift": "import A\n"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try helpers.commit(repo, "baseline")
        try repo.write("Modules/A/0Early.swift", "import B\n")
        try helpers.check(repo, status: 0, [])
        let recorded = try CLI.swiftmod(["baseline", "Modules/A/A.swift"], in: repo.path)
        #expect(recorded.stdout.contains("Recorded 0 uses of 1 file"), "\(recorded.stdout)")
        #expect(try helpers.entries(repo).sorted() == ["no-cycles Modules/A/A.swift A → B", "no-cycles Modules/B/B.swift B → A"])
        try helpers.check(repo, status: 0, [])
    }

    /// A partial prune of a renamed file's folder removes its fixed entries (its uses are known).
    @Test func aPartialPruneOfARenamedFileRemovesItsFixedEntries() throws {
        let outlets = "import UIKit\n\nfinal class FeedViewController: UIViewController {\n    @IBOutlet weak var title: UILabel!\n    @IBOutlet weak var image: UIImageView!\n}\n"
        let repo = try helpers.repository("migrations:\n  - codemod: strong-iboutlet\n", ["App/Feed/FeedVC.swift": outlets])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try helpers.commit(repo, "baseline")
        // Renamed (git sees it: one line of six changed) and one outlet fixed.
        try repo.write("App/Other/FeedScreen.swift", outlets.replacingOccurrences(of: "@IBOutlet weak var title", with: "@IBOutlet var title"))
        try repo.git(["rm", "-q", "App/Feed/FeedVC.swift"])
        try repo.git(["add", "-A"])
        let pruned = try CLI.swiftmod(["baseline", "--prune", "App/Other"], in: repo.path)
        #expect(pruned.stdout.contains("Removed 1 fixed use"), "\(pruned.stdout)")
        #expect(try helpers.entries(repo).count == 1)
        try helpers.check(repo, ["--strict"], status: 0, [])
    }

    /// `swiftmod modules` warns about configuration that matches nothing, like every command.
    @Test func modulesWarnsAboutWhatMatchesNothing() throws {
        let repo = try helpers.repository("migrations: []\nmodule-types:\n  UI: { modules: [\"*UI\"] }\n  Logic: { modules: [\"*Core\"], may-not-depend-on: [Ui] }\n", [
            "Package.swift": Self.manifest([".target(name: \"FeedCore\")"]),
            "Sources/FeedCore/Feed.swift": "import Foundation\n",
        ])
        let modules = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(modules.status == 0)
        // UI has no rule and no rule names it (Logic's names `Ui`): nothing to warn about there.
        #expect(!modules.stderr.contains("module type UI"), "\(modules.stderr)")
        #expect(modules.stderr.contains("may not depend on 'Ui', which is neither a module type nor a module"), "\(modules.stderr)")
        try repo.write(".swiftmod.yml", "migrations: []\nmodule-types:\n  UI: { modules: [\"*UI\"] }\n  Logic: { modules: [\"*Core\"], may-not-depend-on: [UI] }\n  Tests: { modules: [\"*Tests\"] }\n")
        let named = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(named.stderr.contains("warning: module type UI (.swiftmod.yml:3) matches no module: the rules naming it check nothing"), "\(named.stderr)")
        #expect(!named.stderr.contains("module type Tests"), "\(named.stderr)")
    }
}
