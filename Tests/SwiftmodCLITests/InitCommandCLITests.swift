import Foundation
import Testing

/// `swiftmod init`: a starter `.swiftmod.yml` that every command reads, written at the repository's
/// root, never over an existing one (issue 15, part 2).
@Suite struct InitCommandCLITests {
    @Test func writesAStarterConfigurationOnceAtTheRoot() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".github/CODEOWNERS", "Packages/Feed/ @acme/feed\n")
        try repo.write("Packages/Feed/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Feed\", targets: [.target(name: \"FeedUI\")])\n")
        try repo.write("Packages/Feed/Sources/FeedUI/FeedView.swift", "import UIKit\n\nfinal class FeedView: UIView {\n    @IBOutlet weak var title: UILabel!\n}\n")
        // From a subfolder: written at the git root.
        let written = try CLI.swiftmod(["init"], in: repo.url("Packages/Feed").path)
        #expect(written.status == 0, "\(written.stderr)")
        let text = try repo.text(".swiftmod.yml")
        #expect(text.contains("  - codemod: strong-iboutlet\n") && text.contains("  - codemod: backtick-self\n"))
        #expect(text.contains("  #   codemod: swap-type\n"), "a codemod that needs parameters is a commented example")
        #expect(text.contains("# Modules found (1): FeedUI (Packages/Feed/Sources/FeedUI)."))
        #expect(text.contains("# CODEOWNERS: .github/CODEOWNERS (1 rule): reports count uses per team."))
        // Every command reads it: the outlet is a use.
        let scan = try CLI.swiftmod(["scan"], in: repo.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("Packages/Feed/Sources/FeedUI/FeedView.swift:4:"), "\(scan.stdout)")
        // Never over an existing one.
        try repo.write(".swiftmod.yml", "migrations: []\n")
        let again = try CLI.swiftmod(["init"], in: repo.path)
        #expect(again.status == 2)
        #expect(again.stderr.contains(".swiftmod.yml exists already; it was left as it is"), "\(again.stderr)")
        #expect(try repo.text(".swiftmod.yml") == "migrations: []\n")
    }

    /// A folder name from the disk cannot write YAML of its own (found by a hostile review).
    @Test func oddFolderNamesStayInsideTheirComment() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write("Z\ninclude: [\"none/**\"]\n#/Odd.xcodeproj/project.pbxproj", "// project\n")
        try repo.write("App/View.swift", "import UIKit\n\nfinal class V: UIView {\n    @IBOutlet weak var title: UILabel!\n}\n")
        #expect(try CLI.swiftmod(["init"], in: repo.path).status == 0)
        let text = try repo.text(".swiftmod.yml")
        #expect(!text.contains("\ninclude:"), "\(text)")
        let scan = try CLI.swiftmod(["scan"], in: repo.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("App/View.swift:4:"), "the configuration still covers every file: \(scan.stdout)")
    }
}
