import Foundation
import Testing

/// The SwiftPM command plugin: `swift package swiftmod …` in a package that depends on swiftmod
/// runs it in the package's folder (issue 15, part 2). The sample package builds swiftmod for the
/// plugin from this repository's sources, once.
@Suite struct PackagePluginCLITests {
    @Test func swiftPackageSwiftmodLocksDownAPackage() throws {
        let sample = try Scratch()
        try sample.write("Package.swift", """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "Sample",
            dependencies: [.package(path: "\(CLI.packageRoot)")],
            targets: [.target(name: "FeedUI")]
        )

        """)
        try sample.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        let view = "import UIKit\n\nfinal class FeedView: UIView {\n    @IBOutlet weak var title: UILabel!\n}\n"
        try sample.write("Sources/FeedUI/FeedView.swift", view)
        func swiftPackage(_ arguments: [String]) throws -> CLI.Result {
            try CLI.run("swift", ["package", "--allow-writing-to-package-directory", "swiftmod"] + arguments, in: sample.path)
        }
        // Writing needs the permission the plugin declares (given on the command line here).
        let baseline = try swiftPackage(["baseline"])
        #expect(baseline.status == 0, "\(baseline.stdout)\(baseline.stderr)")
        #expect(try sample.text(".swiftmod-baseline.jsonl").contains("\"file\":\"Sources/FeedUI/FeedView.swift\""))
        #expect(try swiftPackage(["check"]).status == 0)
        // A new use fails the check, with swiftmod's own message.
        try sample.write("Sources/FeedUI/FeedView.swift", view.replacingOccurrences(of: "}\n", with: "    @IBOutlet weak var image: UIImageView!\n}\n"))
        let check = try swiftPackage(["check", "--module", "FeedUI"])
        #expect(check.status != 0)
        #expect((check.stdout + check.stderr).contains("Sources/FeedUI/FeedView.swift:5:15: error: new use of deprecated pattern 'strong-iboutlet'"),
                "\(check.stdout)\(check.stderr)")
    }
}
