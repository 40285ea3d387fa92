import Foundation
import Testing

/// Regressions for the findings of a hostile review of module rules, end to end through the built
/// binary, each on a small repository of its own. Each test (but the known gap) fails on the binary
/// before the review's fixes (8c74d87): allow comments matched in a random order, a partial
/// baseline re-recorded other modules' files, a cycle was identified by the file that closed it
/// and by every module on it, manifests left out by `include:` or kept out by `exclude:` were
/// mishandled, a changed manifest did not re-check its modules' files, `Target.target` was no
/// target, a dependency's spelling was its identity, and configuration mistakes passed silently.
/// Two also failed after them (2a0805e): a dependency on a cycle whose file was renamed was new
/// once it moved to another file, and `baseline --prune PATH` dropped other files' cycle entries.
@Suite struct ModuleRulesReviewCLITests {
    // MARK: - Helpers

    /// A `Package.swift` declaring the targets (each an expression such as `.target(name: "A")`).
    static func manifest(_ targets: [String]) -> String {
        """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "App",
            targets: [
        \(targets.map { "        \($0),\n" }.joined())    ]
        )

        """
    }

    /// A repository in git with a configuration and files (not committed).
    func repository(_ config: String, _ files: [String: String]) throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".gitignore", ".swiftmod/\n")
        try repo.write(".swiftmod.yml", config)
        for (path, text) in files { try repo.write(path, text) }
        return repo
    }

    func commit(_ repo: Scratch, _ message: String) throws {
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", message])
    }

    /// The error lines of text output.
    func errors(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.contains(": error: ") }
    }

    /// The baseline's entries as `migration file text`, in the file's order.
    func entries(_ repo: Scratch) throws -> [String] {
        try repo.text(".swiftmod-baseline.jsonl").components(separatedBy: "\n").dropFirst().filter { !$0.isEmpty }.map { line in
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            return "\(entry["migration"] ?? "?") \(entry["file"] ?? "?") \(entry["text"] ?? "?")"
        }
    }

    struct Findings: Decodable {
        var findings: [Item]
        var summary: Summary
        struct Item: Decodable { var kind, migration, file, text, scope: String; var line, column: Int; var detail: String? }
        struct Summary: Decodable { var allowedInline: Int }
    }

    /// `scan --format json`: its findings as `migration file:line:column text | detail`.
    func scan(_ repo: Scratch, _ extra: [String] = []) throws -> (findings: [String], allowedInline: Int) {
        let result = try CLI.swiftmod(["scan", "--format", "json"] + extra, in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONDecoder().decode(Findings.self, from: result.stdoutBytes)
        return (output.findings.map { "\($0.migration) \($0.file):\($0.line):\($0.column) \($0.text) | \($0.detail ?? $0.kind)" },
                output.summary.allowedInline)
    }

    /// Expects `scan` to find exactly `expected`.
    func expectScan(_ repo: Scratch, _ expected: [String], _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try scan(repo).findings
        #expect(found == expected, "\(comment)", sourceLocation: sourceLocation)
    }

    /// Expects `check` with arguments to exit with `status` and to report exactly `expected`.
    func check(_ repo: Scratch, _ arguments: [String] = [], status: Int32, _ expected: [String],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLI.swiftmod(["check"] + arguments, in: repo.path)
        #expect(result.status == status, "check \(arguments): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(errors(result.stdout) == expected, "check \(arguments): \(result.stdout)", sourceLocation: sourceLocation)
    }

    static let cyclesOnly = "migrations: []\nrules:\n  - id: no-cycles\n    kind: cycles\n"

    // MARK: - A. Allow comments on consecutive lines

    /// Two trailing allow comments on consecutive imports: each allows the violation on its own
    /// line, every time (the first once took the second line's violation, or not, at random, and
    /// the second then allowed nothing).
    @Test func trailingAllowCommentsOnConsecutiveImportsEachAllowTheirOwnLine() throws {
        let repo = try repository("migrations: []\nmodule-types:\n  Service: { modules: [\"*Service\"], may-not-import: [UIKit, SwiftUI] }\n", [
            "Package.swift": Self.manifest([".target(name: \"FeedService\")"]),
            "Sources/FeedService/FeedImages.swift": """
            import Foundation
            import UIKit // swiftmod:allow module-type.Service -- a
            import SwiftUI // swiftmod:allow module-type.Service -- b

            enum FeedImages {}

            """,
        ])
        let scanned = try scan(repo)
        #expect(scanned.findings.isEmpty, "\(scanned.findings)")
        #expect(scanned.allowedInline == 2)
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try entries(repo).isEmpty)
        for run in 1...10 {
            let result = try CLI.swiftmod(["check"], in: repo.path)
            #expect(result.status == 0, "run \(run): \(result.stdout)\(result.stderr)")
            #expect(errors(result.stdout).isEmpty, "run \(run): \(result.stdout)")
            #expect(result.stderr.contains("no new uses (0 allowed by the baseline, 2 inline)"), "run \(run): \(result.stderr)")
        }
    }

    // MARK: - B. A partial baseline records only its paths

    /// `baseline PATH` records what is in PATH only: a file of another module, whose new import
    /// closes a cycle with the module of PATH, keeps its new violation and codemod use out of the
    /// baseline (they were recorded with it), so `check` fails on them.
    @Test func aPartialBaselineNeverRecordsAnotherModulesFile() throws {
        let repo = try repository("""
        migrations:
          - codemod: strong-iboutlet
        module-types:
          Service: { modules: ["*Service"], may-not-import: [UIKit] }
        rules:
          - id: no-cycles
            kind: cycles

        """, [
            "Package.swift": Self.manifest([".target(name: \"Coupons\")", ".target(name: \"PaymentsService\")"]),
            "Sources/Coupons/Coupons.swift": "import Foundation\nimport PaymentsService\n\nenum Coupons {}\n",
            "Sources/PaymentsService/Payments.swift": "import Foundation\n\nenum Payments {}\n",
        ])
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try entries(repo).isEmpty)
        try commit(repo, "start")

        let payments = "Sources/PaymentsService/Payments.swift"
        try repo.write(payments, """
        import Foundation
        import Coupons
        import UIKit

        final class PaymentsView: UIView {
            @IBOutlet weak var total: UILabel!
        }

        """)
        let partial = try CLI.swiftmod(["baseline", "Sources/Coupons"], in: repo.path)
        #expect(partial.status == 0, "\(partial.stderr)")
        // Coupons' own dependency is now on a cycle, and in PATH: recorded. Nothing of Payments.swift.
        #expect(try entries(repo) == ["no-cycles Sources/Coupons/Coupons.swift Coupons → PaymentsService"])
        try check(repo, status: 1, [
            "\(payments):2:8: error: new violation of module rule 'no-cycles' (P2): PaymentsService → Coupons is on the dependency cycle PaymentsService → Coupons → PaymentsService",
            "\(payments):3:8: error: new violation of module rule 'module-type.Service' (P2): PaymentsService (Service) may not import UIKit",
            "\(payments):6:15: error: new use of deprecated pattern 'strong-iboutlet' (P2): Make implicitly unwrapped outlets strong: `@IBOutlet weak var x: T!` (or `unowned`) → `@IBOutlet var x: T!`",
        ])
    }

    /// `baseline --prune PATH` compares the dependencies on cycles with all their entries, as a
    /// partial check does: it once saw only the uses in PATH, called the entries of every other
    /// file fixed and removed them, and the next `check` failed on uses that had been allowed.
    @Test func aPartialPruneKeepsTheCycleEntriesOfOtherFiles() throws {
        let repo = try repository(Self.cyclesOnly, [
            "Package.swift": Self.manifest([".target(name: \"Coupons\")", ".target(name: \"Payments\")"]),
            "Sources/Coupons/Coupons.swift": "import Payments\n",
            "Sources/Payments/Refunds.swift": "import Coupons\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let both = ["no-cycles Sources/Coupons/Coupons.swift Coupons → Payments", "no-cycles Sources/Payments/Refunds.swift Payments → Coupons"]
        #expect(try entries(repo) == both)
        try commit(repo, "baseline")

        let pruned = try CLI.swiftmod(["baseline", "--prune", "Sources/Coupons"], in: repo.path)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("Removed 0 fixed uses in .swiftmod-baseline.jsonl; 2 remain."), "\(pruned.stdout)")
        #expect(try entries(repo) == both)
        try check(repo, status: 0, [])

        // The import moves to another file of Payments: the entry follows it.
        try repo.git(["rm", "-q", "Sources/Payments/Refunds.swift"])
        try repo.write("Sources/Payments/Charges.swift", "import Foundation\nimport Coupons\n")
        try check(repo, ["Sources/Coupons"], status: 0, [])
        #expect(try CLI.swiftmod(["baseline", "--prune", "Sources/Coupons"], in: repo.path).status == 0)
        #expect(try entries(repo) == ["no-cycles Sources/Coupons/Coupons.swift Coupons → Payments", "no-cycles Sources/Payments/Charges.swift Payments → Coupons"])
        try check(repo, status: 0, [])

        // The cycle is broken: both dependencies are off it, both entries are fixed.
        try repo.write("Sources/Payments/Charges.swift", "import Foundation\n")
        let fixed = try CLI.swiftmod(["baseline", "--prune", "Sources/Coupons"], in: repo.path)
        #expect(fixed.stdout.contains("Removed 2 fixed uses in .swiftmod-baseline.jsonl; 0 remain."), "\(fixed.stdout)")
        #expect(try entries(repo).isEmpty)
        try check(repo, status: 0, [])
    }

    // MARK: - C. A cycle's dependency is the same in any file

    /// PaymentsCore imports CouponsCore in two files (and CouponsCore imports PaymentsCore). The
    /// dependency is found at its first place: renaming that file so that it sorts last, or adding
    /// a file that sorts first with the same import, moves the finding to another file, which is
    /// not new (it once was: the cycle was identified by the file that closed it).
    @Test func aDependencyOnACycleMovingToAnotherFileIsNotNew() throws {
        let repo = try repository(Self.cyclesOnly, [
            "Package.swift": Self.manifest([".target(name: \"Coupons\")", ".target(name: \"Payments\")"]),
            "Sources/Coupons/Coupons.swift": "import Payments\n",
            "Sources/Payments/Alpha.swift": "import Foundation\nimport Coupons\n",
            "Sources/Payments/Beta.swift": "import Coupons\n",
        ])
        try expectScan(repo, [
            "no-cycles Sources/Coupons/Coupons.swift:1:8 Coupons → Payments | Coupons → Payments is on the dependency cycle Coupons → Payments → Coupons",
            "no-cycles Sources/Payments/Alpha.swift:2:8 Payments → Coupons | Payments → Coupons is on the dependency cycle Payments → Coupons → Payments",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try entries(repo) == [
            "no-cycles Sources/Coupons/Coupons.swift Coupons → Payments",
            "no-cycles Sources/Payments/Alpha.swift Payments → Coupons",
        ])
        try commit(repo, "baseline")

        try repo.git(["mv", "Sources/Payments/Alpha.swift", "Sources/Payments/Zeta.swift"])
        #expect(try scan(repo).findings.last?.hasPrefix("no-cycles Sources/Payments/Beta.swift:1:8 Payments → Coupons |") == true)
        try check(repo, status: 0, [])
        try commit(repo, "rename")
        for arguments in [[], ["--changed-since", "HEAD~1"], ["Sources/Payments"]] {
            try check(repo, arguments, status: 0, [])
        }

        try repo.write("Sources/Payments/Aaa.swift", "import Coupons\n")
        #expect(try scan(repo).findings.last?.hasPrefix("no-cycles Sources/Payments/Aaa.swift:1:8 Payments → Coupons |") == true)
        try check(repo, status: 0, [])
        try check(repo, ["Sources/Payments/Aaa.swift"], status: 0, [])
        try commit(repo, "a new file")
        for arguments in [[], ["--changed-since", "HEAD"], ["--changed-since", "HEAD~1"], ["--changed-since", "HEAD~2"]] {
            try check(repo, arguments, status: 0, [])
        }
        // Pruning follows the dependency to its first place now; Alpha.swift is gone from the baseline.
        let pruned = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(try entries(repo) == [
            "no-cycles Sources/Coupons/Coupons.swift Coupons → Payments",
            "no-cycles Sources/Payments/Aaa.swift Payments → Coupons",
        ])
        try check(repo, status: 0, [])
        try commit(repo, "prune")

        // Still locked down: a new dependency on a cycle fails every kind of check.
        try repo.write("Sources/Payments/Beta.swift", "import Coupons\nimport Orders\n")
        try repo.write("Sources/Orders/Orders.swift", "import Payments\n")
        try repo.write("Package.swift", Self.manifest([".target(name: \"Coupons\")", ".target(name: \"Orders\")", ".target(name: \"Payments\")"]))
        let orders = "Sources/Orders/Orders.swift:1:8: error: new violation of module rule 'no-cycles' (P2): Orders → Payments is on the dependency cycle Orders → Payments → Orders"
        let beta = "Sources/Payments/Beta.swift:2:8: error: new violation of module rule 'no-cycles' (P2): Payments → Orders is on the dependency cycle Payments → Orders → Payments"
        // Staged, as the pre-commit hook sees them (a PATH check leaves files git does not track
        // out of the module graph unless they are named: scratch work is not part of a commit).
        try repo.git(["add", "-A"])
        for arguments in [[], ["--changed-since", "HEAD"], ["Sources/Payments/Beta.swift"]] {
            try check(repo, arguments, status: 1, [orders, beta])
        }
    }

    // MARK: - D. Fixing never makes a finding

    /// Four modules that all depend on each other in a ring both ways: every dependency is on a
    /// cycle (8 findings). Removing one dependency changes the shortest cycle through others
    /// (A → B is now on A → B → C → D → A), which once made them "new": now it only fixes one.
    @Test func removingADependencyFromACycleNeverMakesAFinding() throws {
        let repo = try repository(Self.cyclesOnly, [
            "Package.swift": Self.manifest(["A", "B", "C", "D"].map { ".target(name: \"\($0)\")" }),
            "Sources/A/A.swift": "import B\nimport D\n",
            "Sources/B/B.swift": "import C\nimport A\n",
            "Sources/C/C.swift": "import D\nimport B\n",
            "Sources/D/D.swift": "import A\nimport C\n",
        ])
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.stdout.contains("Recorded 8 uses"), "\(recorded.stdout)")
        #expect(try entries(repo) == [
            "no-cycles Sources/A/A.swift A → B", "no-cycles Sources/A/A.swift A → D",
            "no-cycles Sources/B/B.swift B → A", "no-cycles Sources/B/B.swift B → C",
            "no-cycles Sources/C/C.swift C → B", "no-cycles Sources/C/C.swift C → D",
            "no-cycles Sources/D/D.swift D → A", "no-cycles Sources/D/D.swift D → C",
        ])
        try commit(repo, "baseline")

        try repo.write("Sources/B/B.swift", "import C\n")
        // Every remaining dependency is still on a cycle, some on a longer one now.
        try expectScan(repo, [
            "no-cycles Sources/A/A.swift:1:8 A → B | A → B is on the dependency cycle A → B → C → D → A",
            "no-cycles Sources/A/A.swift:2:8 A → D | A → D is on the dependency cycle A → D → A",
            "no-cycles Sources/B/B.swift:1:8 B → C | B → C is on the dependency cycle B → C → B",
            "no-cycles Sources/C/C.swift:1:8 C → D | C → D is on the dependency cycle C → D → C",
            "no-cycles Sources/C/C.swift:2:8 C → B | C → B is on the dependency cycle C → B → C",
            "no-cycles Sources/D/D.swift:1:8 D → A | D → A is on the dependency cycle D → A → D",
            "no-cycles Sources/D/D.swift:2:8 D → C | D → C is on the dependency cycle D → C → D",
        ])
        let fixed = try CLI.swiftmod(["check"], in: repo.path)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(errors(fixed.stdout).isEmpty, "\(fixed.stdout)")
        #expect(fixed.stderr.contains("no new uses (7 allowed by the baseline)"), "\(fixed.stderr)")
        try check(repo, ["--changed-since", "HEAD"], status: 0, [])
        try check(repo, ["Sources/B"], status: 0, [])

        let pruned = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(try entries(repo) == [
            "no-cycles Sources/A/A.swift A → B", "no-cycles Sources/A/A.swift A → D",
            "no-cycles Sources/B/B.swift B → C",
            "no-cycles Sources/C/C.swift C → B", "no-cycles Sources/C/C.swift C → D",
            "no-cycles Sources/D/D.swift D → A", "no-cycles Sources/D/D.swift D → C",
        ])
        try check(repo, status: 0, [])
    }

    // MARK: - E. Manifests count when include: leaves them out

    @Test func manifestViolationsCountWhenIncludeLeavesThemOut() throws {
        let config = """
        migrations: []
        include: ["Sources/**/*.swift"]
        module-types:
          UI:    { modules: ["*UI"] }
          Logic: { modules: ["*Core"], may-not-depend-on: [UI] }

        """
        let targets = [".target(name: \"FeedCore\", dependencies: [\"FeedUI\"])", ".target(name: \"FeedUI\")", ".target(name: \"OrdersUI\")"]
        let repo = try repository(config, [
            "Package.swift": Self.manifest(targets),
            "Sources/FeedCore/FeedCore.swift": "import Foundation\n",
            "Sources/FeedUI/FeedUI.swift": "import SwiftUI\n",
            "Sources/OrdersUI/OrdersUI.swift": "import SwiftUI\n",
        ])
        try expectScan(repo, [
            "module-type.Logic Package.swift:7:50 \"FeedUI\" | FeedCore (Logic) may not depend on FeedUI (UI)",
        ])
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.stdout.contains("Recorded 1 use"), "\(recorded.stdout)")
        #expect(try entries(repo) == ["module-type.Logic Package.swift \"FeedUI\""])
        try commit(repo, "baseline")
        try check(repo, status: 0, [])

        try repo.write("Package.swift", Self.manifest([
            ".target(name: \"FeedCore\", dependencies: [\"FeedUI\"])", ".target(name: \"FeedUI\")",
            ".target(name: \"OrdersUI\")", ".target(name: \"OrdersCore\", dependencies: [\"OrdersUI\"])",
        ]))
        try repo.write("Sources/OrdersCore/OrdersCore.swift", "import Foundation\n")
        try check(repo, status: 1, [
            "Package.swift:10:52: error: new violation of module rule 'module-type.Logic' (P2): OrdersCore (Logic) may not depend on OrdersUI (UI)",
        ])
    }

    /// Known gap: a partial check (`--changed-since`, `check Package.swift`) selects files by
    /// `include:`, so a manifest it leaves out is never among the changed files: neither its new
    /// violations nor the files of the modules it renames are checked. Only a full check is.
    @Test func aPartialCheckOfAManifestThatIncludeLeavesOut() throws {
        let repo = try repository("""
        migrations: []
        include: ["Sources/**/*.swift"]
        module-types:
          UI:      { modules: ["*UI"] }
          Logic:   { modules: ["*Core"], may-not-depend-on: [UI] }
          Service: { modules: ["*Service"], may-not-import: [UIKit] }

        """, [
            "Package.swift": Self.manifest([".target(name: \"FeedCore\")", ".target(name: \"FeedUI\")", ".target(name: \"Legacy\", path: \"Sources/Legacy\")",
                                           ".target(name: \"FeedService\")"]),
            "Sources/FeedCore/FeedCore.swift": "import Foundation\n",
            "Sources/FeedUI/FeedUI.swift": "import SwiftUI\n",
            "Sources/Legacy/Legacy.swift": "import UIKit\n",
            "Sources/FeedService/FeedService.swift": "import Foundation\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try entries(repo).isEmpty)
        try commit(repo, "baseline")
        try repo.write("Package.swift", Self.manifest([".target(name: \"FeedCore\", dependencies: [\"FeedUI\"])", ".target(name: \"FeedUI\")",
                                                      ".target(name: \"LegacyService\", path: \"Sources/Legacy\")", ".target(name: \"FeedService\")"]))
        let expected = [
            "Package.swift:7:50: error: new violation of module rule 'module-type.Logic' (P2): FeedCore (Logic) may not depend on FeedUI (UI)",
            "Sources/Legacy/Legacy.swift:1:8: error: new violation of module rule 'module-type.Service' (P2): LegacyService (Service) may not import UIKit",
        ]
        try check(repo, status: 1, expected)
        // A partial check compares the module rules of the whole repository.
        try check(repo, ["--changed-since", "HEAD"], status: 1, expected)
        try check(repo, ["Package.swift"], status: 1, expected)
    }

    // MARK: - F. An excluded manifest declares no module

    /// A test fixture's manifest declares a target of the same name in a deeper folder: it once
    /// became the module's folder, so the module lost its type (by folder) and its violation.
    @Test func anExcludedManifestDoesNotHijackAModule() throws {
        let repo = try repository("""
        migrations: []
        exclude: ["Tests/Fixtures/**"]
        module-types:
          Service: { modules: ["Services/**"], may-not-import: [UIKit] }

        """, [
            "Services/Package.swift": Self.manifest([".target(name: \"Network\")"]),
            "Services/Sources/Network/Client.swift": "import Foundation\nimport UIKit\n",
            "Tests/Fixtures/Sample/Package.swift": Self.manifest([".target(name: \"Network\")"]),
            "Tests/Fixtures/Sample/Sources/Network/Fixture.swift": "import UIKit\n",
        ])
        try expectScan(repo, [
            "module-type.Service Services/Sources/Network/Client.swift:2:8 import UIKit | Network (Service) may not import UIKit",
        ])
        let modules = try CLI.swiftmod(["modules", "--format", "json"], in: repo.path)
        #expect(modules.status == 0, "\(modules.stderr)")
        struct Module: Decodable { var name, path, source: String; var type: String? }
        let all = try JSONDecoder().decode([Module].self, from: modules.stdoutBytes)
        #expect(all.map { "\($0.name) \($0.path) \($0.source) \($0.type ?? "-")" } == ["Network Services/Sources/Network Services/Package.swift Service"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try entries(repo) == ["module-type.Service Services/Sources/Network/Client.swift import UIKit"])
    }

    // MARK: - H. A changed manifest re-checks its modules' files

    /// Renaming a target so that its type changes (Legacy → LegacyService, its folder kept) makes
    /// an import of an unchanged file a new violation: a partial check of the manifest sees it.
    @Test func renamingATargetInItsManifestReChecksItsFiles() throws {
        let config = "migrations: []\nmodule-types:\n  Service: { modules: [\"*Service\"], may-not-import: [UIKit] }\n"
        let repo = try repository(config, [
            "Package.swift": Self.manifest([".target(name: \"Legacy\", path: \"Sources/Legacy\")", ".target(name: \"FeedService\")"]),
            "Sources/Legacy/LegacyViews.swift": "import Foundation\nimport UIKit\n",
            "Sources/FeedService/Feed.swift": "import Foundation\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try entries(repo).isEmpty)
        try commit(repo, "baseline")

        try repo.write("Package.swift", Self.manifest([".target(name: \"LegacyService\", path: \"Sources/Legacy\")", ".target(name: \"FeedService\")"]))
        let expected = ["Sources/Legacy/LegacyViews.swift:2:8: error: new violation of module rule 'module-type.Service' (P2): LegacyService (Service) may not import UIKit"]
        for arguments in [[], ["--changed-since", "HEAD"], ["Package.swift"]] {
            try check(repo, arguments, status: 1, expected)
        }
        try commit(repo, "rename")
        try check(repo, ["--changed-since", "HEAD~1"], status: 1, expected)
        // Module rules are compared over the whole repository, whichever files a check looks at.
        try check(repo, ["Sources/FeedService"], status: 1, expected)
    }

    // MARK: - I. Target.target

    @Test func aSpelledOutTargetIsAModule() throws {
        let repo = try repository("""
        migrations: []
        module-types:
          UI:    { modules: ["*UI"] }
          Logic: { modules: ["*Core"], may-not-depend-on: [UI] }

        """, [
            "Package.swift": Self.manifest([
                "Target.target(name: \"DCore\", dependencies: [\"FeedUI\"])",
                "PackageDescription.Target.target(name: \"FeedUI\")",
            ]),
            "Sources/DCore/D.swift": "import FeedUI\n",
            "Sources/FeedUI/F.swift": "import SwiftUI\n",
        ])
        let modules = try CLI.swiftmod(["modules", "--format", "json"], in: repo.path)
        #expect(modules.status == 0, "\(modules.stderr)")
        struct Module: Decodable { var name, path: String; var type: String? }
        let all = try JSONDecoder().decode([Module].self, from: modules.stdoutBytes)
        #expect(all.map { "\($0.name) \($0.path) \($0.type ?? "-")" } == ["DCore Sources/DCore Logic", "FeedUI Sources/FeedUI UI"])
        try expectScan(repo, [
            "module-type.Logic Package.swift:7:53 \"FeedUI\" | DCore (Logic) may not depend on FeedUI (UI)",
            "module-type.Logic Sources/DCore/D.swift:1:8 import FeedUI | DCore (Logic) may not depend on FeedUI (UI)",
        ])
    }

    // MARK: - J. A dependency's spelling is not its identity

    @Test func respellingAManifestDependencyIsNotNew() throws {
        let config = """
        migrations: []
        module-types:
          UI:    { modules: ["*UI"] }
          Logic: { modules: ["*Core"], may-not-depend-on: [UI] }

        """
        func manifest(_ dependency: String) -> String {
            Self.manifest([".target(\n            name: \"FeedCore\",\n            dependencies: [\n                \(dependency),\n            ]\n        )", ".target(name: \"FeedUI\")"])
        }
        let repo = try repository(config, [
            "Package.swift": manifest("\"FeedUI\""),
            "Sources/FeedCore/FeedCore.swift": "import Foundation\n",
            "Sources/FeedUI/FeedUI.swift": "import SwiftUI\n",
        ])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        #expect(try entries(repo) == ["module-type.Logic Package.swift \"FeedUI\""])
        try commit(repo, "baseline")

        for spelling in [".target(name: \"FeedUI\")", ".target(name: \"FeedUI\", condition: .when(platforms: [.iOS]))",
                         ".byName(name: \"FeedUI\")", ".target(\n                    name: \"FeedUI\"\n                )"] {
            try repo.write("Package.swift", manifest(spelling))
            try expectScan(repo, ["module-type.Logic Package.swift:10:17 \"FeedUI\" | FeedCore (Logic) may not depend on FeedUI (UI)"],
                    "\(spelling)")
            for arguments in [[], ["--changed-since", "HEAD"], ["Package.swift"]] {
                try check(repo, arguments, status: 0, [])
            }
        }
        // Another module is another dependency.
        try repo.write("Package.swift", manifest("\"FeedUI\"").replacingOccurrences(of: "\"FeedUI\",\n", with: "\"FeedUI\",\n                \"OrdersUI\",\n")
            .replacingOccurrences(of: "        .target(name: \"FeedUI\"),\n", with: "        .target(name: \"FeedUI\"),\n        .target(name: \"OrdersUI\"),\n"))
        try repo.write("Sources/OrdersUI/OrdersUI.swift", "import SwiftUI\n")
        try check(repo, status: 1, ["Package.swift:11:17: error: new violation of module rule 'module-type.Logic' (P2): FeedCore (Logic) may not depend on OrdersUI (UI)"])
    }

    // MARK: - K. Configuration mistakes

    @Test(arguments: [
        ("migrations: []\nrules:\n  - id: no-cycles\n    kind: cycles\n  - id: cycles-again\n    kind: cycles\n",
         ".swiftmod.yml:6: field 'rules[1].kind': a second rule of kind cycles (the first is 'no-cycles', line 3): every cycle would be reported twice"),
        ("migrations: []\nmodule-types:\n  \"\": { modules: [\"*Service\"], may-not-import: [UIKit] }\n",
         ".swiftmod.yml:3: field 'module-types': a module type needs a name (a plain word such as UI or Service)"),
        ("migrations: []\nmodule-types:\n  [Service, UI]: { modules: [\"*Service\"], may-not-import: [UIKit] }\n",
         ".swiftmod.yml:3: field 'module-types': a module type needs a name (a plain word such as UI or Service)"),
        ("migrations: []\nmodule-types:\n  Big Service: { modules: [\"*Service\"], may-not-import: [UIKit] }\n",
         ".swiftmod.yml:3: field 'module-types.Big Service.id': 'module-type.Big Service' must be letters, digits, '.', '_' or '-' (allow comments name it)"),
        ("migrations: []\nmodule-types:\n  Service: { modules: [\"*Service\"], may-not-import: [] }\n",
         ".swiftmod.yml:3: field 'module-types.Service.may-not-import': is empty: name the modules (or module types), or leave the key out"),
        ("migrations: []\nmodule-types:\n  Logic: { modules: [\"*Core\"], may-not-depend-on: [] }\n",
         ".swiftmod.yml:3: field 'module-types.Logic.may-not-depend-on': is empty: name the modules (or module types), or leave the key out"),
        ("migrations: []\nmodule-types:\n  Service: { modules: [\"*Service\"], may-not-import: [UIKit.UIView] }\n",
         ".swiftmod.yml:3: field 'module-types.Service.may-not-import[0]': 'UIKit.UIView' is not a module name (imports are matched by module: write UIKit, not UIKit.UIView)"),
        ("migrations: []\nmodule-types:\n  Logic: { modules: [\"*Core\"], may-not-depend-on: [UI, Feed UI] }\n",
         ".swiftmod.yml:3: field 'module-types.Logic.may-not-depend-on[1]': 'Feed UI' is not a module name (imports are matched by module: write UIKit, not UIKit.UIView)"),
    ])
    func configurationMistakesAreLocatedErrors(config: String, message: String) throws {
        let repo = try repository(config, [
            "Package.swift": Self.manifest([".target(name: \"FeedService\")"]),
            "Sources/FeedService/Feed.swift": "import UIKit\n",
        ])
        for command in ["scan", "check", "baseline", "report"] {
            let result = try CLI.swiftmod([command], in: repo.path)
            #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
        }
    }

    /// What matches nothing is most likely a typo: a warning on stderr, whatever the exit code.
    @Test func aTypeMatchingNoModuleOrADependencyNamingNothingIsAWarning() throws {
        let repo = try repository("""
        migrations: []
        module-types:
          UI:      { modules: ["*UI"] }
          Service: { modules: ["*Service"], may-not-import: [UIKit] }
          Widget:  { modules: ["*Widget"], may-not-import: [UIKit] }
          Logic:   { modules: ["*Core"], may-not-depend-on: [UI, Fedture] }

        """, [
            "Package.swift": Self.manifest([".target(name: \"FeedService\")", ".target(name: \"FeedCore\")", ".target(name: \"FeedUI\")"]),
            "Sources/FeedService/Feed.swift": "import Foundation\n",
            "Sources/FeedCore/FeedCore.swift": "import Foundation\n",
            "Sources/FeedUI/FeedUI.swift": "import SwiftUI\n",
        ])
        let warnings = [
            "warning: module type Widget (.swiftmod.yml:5) matches no module: its rule checks nothing",
            "warning: module type Logic (.swiftmod.yml:6) may not depend on 'Fedture', which is neither a module type nor a module",
        ]
        func expectWarnings(_ result: CLI.Result, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation) {
            let lines = result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: ") }
            #expect(lines == warnings, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        }
        for command in [["scan"], ["baseline"], ["check"], ["check", "--changed-since", "HEAD"]] {
            if command == ["check", "--changed-since", "HEAD"] { try commit(repo, "baseline") }
            let result = try CLI.swiftmod(command, in: repo.path)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
            expectWarnings(result, command)
        }
        try repo.write("Sources/FeedService/Feed.swift", "import UIKit\n")
        let failing = try CLI.swiftmod(["check"], in: repo.path)
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(errors(failing.stdout) == ["Sources/FeedService/Feed.swift:1:8: error: new violation of module rule 'module-type.Service' (P2): FeedService (Service) may not import UIKit"])
        expectWarnings(failing, ["check"])
        // A configuration that matches: no warnings.
        try repo.write(".swiftmod.yml", "migrations: []\nmodule-types:\n  UI: { modules: [\"*UI\"] }\n  Logic: { modules: [\"*Core\"], may-not-depend-on: [UI, FeedService] }\n")
        let quiet = try CLI.swiftmod(["scan"], in: repo.path)
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("warning:"), "\(quiet.stderr)")
    }
}
