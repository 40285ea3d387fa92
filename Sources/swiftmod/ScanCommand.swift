import ArgumentParser
import Lockdown
import Migrations

/// `swiftmod scan`: every use of every configured migration.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List every use of every migration configured in .swiftmod.yml.",
        discussion: """
        Uses allowed inline (`// swiftmod:allow ID -- reason`) are not listed; allow comments that \
        allow nothing are. Exits 0 (1 when a file cannot be read, 2 for a broken configuration).

        With --codemods DIR (a folder of codemods, or of ast-grep rules with its sgconfig.yml), \
        every codemod of the folder is a migration too; without a .swiftmod.yml, they are the \
        migrations, over the repository.

        Examples:
          swiftmod scan
          swiftmod scan Sources/Profile --migration webview --format json
          swiftmod scan --codemods lint/ast-grep

        Guide: docs/lockdown.md
        """
    )

    @OptionGroup var options: LockdownOptions

    @Option(name: .customLong("codemods"), help: ArgumentHelp("A folder of codemods (or ast-grep rules) whose every codemod is scanned for; repeatable.", valueName: "dir"),
            completion: .directory)
    var ruleFolders: [String] = []

    @Option(help: "Output format: text, json, sarif, github or xcode.")
    var format: ReportFormat = .text

    func run() throws {
        let (configuration, migrations, files, unreadable, notJudged, aliases, outletFiles) = try options.load(addingRulesOf: ruleFolders)
        let result = try options.scan(configuration, migrations, files, unreadable: unreadable, notJudged: notJudged, aliases: aliases, outletFiles: outletFiles)
        let report = Report(mode: .scan, findings: result.findings, migrations: migrations, root: configuration.root,
                            inlineAllowedCount: result.allowed, failures: result.failures, notJudged: result.notJudged)
        format.reporter.write(report) { print($0, terminator: "") }
        printError("swiftmod scan: \(report.summary(filesLookedAt: files.count - result.skipped.count))")
        if !result.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}

