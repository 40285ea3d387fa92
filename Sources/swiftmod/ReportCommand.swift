import ArgumentParser
import CodemodKit
import Foundation
import Lockdown
import Migrations
import Tracker
import Workspace

/// `swiftmod report`: how much is left of each migration, per module and team, over time.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report migration progress per module and team, with history and projections.",
        discussion: """
        Counts the uses of every migration in .swiftmod.yml, per module (SwiftPM targets of any \
        Package.swift, folders with an .xcodeproj, or `modules:` globs in .swiftmod.yml) and per \
        owner (CODEOWNERS in .github/, the root or docs/). With --record, today's counts are stored \
        in an SQLite history (one record per commit), from which the report draws each migration's \
        trend, its projected completion date against the deadline, and the teams that are behind.

        Each team (a CODEOWNERS owner) is judged against the day it committed to (`commitments:` \
        of a migration), else the deadline: done, on track, behind, or overdue.

        Examples:
          swiftmod report
          swiftmod report --record                              # in a daily CI job
          swiftmod report --record --date 2026-01-15 --commit SHA   # SHA checked out
          swiftmod report --format html --output progress.html  # one page
          swiftmod report --format markdown --since 2026-11-01  # for a pull request
          swiftmod report --team @acme/payments --uses          # a team's uses

        Guide: docs/tracker.md
        """
    )

    @OptionGroup var options: LockdownOptions

    @Option(help: "Output format: text, json, csv, html or markdown.")
    var format: ProgressFormat = .text

    @Flag(help: "List the remaining uses (file, line, code) per team and module.")
    var uses = false

    @Option(help: ArgumentHelp("Report one team only (an owner as CODEOWNERS names it).", valueName: "owner"))
    var team: String?

    @Option(help: ArgumentHelp("Show the change since this day (default: since the previous record).", valueName: "YYYY-MM-DD"))
    var since: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the report to a file instead of stdout.", valueName: "file"), completion: .file())
    var output: String?

    @Flag(help: "Store today's counts in the history (replacing an earlier record of the same commit).")
    var record = false

    @Option(help: ArgumentHelp("The history database (default: .swiftmod/history.sqlite at the repository root).", valueName: "path"),
            completion: .file())
    var history: String?

    @Option(help: ArgumentHelp("The day the counts are for (default: today, UTC).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(help: ArgumentHelp("The commit the counts are for: a ref or SHA, resolved by git (default: HEAD); outside git, a SHA of 7 to 40 hex digits. With --record and --date, fills the history from the past (docs/tracker.md).", valueName: "ref"))
    var commit: String?

    func validate() throws {
        if let date, Deadline.date(date) == nil { throw ValidationError("--date takes a day like 2026-11-22") }
        if let since, Deadline.date(since) == nil { throw ValidationError("--since takes a day like 2026-11-01") }
        if record, team != nil { throw ValidationError("--record stores counts of every team; leave out --team") }
        if record, options.isPartial || !options.only.isEmpty {
            throw ValidationError("--record stores counts of the whole repository; leave out paths, --module and --migration")
        }
    }

    func run() throws {
        let (configuration, migrations, files, unreadable, notJudged, aliases, outletFiles) = try options.load()
        let commit = try commitCounted(root: configuration.root)
        let result = try options.scan(configuration, migrations, files, unreadable: unreadable, notJudged: notJudged, aliases: aliases, outletFiles: outletFiles)
        for item in result.notJudged { printError("note: \(SafeText.oneLine(item.description))") }
        let root = configuration.root
        var builder = ProgressBuilder(moduleMap: ModuleMap.discover(root: root, configuration: configuration),
                                      owners: CodeOwners.load(root: root), today: date ?? DateText.today)
        builder.since = since
        // A part of the repository: its own history (a module's counts are recorded), or none.
        if !options.paths.isEmpty {
            builder.ignoresHistory = true
        } else if let selection = try options.moduleSelection(configuration) {
            builder.modules = Set(selection.names)
        }
        if uses {
            builder.repositoryURL = configuration.repositoryURL
            let lines = SourceLines(root: root)
            builder.sourceLine = { file, line in lines.line(line, of: file) }
        }
        let historyPath = history.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            ?? (root as NSString).appendingPathComponent(".swiftmod/history.sqlite")
        var snapshots: [Snapshot] = []
        var replaced = false
        do {
            if record || FileManager.default.fileExists(atPath: historyPath) {
                let store = try HistoryStore(path: historyPath, access: record ? .write : .read)
                if record {
                    replaced = try store.record(builder.snapshot(uses: result.uses, migrations: migrations, commit: commit))
                }
                snapshots = try store.snapshots()
            }
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        // A commitment for a team CODEOWNERS and the history do not know is most likely a typo.
        let owners = builder.teams(uses: result.uses, history: snapshots, migrations: [])
        for migration in migrations {
            for name in migration.settings.commitments.keys.sorted() where !owners.contains(where: { CodeOwners.isSameOwner($0, name) }) {
                printError("warning: \(migration.id): a commitment for '\(SafeText.oneLine(name))', which owns no use now or in the history (CODEOWNERS names the teams)")
            }
        }
        // Records dated after today (recorded with a future --date, say) are not shown until
        // then: said, never dropped silently. (A report as of an earlier --date leaves later
        // records out on purpose.)
        let later = date == nil ? snapshots.filter { $0.date > builder.today } : []
        if let first = later.first {
            printError("note: \(later.count == 1 ? "1 record is" : "\(later.count) records are") dated after \(builder.today) (\(first.date)\(later.count > 1 ? ", …" : "")) and not shown; `report --date DAY` reports as of a later day")
        }
        if let since, !snapshots.contains(where: { $0.date <= since }) {
            printError("note: no record on or before \(since) (--since): no change is shown")
        }
        if var team {
            let known = owners.union(migrations.flatMap(\.settings.commitments.keys))
            // Owners are matched in any case, as GitHub does, and named as CODEOWNERS spells them.
            team = builder.owners.spelling(of: team)
            if !known.contains(team), let match = known.first(where: { CodeOwners.isSameOwner($0, team) }) { team = match }
            guard known.contains(team) else {
                let names = known.sorted().map { "  \(SafeText.oneLine($0))" }.joined(separator: "\n")
                throw CommandFailure(message: "no team '\(SafeText.oneLine(team))' in CODEOWNERS, the history or the commitments"
                                     + (known.isEmpty ? " (there are none)" : "; the teams are:\n\(names)"), exitCode: ExitStatus.usage)
            }
            builder.team = team
        }
        var report = builder.report(uses: result.uses, migrations: migrations, history: snapshots, commit: commit)
        if !configuration.moduleTypes.isEmpty || configuration.migrations.contains(where: { $0.rule == .cycles }) {
            let graph = result.moduleGraph ?? ModuleGraph.discover(root: root, configuration: configuration, files: files, jobs: options.jobs)
            report.modules = ModuleOverview(graph: graph, configuration: configuration, uses: result.uses)
        }
        let text = format.render(report)
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandFailure(message: "\(output): cannot write the report: \(error.localizedDescription)", exitCode: ExitStatus.failure)
            }
            let left = report.migrations.reduce(0) { $0 + $1.total }, count = report.migrations.count
            // The file says it too; the log of the job that wrote it must.
            for migration in report.migrations {
                if let missing = migration.missingHistory { printError("warning: \(SafeText.oneLine(migration.id)): \(missing.message)") }
            }
            printError("swiftmod report: wrote \(output) (\(left) use\(left == 1 ? "" : "s") left in \(count) migration\(count == 1 ? "" : "s"))")
        } else {
            print(text, terminator: "")
        }
        if record {
            let what = replaced ? "replaced the record of" : "recorded"
            printError("swiftmod report: \(what) \(builder.today)\(commit.map { " at \($0.prefix(10))" } ?? "") in \(historyPath)")
            if let commit, hasUncommittedChanges(root: root, configuration: configuration.path) {
                printError("note: the working tree has uncommitted changes; they were counted under commit \(commit.prefix(10))")
            }
        }
        if !result.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}

extension ReportCommand {
    /// The commit the counts are recorded (and reported) under: `--commit` resolved by git to a
    /// full SHA (a ref that names no commit is an error), outside git a hex SHA as given (in lower
    /// case); without `--commit`, the checked-out commit, or none outside git.
    func commitCounted(root: String) throws -> String? {
        guard let commit else { return Git.head(in: root) }
        if Git.topLevel(of: root) != nil {
            guard let full = Git.commit(named: commit, in: root) else {
                throw CommandFailure(message: "--commit \(SafeText.oneLine(commit)): no such commit in the git repository at \(root)",
                                     exitCode: ExitStatus.usage)
            }
            if let head = Git.head(in: root), head != full {
                printError("note: the files checked out at \(head.prefix(10)) are counted, under commit \(full.prefix(10)); to count another commit, check it out first (docs/tracker.md)")
            }
            return full
        }
        guard commit.range(of: "^[0-9a-fA-F]{7,40}$", options: .regularExpression) != nil else {
            throw CommandFailure(message: "--commit \(SafeText.oneLine(commit)): outside a git repository, --commit takes a commit SHA (7 to 40 hex digits)",
                                 exitCode: ExitStatus.usage)
        }
        return commit.lowercased()
    }

    /// Whether tracked files other than the configuration differ from the commit (a replay copies
    /// today's configuration into each commit's checkout; that is not counted code).
    func hasUncommittedChanges(root: String, configuration: String) -> Bool {
        let relative = RepositoryPath.relative(configuration, root: root) ?? (configuration as NSString).lastPathComponent
        let status = Git.run(["status", "--porcelain", "--untracked-files=no", "--", ":(exclude,literal)\(relative)"], in: root)
        return status.map { !$0.isEmpty } == true
    }
}

extension ProgressFormat: ExpressibleByArgument {}

/// The lines of the files a report lists uses in, read once each.
final class SourceLines {
    private let root: String
    private var files: [String: [ArraySlice<UInt8>]] = [:]

    init(root: String) { self.root = root }

    /// A 1-based line of a repo-relative file, without its line ending (nil if unreadable).
    func line(_ number: Int, of file: String) -> String? {
        if files[file] == nil {
            let bytes = (try? SourceFileReader().bytes(ofFile: (root as NSString).appendingPathComponent(file))) ?? []
            // Split on bytes: in a Swift string, CRLF is one character.
            files[file] = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        }
        guard let lines = files[file], number >= 1, number <= lines.count else { return nil }
        var line = lines[number - 1]
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
