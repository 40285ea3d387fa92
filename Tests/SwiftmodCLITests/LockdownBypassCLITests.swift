import Foundation
import Testing

/// Issue 23: the files and text `check` judges are those swiftc compiles. Each test starts from a
/// baselined, committed repository and adds one new use by a way that once got past `check`
/// with exit 0; the full check, `--changed-since` and a check of the file by name must all fail,
/// or name what they did not judge.
@Suite struct LockdownBypassCLITests {
    static let config = """
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView, module: UIKit, import: WebKit }
    module-types:
      Service: { modules: ["*Service"], may-not-depend-on: ["FeedUI"] }

    """

    /// A committed repository with one baselined use.
    func repository(config: String = Self.config) throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", config)
        try repo.write("App/Old.swift", "let old = UIWebView()\n")
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "baseline"])
        return repo
    }

    /// The three checks that must agree: a full one, one of what changed since a revision, and
    /// one of `files` by name (as the pre-commit hook runs it).
    func everyCheck(of files: [String], since revision: String = "HEAD") -> [[String]] {
        [["check"], ["check", "--changed-since", revision], ["check", "--"] + files]
    }

    /// Runs a full check, a `--changed-since HEAD` check, and a check of `files` by name (as the
    /// pre-commit hook does) after adding them to git; each must fail (exit 1).
    func expectEveryCheckFails(_ repo: Scratch, files: [String], mentioning text: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        try repo.git(["add", "-A"])
        for arguments in everyCheck(of: files) {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 1, "\(arguments): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
            #expect((result.stdout + result.stderr).contains(text), "\(arguments): \(result.stdout)\(result.stderr)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func aFileOverTheSizeLimitWithAUseFailsInEveryFormat() throws {
        let repo = try repository(config: Self.config + "max-file-size: 2KB\n")
        let big = String(repeating: "// padding padding padding\n", count: 100) + "let late = UIWebView()\n"
        try repo.write("App/Big.swift", big)
        try expectEveryCheckFails(repo, files: ["App/Big.swift"], mentioning: "App/Big.swift")
        let text = try CLI.swiftmod(["check"], in: repo.path)
        #expect(text.stdout.contains("App/Big.swift:1:1: error: not judged:"))
        // Counted apart from the files checked: App/Old.swift alone was checked.
        #expect(text.stderr.contains("1 file checked; 1 file not judged"), "\(text.stderr)")
        let json = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notJudged = try #require(document?["notJudged"] as? [[String: Any]])
        #expect(notJudged.count == 1)
        #expect(notJudged.first?["path"] as? String == "App/Big.swift")
        #expect(notJudged.first?["reason"] as? String == "too-large")
        #expect(notJudged.first?["failsCheck"] as? Bool == true)
        let github = try CLI.swiftmod(["check", "--format", "github"], in: repo.path)
        #expect(github.status == 1)
        #expect(github.stdout.contains("::error file=App/Big.swift,title=swiftmod%3A not judged::"), "\(github.stdout)")
        let sarif = try CLI.swiftmod(["check", "--format", "sarif"], in: repo.path)
        #expect(sarif.status == 1)
        let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any]
        let invocation = ((log?["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first
        #expect(invocation?["executionSuccessful"] as? Bool == false)
        let notifications = try #require(invocation?["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.contains { ($0["level"] as? String) == "error" && "\($0["message"] ?? "")".contains("App/Big.swift") })
        // Without a migration's text, a big file cannot hold a use: named, and the check passes.
        try repo.write("App/Big.swift", String(repeating: "// padding padding padding\n", count: 100))
        try repo.git(["add", "-A"])
        let clean = try CLI.swiftmod(["check"], in: repo.path)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("App/Big.swift:1:1: warning: not judged:"))
    }

    @Test(arguments: ["Pods", "Carthage", "DerivedData", "node_modules", "Feature/Pods", ".hidden", "App/.generated"])
    func foldersNamedLikeDependenciesAreCheckedWhenNoToolPutThemThere(_ folder: String) throws {
        let repo = try repository()
        try repo.write("\(folder)/New.swift", "let new = UIWebView()\n")
        try expectEveryCheckFails(repo, files: ["\(folder)/New.swift"], mentioning: "\(folder)/New.swift:1:11: error: new use")
    }

    @Test func dependencyCheckoutsAreNamedAndAgreeAcrossChecks() throws {
        let repo = try repository()
        try repo.write("Podfile", "target 'App'\n")
        try repo.write("Pods/Manifest.lock", "PODFILE CHECKSUM: 1\n")
        try repo.write("Pods/Alamofire/Session.swift", "let vendored = UIWebView()\n")
        try repo.git(["add", "-A"])
        for arguments in everyCheck(of: ["Pods/Alamofire/Session.swift"]) {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("Pods/") && result.stdout.contains("note: ")
                        && result.stdout.contains("CocoaPods' dependency checkouts (beside Podfile)"),
                    "\(arguments): \(result.stdout)")
        }
    }

    @Test func anExcludedFileNamedOnTheCommandLineIsNamedAsNotJudged() throws {
        let repo = try repository(config: Self.config + "exclude: [\"**/Generated/**\"]\n")
        try repo.write("App/Generated/API.swift", "let api = UIWebView()\n")
        try repo.git(["add", "-A"])
        let result = try CLI.swiftmod(["check", "--", "App/Generated/API.swift"], in: repo.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("App/Generated/API.swift:1:1: note: not judged: excluded by `exclude: **/Generated/**`"), "\(result.stdout)")
        #expect(result.stderr.contains("0 files checked; 1 file not judged"), "\(result.stderr)")
    }

    @Test func initNoLongerExcludesGeneratedFolders() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write("App/Generated/Hand.swift", "let hand = 1\n")
        let result = try CLI.swiftmod(["init"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        let config = String(decoding: try repo.read(".swiftmod.yml"), as: UTF8.self)
        #expect(!config.split(separator: "\n").contains { $0.hasPrefix("exclude:") && $0.contains("Generated") }, "\(config)")
    }

    @Test func linksIntoAnExcludedFolderAreJudgedByTheirOwnPath() throws {
        let repo = try repository(config: Self.config + "exclude: [\"Vendor/**\"]\n")
        try repo.write("Vendor/Lib/Thing.swift", "let thing = UIWebView()\n")
        try repo.write("Vendor/Other/More.swift", "let more = UIWebView()\n")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/Thing.swift", withDestinationPath: "../Vendor/Lib/Thing.swift")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/Other", withDestinationPath: "../Vendor/Other")
        try repo.git(["add", "-A"])
        let result = try CLI.swiftmod(["check"], in: repo.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("App/Thing.swift:1:13: error: new use"), "\(result.stdout)")
        #expect(result.stdout.contains("App/Other/More.swift:1:12: error: new use"), "\(result.stdout)")
        let changed = try CLI.swiftmod(["check", "--changed-since", "HEAD"], in: repo.path)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains("App/Thing.swift:1:13: error: new use"), "\(changed.stdout)")
    }

    @Test func aLinkToAFolderThatLoopsEnds() throws {
        let repo = try repository()
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/Loop", withDestinationPath: "..")
        try FileManager.default.createDirectory(atPath: repo.path + "/A", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repo.path + "/B", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/A/toB", withDestinationPath: "../B")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/B/toA", withDestinationPath: "../A")
        try repo.write("B/New.swift", "let new = UIWebView()\n")
        let result = try CLI.swiftmod(["check"], in: repo.path)
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: ": error: new use").count == 2, "\(result.stdout)")
    }

    @Test func namesThatDifferOnlyInNormalisationAreTwoFiles() throws {
        let repo = try repository()
        let composed = "App/Caf\u{E9}.swift"            // NFC
        let decomposed = "App/Cafe\u{301}.swift"        // NFD
        try repo.write(composed, "let one = UIWebView()\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "cafe"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rebaseline"])
        // The same name in the other form, a second file on Linux, with a new use.
        let created = FileManager.default.createFile(atPath: repo.path + "/" + decomposed, contents: Data("let two = UIWebView()\n".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: repo.path + "/App").filter { $0.hasPrefix("Caf") }
        guard created, names.count == 2 else { return }   // a file system that folds the forms into one file
        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: repo.path)
        #expect(scan.stdout.components(separatedBy: "\"kind\" : \"use\"").count - 1 == 3, "\(scan.stdout)")
        try expectEveryCheckFails(repo, files: [decomposed], mentioning: "error: new use")
    }

    @Test func codeAfterALoneCarriageReturnIsCode() throws {
        let repo = try repository()
        try repo.write("App/Mac.swift", "let note = 1 // old Mac line ending\rlet mac = UIWebView()\n")
        try expectEveryCheckFails(repo, files: ["App/Mac.swift"], mentioning: "App/Mac.swift")
        let scan = try CLI.swiftmod(["scan", "App/Mac.swift"], in: repo.path)
        #expect(scan.stderr.contains("1 use of"), "\(scan.stderr)")
    }

    @Test func usesAfterABareRegexLiteralTheParserMisreadsAreCounted() throws {
        let repo = try repository()
        try repo.write("App/Regex.swift", """
        let slash = /\\/"/
        func make() -> Any { UIWebView() }

        """)
        try expectEveryCheckFails(repo, files: ["App/Regex.swift"], mentioning: "App/Regex.swift:2:22: error: new use")
        let result = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        #expect(result.stdout.contains("\"reason\" : \"misread\""), "\(result.stdout)")
    }

    @Test(arguments: [##"#"FeedUI"#"##, #""Feed\u{55}I""#, ##".target(name: #"FeedUI"#)"##])
    func manifestStringsAreReadAsTheCompilerReadsThem(_ dependency: String) throws {
        let repo = try repository()
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "App", targets: [
            .target(name: "FeedUI"),
            .target(name: "FeedService", dependencies: [\(dependency)]),
        ])

        """)
        try repo.write("Sources/FeedUI/Feed.swift", "public struct Feed {}\n")
        try repo.write("Sources/FeedService/Service.swift", "struct Service {}\n")
        try repo.git(["add", "-A"])
        let result = try CLI.swiftmod(["check"], in: repo.path)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Package.swift:5:") && result.stdout.contains("module-type.Service"), "\(result.stdout)")
    }

    @Test func anUntrackedScratchFileDoesNotBlockAnUnrelatedCommit() throws {
        let repo = try repository(config: Self.config.replacingOccurrences(of: "may-not-depend-on: [\"FeedUI\"]", with: "may-not-import: [UIKit]"))
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "App", targets: [.target(name: "FeedService")])

        """)
        try repo.write("Sources/FeedService/Service.swift", "struct Service {}\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "service"])
        try repo.write("Sources/FeedService/Scratch.swift", "import UIKit\n")      // not added to git
        try repo.write("App/Old.swift", "let old = UIWebView() // touched\n")
        try repo.git(["add", "App/Old.swift"])
        let hook = try CLI.swiftmod(["check", "--", "App/Old.swift"], in: repo.path)
        #expect(hook.status == 0, "\(hook.stdout)\(hook.stderr)")
        #expect(hook.stderr.contains("the module rules leave out 1 Swift file git does not track and this check was not asked about (Sources/FeedService/Scratch.swift)"), "\(hook.stderr)")
        // Named, or once added, it is judged.
        #expect(try CLI.swiftmod(["check", "--", "Sources/FeedService/Scratch.swift"], in: repo.path).status == 1)
        try repo.git(["add", "-A"])
        #expect(try CLI.swiftmod(["check", "--", "App/Old.swift"], in: repo.path).status == 1)
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 1)
    }

    // MARK: - After a hostile review

    /// A Service module in a package; `import UIKit` in it is a violation.
    func serviceRepository(manifestTarget: String = #".target(name: "FeedService")"#, folder: String = "Sources") throws -> Scratch {
        let repo = try repository(config: Self.config.replacingOccurrences(of: "may-not-depend-on: [\"FeedUI\"]", with: "may-not-import: [UIKit]"))
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "App", targets: [.target(name: "AuthService"), \(manifestTarget)])

        """)
        try repo.write("\(folder)/FeedService/Service.swift", "import Foundation\n")
        try repo.write("Sources/AuthService/Auth.swift", "import Foundation\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "services"])
        return repo
    }

    @Test func anImportAfterABraceInABareRegexIsAnImport() throws {
        let repo = try serviceRepository()
        try repo.write("Sources/FeedService/Service.swift", "import Foundation\nlet r = /{/\nimport UIKit\n")
        try expectEveryCheckFails(repo, files: ["Sources/FeedService/Service.swift"], mentioning: "Sources/FeedService/Service.swift:3:8: error: new violation")
    }

    @Test func theImportsOfAFileTooLargeToParseAreStillJudged() throws {
        let repo = try serviceRepository()
        try repo.write(".swiftmod.yml", String(decoding: try repo.read(".swiftmod.yml"), as: UTF8.self) + "max-file-size: 2KB\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "limit"])
        try repo.write("Sources/FeedService/Big.swift", "import UIKit\n" + String(repeating: "// padding padding padding\n", count: 100))
        try expectEveryCheckFails(repo, files: ["Sources/FeedService/Big.swift"], mentioning: "Sources/FeedService/Big.swift:1:8: error: new violation")
        // Too large even for its imports (over 16 times the limit): a file that cannot be read.
        try repo.write("Sources/FeedService/Big.swift", "import UIKit\n" + String(repeating: "// padding padding padding\n", count: 1_400))
        try expectEveryCheckFails(repo, files: ["Sources/FeedService/Big.swift"],
                                  mentioning: "Sources/FeedService/Big.swift:1:1: error: cannot be scanned: its imports were not read")
    }

    @Test(arguments: [#".target(name: "Feed" + "Service")"#, #".target(name: ("FeedService"))"#])
    func targetNamesSpelledAsConstantExpressionsAreRead(_ target: String) throws {
        let repo = try serviceRepository(manifestTarget: target)
        try repo.write("Sources/FeedService/New.swift", "import UIKit\n")
        try expectEveryCheckFails(repo, files: ["Sources/FeedService/New.swift"], mentioning: "Sources/FeedService/New.swift:1:8: error: new violation")
    }

    @Test(arguments: ["src", "srcs", "Source"])
    func targetsInSwiftPMsOtherSourceFoldersAreModules(_ folder: String) throws {
        let repo = try serviceRepository(folder: folder)
        try repo.write("\(folder)/FeedService/New.swift", "import UIKit\n")
        try expectEveryCheckFails(repo, files: ["\(folder)/FeedService/New.swift"], mentioning: "\(folder)/FeedService/New.swift:1:8: error: new violation")
    }

    @Test func aChangedConfigurationMakesAPartialCheckAFullOne() throws {
        let repo = try repository()
        try repo.write("App/Label.swift", "let label = UILabel()\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "label"])
        try repo.write(".swiftmod.yml", Self.config.replacingOccurrences(of: "migrations:\n", with: """
        migrations:
          - id: labels
            codemod: swap-type
            params: { from: UILabel, to: Label }

        """))
        for arguments in [["check", "--changed-since", "HEAD"], ["check", "--", ".swiftmod.yml"], ["check", "--", "App/Old.swift"]] {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            if arguments.last == "App/Old.swift" {
                // The configuration is not named: this partial check stays partial.
                #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
                continue
            }
            #expect(result.status == 1, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("App/Label.swift:1:13: error: new use of deprecated pattern 'labels'"), "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("note: .swiftmod.yml changed, which can change the verdict on every file: checking the whole repository"), "\(result.stderr)")
        }
    }

    @Test func aLinkedTargetThatChangesIsAChangeToTheLink() throws {
        let repo = try repository(config: Self.config + "exclude: [\"Generated/**\"]\n")
        try repo.write("Generated/Use.swift", "let use = 1\n")
        try repo.write("Generated/G/One.swift", "let one = 1\n")
        try repo.write("Elsewhere/X.txt", "let x = 1\n")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/L.swift", withDestinationPath: "../Generated/Use.swift")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/GL", withDestinationPath: "../Generated/G")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/App/T.swift", withDestinationPath: "../Elsewhere/X.txt")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "links"])
        try repo.write("Generated/Use.swift", "let use = UIWebView()\n")
        try repo.write("Generated/G/Two.swift", "let two = UIWebView()\n")
        try repo.write("Elsewhere/X.txt", "let x = UIWebView()\n")
        try repo.git(["add", "-A"])
        for arguments in everyCheck(of: ["Generated/Use.swift", "Generated/G/Two.swift", "Elsewhere/X.txt"]) {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 1, "\(arguments): \(result.stdout)\(result.stderr)")
            for use in ["App/L.swift:1:11", "App/GL/Two.swift:1:11", "App/T.swift:1:9"] {
                #expect(result.stdout.contains("\(use): error: new use"), "\(arguments): \(use): \(result.stdout)")
            }
        }
    }

    @Test func aLinkInsideAModuleIsTheModulesFile() throws {
        let repo = try serviceRepository()
        try repo.write("Shared/F.swift", "import Foundation\n")
        try repo.write("Shared/Net/N.swift", "import Foundation\n")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Sources/FeedService/F.swift", withDestinationPath: "../../Shared/F.swift")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Sources/FeedService/Net", withDestinationPath: "../../Shared/Net")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "shared"])
        try repo.write("Shared/F.swift", "import UIKit\n")
        try repo.write("Shared/Net/N2.swift", "import UIKit\n")
        try repo.git(["add", "-A"])
        for arguments in everyCheck(of: ["Shared/F.swift", "Shared/Net/N2.swift"]) {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 1, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("Sources/FeedService/F.swift:1:8: error: new violation"), "\(arguments): \(result.stdout)")
            #expect(result.stdout.contains("Sources/FeedService/Net/N2.swift:1:8: error: new violation"), "\(arguments): \(result.stdout)")
        }
    }

    @Test func aSubmoduleIsNamedAndEveryCheckAgrees() throws {
        let library = try Scratch()
        try library.git(["init", "-q"])
        try library.write("S.swift", "let s = UIWebView()\n")
        try library.git(["add", "-A"])
        try library.git(["commit", "-qm", "library"])
        let repo = try repository()
        try repo.git(["-c", "protocol.file.allow=always", "submodule", "add", "-q", library.path, "App/Vendor"])
        try repo.git(["commit", "-qm", "submodule"])
        for arguments in everyCheck(of: ["App/Vendor/S.swift"], since: "HEAD~1") {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(arguments.contains("--changed-since") || result.stdout.contains("a git submodule or a repository of its own"), "\(arguments): \(result.stdout)")
        }
    }

    @Test func aCheckoutFolderInsideASwiftPMTargetIsTheTargetsSource() throws {
        let repo = try serviceRepository()
        try repo.write("Sources/FeedService/Podfile", "\n")
        try repo.write("Sources/FeedService/Pods/Manifest.lock", "\n")
        try repo.write("Sources/FeedService/Pods/P.swift", "import UIKit\nlet p = UIWebView()\n")
        try expectEveryCheckFails(repo, files: ["Sources/FeedService/Pods/P.swift"], mentioning: "Sources/FeedService/Pods/P.swift:1:8: error: new violation")
    }

    @Test func backtickedNamesAndAliasesToTheQualifiedTypeAreUses() throws {
        let repo = try repository()
        try repo.write("App/Ticks.swift", "import UIKit\nlet x: `UIWebView`? = nil\nlet y = `UIKit`.`UIWebView`()\n")
        try repo.write("App/Alias.swift", "import UIKit\nstruct S {\n    typealias UIWebView = UIKit.UIWebView\n    var w: UIWebView?\n}\n")
        try expectEveryCheckFails(repo, files: ["App/Ticks.swift", "App/Alias.swift"], mentioning: "App/Alias.swift:3:33: error: new use")
        let result = try CLI.swiftmod(["check"], in: repo.path)
        for use in ["App/Ticks.swift:2:8", "App/Ticks.swift:3:17"] {
            #expect(result.stdout.contains("\(use): error: new use"), "\(use): \(result.stdout)")
        }
    }

    @Test func aChangedBaselineMakesAPartialCheckAFullOne() throws {
        let repo = try repository()
        try repo.git(["branch", "before"])
        try repo.write("App/Old.swift", "let old = 1\n")
        #expect(try CLI.swiftmod(["baseline", "--prune"], in: repo.path).status == 0)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "fixed, pruned"])
        try repo.write("App/Old.swift", "let old = UIWebView()\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "back again"])
        let result = try CLI.swiftmod(["check", "--changed-since", "before"], in: repo.path)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("note: .swiftmod-baseline.jsonl changed"), "\(result.stderr)")
    }

    @Test func aLinkBesideItsTargetGetsOneVerdictInEveryCheck() throws {
        let repo = try serviceRepository()
        try repo.write("Sources/FeedService/Feed.swift", "import UIKit\nvar w: UIWebView?\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "feed"])
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Sources/FeedService/AAA.swift", withDestinationPath: "Feed.swift")
        try repo.git(["add", "-A"])
        var outputs: [[String]] = []
        for arguments in everyCheck(of: ["Sources/FeedService/AAA.swift"]) {
            let result = try CLI.swiftmod(arguments, in: repo.path)
            #expect(result.status == 1, "\(arguments): \(result.stdout)\(result.stderr)")
            outputs.append(result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init))
        }
        // The file is judged once, at its own path; the link is its module's file too.
        #expect(outputs[0] == ["Sources/FeedService/AAA.swift:1:8: error: new violation of module rule 'module-type.Service' (P2): FeedService (Service) may not import UIKit"], "\(outputs[0])")
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0], "\(outputs)")
    }

    @Test func aBaselineRecordedAgainOnABranchIsSaid() throws {
        let repo = try repository()
        try repo.git(["branch", "main0"])
        try repo.write("App/New.swift", "let new = UIWebView()\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "accept the new use"])
        let result = try CLI.swiftmod(["check", "--changed-since", "main0"], in: repo.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("warning: the baseline gained 1 entry since main0 (webview: 1), first App/New.swift"), "\(result.stderr)")
        let strict = try CLI.swiftmod(["check", "--changed-since", "main0", "--strict"], in: repo.path)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("error: the baseline gained 1 entry"), "\(strict.stderr)")
    }

    @Test func pruningAFileThatDoesNotParseKeepsItsEntries() throws {
        let repo = try repository(config: "migrations:\n  - codemod: strong-iboutlet\n")
        let view = "import UIKit\n\nfinal class V: UIView {\n    @IBOutlet weak var a: UILabel!\n    @IBOutlet weak var b: UILabel!\n    @IBOutlet weak var c: UILabel!\n}\n"
        try repo.write("App/View.swift", view)
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "view"])
        try repo.write("App/View.swift", view.replacingOccurrences(of: "var a: UILabel!", with: "var a: UILabel! {"))
        let pruned = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(pruned.stdout.contains("Removed 0 fixed uses") && pruned.stdout.contains("kept the entries of 1 file that do not parse"), "\(pruned.stdout)")
        try repo.write("App/View.swift", view)
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aBaselineThatCannotJudgeABigFileSaysCheckWillFail() throws {
        let repo = try repository(config: Self.config + "max-file-size: 2KB\n")
        try repo.write("App/Big.swift", String(repeating: "// padding padding padding\n", count: 100) + "let late = UIWebView()\n")
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.stderr.contains("warning: App/Big.swift holds the text of a migration but is too large to be judged"), "\(recorded.stderr)")
    }
}
