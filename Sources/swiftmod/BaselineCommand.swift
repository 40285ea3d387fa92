import ArgumentParser
import CodemodKit
import Foundation
import Lockdown
import Migrations
import Workspace

/// `swiftmod baseline`: records today's uses as the allowlist.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record today's uses in the baseline (the allowlist that `check` compares with).",
        discussion: """
        Writes the baseline file named in .swiftmod.yml (default .swiftmod-baseline.jsonl): a \
        header line, then one use per line, sorted, paths relative to the repository root, no line \
        numbers or dates. With PATHs (or --migration), only those files (and migrations) are \
        recorded again and the rest of the baseline is kept. With --prune, uses that are gone are \
        removed, moved files' entries follow them, and nothing is added (the ratchet: a fixed use \
        cannot come back). The baseline is updated under a lock (FILE.lock beside it): a run that \
        cannot take it within SWIFTMOD_LOCK_TIMEOUT seconds (default 30) fails with exit 1.

        Examples:
          swiftmod baseline
          swiftmod baseline --prune
          swiftmod baseline Sources/Feed      # re-record one folder

        Guide: docs/lockdown.md
        """
    )

    @OptionGroup var options: LockdownOptions

    @Flag(help: "Only remove entries whose uses are gone (and move entries of moved files); never add any.")
    var prune = false

    func run() throws {
        let (configuration, migrations, files, unreadable, notJudged, aliases, outletFiles) = try options.load()
        // Pruning compares the module rules' entries with all their findings, wherever they are:
        // a partial prune must see them all (or it would call other files' entries fixed); a
        // partial re-record needs them to keep the entry of a dependency on a cycle now written
        // outside its paths.
        let result = try options.scan(configuration, migrations, files, unreadable: unreadable, notJudged: notJudged, aliases: aliases, outletFiles: outletFiles,
                                      completeModuleRules: prune || options.isPartial)
        for item in result.notJudged { printError("note: \(SafeText.oneLine(item.description))") }
        guard result.failures.isEmpty else {
            throw CommandFailure(message: "the baseline was not written, because some files could not be read", exitCode: ExitStatus.failure)
        }
        let path = configuration.baselinePath
        // The baseline belongs to the repository: never written outside it (through a link, or
        // a `baseline:` that climbs out).
        if let outside = WriteBoundary(repository: configuration.root).outsideDestination(of: path) {
            throw CommandFailure(message: "\(path): the baseline would be written outside the repository (\(outside)); keep it inside, and not behind a link that leads out",
                                 exitCode: ExitStatus.usage)
        }
        let history = GitFileHistory(root: configuration.root, baselinePath: path)
        let roots = try options.roots(configuration, files: files)
        let mode: BaselineUpdate.Mode = prune ? .prune(paths: roots, someMigrationsOnly: !options.only.isEmpty)
            : (options.isPartial || !options.only.isEmpty) ? .rerecord(paths: roots) : .record
        let display = RepositoryPath.relative(path, root: configuration.root) ?? path
        var summary = ""
        var written: Baseline?
        let existing: Baseline?
        do {
            existing = try Baseline.update(at: path, requireExisting: prune) { existing in
                let update = BaselineUpdate(mode: mode, scan: result, existing: existing, scanned: Set(migrations.map(\.id)),
                                            configured: Set(configuration.migrations.map(\.id)), display: display,
                                            fileExists: { FileManager.default.fileExists(atPath: RepositoryPath.absolute($0, root: configuration.root)) },
                                            history: history)
                summary = update.summary
                written = update.baseline
                return update.baseline
            }
        } catch let error as Baseline.UpdateError {
            if case .unreadable = error { throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage) }
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.failure)
        }
        print(summary)
        if let written {
            // A file too large to parse records none of its uses: `check` would fail on it at once.
            var report = Report(mode: .check, findings: [], migrations: migrations, root: configuration.root,
                                notJudged: result.notJudged.filter { $0.reason == .tooLarge })
            report.judgeTooLargeFiles(against: written)
            for item in report.notJudged where item.blocks {
                printError("warning: \(SafeText.oneLine(item.path)) holds the text of a migration but is too large to be judged, so none of its uses are recorded and `swiftmod check` will fail on it: raise max-file-size (in \(Configuration.fileName) or --max-file-size) and record again, or exclude the file")
            }
        }
        if existing == nil {
            print("Tip: commit \(display), and add `\(display) merge=union` to .gitattributes so branches merge it without conflicts.")
        }
    }
}
