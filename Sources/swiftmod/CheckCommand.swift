import ArgumentParser
import CodemodKit
import Foundation
import Lockdown
import Migrations
import Workspace

/// `swiftmod check`: fails on uses that the baseline does not allow.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail when there are uses of a migration's pattern that the baseline does not allow.",
        discussion: """
        Compares today's uses with the baseline and reports only new ones, each with why the \
        pattern is deprecated, what replaces it, the docs, the contact, and whether `swiftmod run` \
        can fix it. A file has new uses only when it holds more uses of a migration with the same \
        text than the baseline recorded for it (following renamed and moved files), so moved lines, \
        renamed types and methods and extracted code report nothing. When uses were fixed, it says \
        the baseline can shrink (`--strict` makes that a failure).

        Exit codes: 0 no new uses, 1 new uses (or, with --strict, a baseline that can shrink), \
        2 errors (configuration, a missing or corrupt baseline).

        Examples:
          swiftmod check
          swiftmod check --format github        # annotations on the pull request
          swiftmod check --strict --format sarif > swiftmod.sarif

        Guide: docs/lockdown.md
        """
    )

    @OptionGroup var options: LockdownOptions

    @Option(help: "Output format: text, json, sarif, github or xcode.")
    var format: ReportFormat = .text

    @Flag(help: "Fail when the baseline can shrink (fixed uses must be pruned, so they cannot come back).")
    var strict = false

    @Option(help: ArgumentHelp("Only check files changed since a git revision (committed or not, renamed, new): for pull requests.", valueName: "ref"))
    var changedSince: String?

    func run() throws {
        // A change to what judges every file (the configuration, the baseline, a codemod
        // definition) makes a partial check a full one: a new migration or parameter, or a lost
        // baseline entry, can make old code a new use.
        var options = self.options
        var changedSince = self.changedSince
        if options.isPartial || changedSince != nil, let changed = try rulesChanged(options) {
            printError("note: \(SafeText.oneLine(changed)) changed, which can change the verdict on every file: checking the whole repository")
            options.paths = []
            options.modules = []
            changedSince = nil
        }
        let (configuration, migrations, files, unreadable, notJudged, aliases, outletFiles) = try options.load(changedSince: changedSince)
        let baseline: Baseline
        do {
            baseline = try Baseline.load(configuration.baselinePath)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let result = try options.scan(configuration, migrations, files, unreadable: unreadable, notJudged: notJudged, aliases: aliases, outletFiles: outletFiles,
                                     wholeRepository: !options.isPartial && changedSince == nil, completeModuleRules: true,
                                     leavingOutUntracked: true)
        let ids = Set(migrations.map(\.id))
        // A skipped file (too big) is not looked at: its entries are neither matched nor fixed.
        let skipped = Set(result.skipped.map(\.file))
        let relevant = Baseline(entries: baseline.entries.filter { ids.contains($0.migration) && !skipped.contains($0.file) })
        let root = configuration.root
        let history = GitFileHistory(root: root, baselinePath: configuration.baselinePath)
        let comparison = Comparison(uses: result.uses, baseline: relevant,
                                    // Files or folders that could not be read make a full check partial: their
                                    // entries are neither matched nor called fixed.
                                    scannedFiles: !options.isPartial && changedSince == nil && result.failures.isEmpty
                                        ? nil : Set(result.files).subtracting(result.failures.map(\.file)),
                                    fileExists: { FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent($0)) },
                                    history: history, complete: result.complete, repositoryWide: result.repositoryWide)
        let problems = result.findings.filter { $0.kind != .use }
        var report = Report(mode: .check, findings: (comparison.newUses + problems).sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) },
                            migrations: migrations, root: configuration.root, allowedCount: comparison.allowed.count,
                            fixedCount: comparison.fixed.count, inlineAllowedCount: result.allowed, failures: result.failures,
                            notJudged: result.notJudged)
        report.judgeTooLargeFiles(against: baseline)
        format.reporter.write(report) { print($0, terminator: "") }
        printError("swiftmod check: \(report.summary(filesLookedAt: files.count - result.skipped.count))")
        let configured = Set(configuration.migrations.map(\.id))
        let orphaned = baseline.entries.filter { !configured.contains($0.migration) }
        if !orphaned.isEmpty {
            let names = Set(orphaned.map(\.migration)).sorted().joined(separator: ", ")
            printError("note: the baseline has \(orphaned.count) entr\(orphaned.count == 1 ? "y" : "ies") of migrations no longer in \(Configuration.fileName) (\(names)); `swiftmod baseline --prune` removes them")
        }
        if let first = comparison.renamesJudgedByUses.first {
            let count = comparison.renamesJudgedByUses.count
            let files = "\(count) file\(count == 1 ? "" : "s") of the baseline (\(SafeText.oneLine(first))\(count > 1 ? ", …" : ""))"
            let why = !history.isRepository ? "this folder is not in a git repository"
                : history.isShallow ? "this is a shallow clone, without the commit that removed \(count == 1 ? "it" : "them")"
                : "git's history does not say where \(count == 1 ? "it" : "they") went"
            let fix = !history.isRepository ? "" : history.isShallow ? "; fetch the history (`git fetch --unshallow`, or `fetch-depth: 0` in CI) for exact answers"
                : "; files renamed but not yet added to git are followed once added (`git add`)"
            printError("note: \(files) \(count == 1 ? "is" : "are") gone and \(why), so whether \(count == 1 ? "it was" : "they were") renamed into files with new uses was judged from the uses alone\(fix)")
        }
        // Uses the change itself allowed, by recording them in the baseline: said, so that a
        // re-recorded baseline cannot let new uses through unseen (a failure with --strict).
        let allowedByTheChange = self.changedSince.flatMap { baselineGrowth(of: baseline, since: $0, configuration: configuration) } ?? []
        if let first = allowedByTheChange.first {
            let byMigration = Dictionary(grouping: allowedByTheChange, by: \.migration).map { "\($0.key): \($0.value.count)" }.sorted()
            printError("\(strict ? "error" : "warning"): the baseline gained \(allowedByTheChange.count == 1 ? "1 entry" : "\(allowedByTheChange.count) entries") since \(SafeText.oneLine(self.changedSince ?? "")) (\(byMigration.joined(separator: ", "))), first \(SafeText.oneLine(first.file)): uses this change allows itself; a reviewer accepts them by reviewing \(RepositoryPath.relative(configuration.baselinePath, root: configuration.root) ?? configuration.baselinePath)")
        }
        // (With files that could not be read, what seems gone may only be unseen.)
        if !comparison.fixed.isEmpty, result.failures.isEmpty {
            let count = comparison.fixed.count
            printError("\(strict ? "error" : "note"): the baseline can shrink: \(count) recorded use\(count == 1 ? " is" : "s are") gone; run `swiftmod baseline --prune` and commit it")
        }
        if report.hasBlockingNotJudged {
            printError("error: files that may hold a use were not judged (see above); a file is left out on purpose only by `exclude:` in \(Configuration.fileName)")
        }
        let failed = !report.findings.isEmpty || !result.failures.isEmpty || report.hasBlockingNotJudged
            || (strict && (!comparison.fixed.isEmpty || !allowedByTheChange.isEmpty))
        if failed { throw ExitCode(ExitStatus.failure) }
    }

    /// The configuration file, baseline or codemod folder that a partial check's PATHs name, or
    /// that changed since `--changed-since` (committed or not); nil when none did.
    func rulesChanged(_ options: LockdownOptions) throws -> String? {
        let configuration = try ConfigurationLoading.load(options.config)
        let root = configuration.root
        // The baseline too: a partial check compares only some files with it, so a baseline
        // that lost entries (pruned, then a use restored) must be compared whole.
        let rules = [configuration.path, configuration.baselinePath] + configuration.codemodFolderPaths
        let relative = rules.compactMap { RepositoryPath.relative($0, root: root) }
        for path in options.paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            if let rule = rules.first(where: { absolute == $0 || absolute.hasPrefix($0 + "/") }) {
                return RepositoryPath.relative(rule, root: root) ?? rule
            }
        }
        guard let changedSince, let top = Git.topLevel(of: root),
              Git.run(["rev-parse", "--verify", "--quiet", "\(changedSince)^{commit}"], in: root) != nil else { return nil }
        let spelled = relative.map { RepositoryPath.absolute($0, root: root) }
        let changed = (Git.run(["diff", "--name-only", "-z", changedSince, "--"] + spelled, in: top) ?? [])
            .split(separator: 0).filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
        return (changed + (Git.untrackedFiles(top: top, under: spelled) ?? [])).first
    }

    /// The entries the baseline has now that it did not have at a revision (as many times as
    /// they were added); nil when the revision's baseline cannot be read (none then, say).
    func baselineGrowth(of baseline: Baseline, since revision: String, configuration: Configuration) -> [Baseline.Entry]? {
        guard let top = Git.topLevel(of: configuration.root),
              let relative = RepositoryPath.relative(configuration.baselinePath, root: top),
              let bytes = Git.run(["show", "\(revision):\(relative)"], in: top) else { return nil }
        guard let before = try? Baseline.parse(bytes, path: "\(revision):\(relative)") else { return nil }
        var count = Dictionary(grouping: before.entries, by: { $0 }).mapValues(\.count)
        return baseline.entries.filter { entry in
            guard let left = count[entry], left > 0 else { return true }
            count[entry] = left - 1
            return false
        }
    }
}
