import Foundation
import Testing

/// `--module NAME`: a developer dry-runs a codemod, scans or checks "their" module by name, without
/// knowing its paths (issue 15, part 4).
@Suite struct ModuleOptionCLITests {
    static let outlet = "import UIKit\n\nfinal class ProfileViewController: UIViewController {\n    @IBOutlet weak var name: UILabel!\n}\n"

    /// A package whose `ProfileUI` target has a nested target of its own, an Xcode app folder and
    /// a `modules:` entry, each with an outlet to make strong.
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nmodules:\n  Tooling: [\"Scripts/**\"]\n")
        try repo.write("Packages/Profile/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Profile", targets: [
            .target(name: "ProfileUI"),
            .target(name: "ProfileWidgets", path: "Sources/ProfileUI/Widgets"),
            .target(name: "ProfileCore"),
        ])

        """)
        try repo.write("Packages/Profile/Sources/ProfileUI/ProfileViewController.swift", Self.outlet)
        try repo.write("Packages/Profile/Sources/ProfileUI/Widgets/Badge.swift", Self.outlet.replacingOccurrences(of: "ProfileViewController", with: "Badge"))
        try repo.write("Packages/Profile/Sources/ProfileCore/Model.swift", "struct Model {}\n")
        try repo.write("App/App.xcodeproj/project.pbxproj", "// project\n")
        try repo.write("App/Sources/Root.swift", Self.outlet.replacingOccurrences(of: "ProfileViewController", with: "Root"))
        try repo.write("Scripts/Preview.swift", Self.outlet.replacingOccurrences(of: "ProfileViewController", with: "Preview"))
        return repo
    }

    /// The files a diff touches, in order.
    func changedFiles(_ diff: String) -> [String] {
        diff.components(separatedBy: "\n").filter { $0.hasPrefix("+++ b/") }.map { String($0.dropFirst(6)) }
    }

    @Test func runDryRunsOneModuleByName() throws {
        let repo = try repository()
        // The README's first dry run: a target's files only, not the nested target's.
        let profile = try CLI.swiftmod(["run", "strong-iboutlet", "--module", "ProfileUI"], in: repo.path)
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(changedFiles(profile.stdout) == ["Packages/Profile/Sources/ProfileUI/ProfileViewController.swift"])
        #expect(profile.stderr.contains("1 file scanned"), "\(profile.stderr)")
        // Repeatable, from a subfolder, an Xcode folder and a `modules:` entry.
        let more = try CLI.swiftmod(["run", "strong-iboutlet", "--module", "App", "--module", "Tooling", "--module", "ProfileWidgets"],
                                    in: repo.url("Packages").path)
        #expect(more.status == 0, "\(more.stderr)")
        // Named from the folder it ran in (a `modules:` entry's globs may match anywhere: the walk
        // starts at the root, `..` here).
        #expect(changedFiles(more.stdout).sorted() == ["../App/Sources/Root.swift", "../Packages/Profile/Sources/ProfileUI/Widgets/Badge.swift", "../Scripts/Preview.swift"],
                "\(more.stdout)")
        // Nothing is written by a dry run.
        #expect(try repo.text("Packages/Profile/Sources/ProfileUI/ProfileViewController.swift") == Self.outlet)
    }

    @Test func anUnknownModuleListsTheClosestNames() throws {
        let repo = try repository()
        for command in [["run", "strong-iboutlet"], ["scan"], ["check"], ["report"], ["baseline"]] {
            let result = try CLI.swiftmod(command + ["--module", "Profile"], in: repo.path)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("no module 'Profile' (known: ProfileCore, ProfileUI, ProfileWidgets, App, Tooling)"), "\(command): \(result.stderr)")
        }
    }

    @Test func scanCheckBaselineAndReportTakeAModule() throws {
        let repo = try repository()
        let scan = try CLI.swiftmod(["scan", "--module", "ProfileUI", "--format", "json"], in: repo.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        struct Output: Decodable { var findings: [Item]; struct Item: Decodable { var file: String } }
        #expect(try JSONDecoder().decode(Output.self, from: scan.stdoutBytes).findings.map(\.file)
                == ["Packages/Profile/Sources/ProfileUI/ProfileViewController.swift"])

        // A baseline of one module leaves the others out; a check of that module then passes,
        // and a full check fails on the others.
        let baseline = try CLI.swiftmod(["baseline", "--module", "ProfileUI"], in: repo.path)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(try repo.text(".swiftmod-baseline.jsonl").components(separatedBy: "\n").filter { $0.contains("\"file\"") }.count == 1)
        #expect(try CLI.swiftmod(["check", "--module", "ProfileUI"], in: repo.path).status == 0)
        let full = try CLI.swiftmod(["check"], in: repo.path)
        #expect(full.status == 1)
        #expect(full.stderr.contains("3 new uses"), "\(full.stderr)")

        let report = try CLI.swiftmod(["report", "--module", "App", "--format", "json"], in: repo.path)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("\"name\" : \"App\""), "\(report.stdout)")
        #expect(!report.stdout.contains("\"name\" : \"ProfileUI\""), "\(report.stdout)")
        let record = try CLI.swiftmod(["report", "--record", "--module", "App"], in: repo.path)
        #expect(record.status == 2)
        #expect(record.stderr.contains("leave out paths, --module and --migration"), "\(record.stderr)")
    }
}
