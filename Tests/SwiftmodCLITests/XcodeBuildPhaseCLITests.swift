import Foundation
import Testing

/// The Xcode "Run Script" build phase of `docs/editor.md` (`Examples/Xcode/swiftmod-build-phase.sh`),
/// run as Xcode runs it: `sh` with `SRCROOT` (the folder of the `.xcodeproj`) and `TARGET_NAME`
/// set, a short PATH, its output read for `path:line:column: error:` lines (issue 15, part 2).
@Suite struct XcodeBuildPhaseCLITests {
    static let script = CLI.packageRoot + "/Examples/Xcode/swiftmod-build-phase.sh"

    /// The sample app, baselined, with swiftmod in a folder of its own (for PATH).
    func sampleApp() throws -> (Scratch, String) {
        let repo = try Scratch()
        try repo.copy("Examples/SampleApp")
        try repo.git(["init", "-q"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let bin = try repo.folderWithSwiftmod()
        return (repo, bin)
    }

    func buildPhase(_ repo: Scratch, path: String, target: String = "SampleApp", extra: [String: String] = [:]) throws -> CLI.Result {
        // As Xcode: the phase's shell, in the project's folder, with its build settings in the environment.
        try CLI.run("/usr/bin/env", ["-i", "HOME=\(repo.path)", "PATH=\(path)", "SRCROOT=\(repo.url("App").path)", "TARGET_NAME=\(target)"]
                    + extra.map { "\($0)=\($1)" } + ["/bin/sh", Self.script], in: repo.url("App").path)
    }

    @Test func newUsesAreErrorsAtTheirLinesAndFailTheBuild() throws {
        let (repo, bin) = try sampleApp()
        // Clean: the baselined uses stay quiet, and the build goes on.
        let clean = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)")
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("error:"), "\(clean.stdout)")

        let file = "App/Sources/HelpViewController.swift"
        let lines = try repo.text(file).components(separatedBy: "\n").count
        try repo.write(file, try repo.text(file) + "let extra = UIWebView()\n")
        let failed = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)")
        #expect(failed.status == 1, "a new use fails the build")
        let errors = failed.stdout.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(failed.stdout)")
        #expect(errors.first?.hasPrefix("\(repo.url(file).path):\(lines):13: error: new use of deprecated pattern 'webview'") == true,
                "Xcode needs an absolute path, the line and the column: \(errors)")

        // A target whose folder exists is checked alone: another target's new use is not its business.
        try FileManager.default.createDirectory(atPath: repo.url("App/Widget").path, withIntermediateDirectories: true)
        try repo.write("App/Widget/Widget.swift", "import UIKit\n\nstruct Widget {}\n")
        let widget = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)", target: "Widget")
        #expect(widget.status == 0, "\(widget.stdout)\(widget.stderr)")
        // SWIFTMOD_PATH (a build setting) chooses the files.
        let chosen = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)", target: "Widget", extra: ["SWIFTMOD_PATH": repo.url(file).path])
        #expect(chosen.status == 1, "\(chosen.stdout)\(chosen.stderr)")
        // A SWIFTMOD_PATH that names nothing (a typo) is an error, not the whole project quietly.
        let typo = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)", extra: ["SWIFTMOD_PATH": repo.url("App/Nope").path])
        #expect(typo.status == 1 && typo.stdout.hasPrefix("error: SWIFTMOD_PATH is "), "\(typo.stdout)")
    }

    @Test func aMissingSwiftmodIsAWarningAndABrokenConfigurationAnError() throws {
        let (repo, bin) = try sampleApp()
        let missing = try buildPhase(repo, path: "/usr/bin:/bin")
        #expect(missing.status == 0)
        #expect(missing.stdout == "warning: swiftmod is not installed, so deprecated patterns are not checked\n")

        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: no-such-codemod\n")
        let broken = try buildPhase(repo, path: "/usr/bin:/bin:\(bin)")
        #expect(broken.status == 2)
        #expect(broken.stderr.hasPrefix("error: "), "Xcode shows lines that start with error: \(broken.stderr)")
    }

    @Test func theEditorPageShowsTheScriptAsItIs() throws {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/docs/editor.md", encoding: .utf8)
        #expect(readme.contains("```sh\n" + (try String(contentsOfFile: Self.script, encoding: .utf8)) + "```"))
    }
}

/// The pre-commit hook (`.pre-commit-hooks.yaml`), run as pre-commit runs it: its entry with the
/// staged Swift files after it.
@Suite struct PreCommitHookCLITests {
    @Test func aStagedFileNamedLikeAnOptionIsChecked() throws {
        let hooks = try String(contentsOfFile: CLI.packageRoot + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let entry = try #require(hooks.components(separatedBy: "\n").first { $0.hasPrefix("  entry: ") })
            .replacingOccurrences(of: "  entry: ", with: "").components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces)
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        try repo.write("-Login.swift", "import UIKit\n\nfinal class Login {\n    @IBOutlet weak var name: UILabel!\n}\n")
        let bin = try repo.folderWithSwiftmod()
        let run = try CLI.run("/bin/sh", ["-c", "\(entry) \"$@\"", "hook", "-Login.swift"], in: repo.path,
                              environment: ["PATH": "\(bin):/usr/bin:/bin"])
        #expect(run.status == 1, "the new use is found, not a usage error: \(run.stderr)")
        #expect(run.stdout.contains("-Login.swift:4:"), "\(run.stdout)")
    }

    /// The hook runs for every staged path that can change a verdict, links to Swift files too
    /// (pre-commit's `types: [swift]` tags a link only as a symlink).
    @Test func theHookRunsForLinksProjectsConfigurationAndBaseline() throws {
        let hooks = try String(contentsOfFile: CLI.packageRoot + "/.pre-commit-hooks.yaml", encoding: .utf8)
        #expect(!hooks.components(separatedBy: "\n").contains { $0.hasPrefix("  types:") })
        let line = try #require(hooks.components(separatedBy: "\n").first { $0.hasPrefix("  files: ") })
        let pattern = String(line.dropFirst("  files: '".count).dropLast())
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ path: String) -> Bool {
            regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        }
        for path in ["Sources/Feed/Link.swift", "App/App.xcodeproj/project.pbxproj", ".swiftmod.yml", "Sub/.swiftmod.yml", ".swiftmod-baseline.jsonl"] {
            #expect(matches(path), "\(path)")
        }
        for path in ["README.md", "App/Info.plist", "my.swiftmod.yml.bak"] {
            #expect(!matches(path), "\(path)")
        }
    }
}
