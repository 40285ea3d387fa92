import Foundation
import ArgumentParser

/// The `swiftmod` command: finds deprecated Swift patterns, rewrites them, and keeps them out.
@main
struct Swiftmod: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "swiftmod",
        abstract: "A codemod engine for large Swift codebases.",
        discussion: """
        Find deprecated patterns, rewrite them safely in bulk, lock new uses out in CI, and track \
        what is left per module and team.

        Examples:
          swiftmod list                                  # the codemods
          swiftmod run strong-iboutlet Sources/Feature   # a dry run: a diff
          swiftmod parse Sources/App/AppDelegate.swift   # the tree to match
          swiftmod check                                 # CI: no new uses
          swiftmod report --format html --output progress.html

        Guides: README.md (a five-minute tour), then one page per job:
          docs/running-migrations.md   docs/writing-codemods.md   docs/patterns.md
          docs/codemods.md             docs/lockdown.md           docs/tracker.md
          docs/interface-builder.md    docs/module-rules.md       docs/editor.md
          docs/configuration.md        docs/performance.md        docs/architecture.md
        """,
        version: version,
        subcommands: [
            ListCommand.self, ParseCommand.self, RunCommand.self, TestCommand.self,
            ScanCommand.self, BaselineCommand.self, CheckCommand.self, ReportCommand.self, ModulesCommand.self, OutletsCommand.self, LSPCommand.self, InitCommand.self,
        ]
    )

    /// Runs the command line, reporting `CommandFailure` as `error: ...` with its exit code.
    static func main() {
        do {
            if let argument = DashedPaths.misread(in: Array(CommandLine.arguments.dropFirst())) {
                throw CommandFailure(message: DashedPaths.message(for: argument), exitCode: ExitStatus.usage)
            }
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            printError("error: \(failure.message)")
            Foundation.exit(failure.exitCode)
        } catch {
            // Argument mistakes exit with 2, like every other usage error of swiftmod.
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}
