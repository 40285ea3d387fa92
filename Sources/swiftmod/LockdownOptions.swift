import ArgumentParser
import BundledCodemods
import CodemodKit
import Foundation
import Lockdown
import Migrations
import SwiftTree
import Workspace

/// The options shared by `scan`, `baseline` and `check`: the configuration, which migrations,
/// which paths, how many jobs.
struct LockdownOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file (default: .swiftmod.yml here or in a folder above).", valueName: "path"),
            completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .customLong("migration"), help: ArgumentHelp("Only this migration; repeatable.", valueName: "id"))
    var only: [String] = []

    @Option(name: .shortAndLong, help: "How many files to process at once (default: all cores).")
    var jobs: Int?

    @Argument(help: "Files or folders to look at (default: the whole repository).", completion: .file())
    var paths: [String] = []

    @Option(name: .customLong("module"), help: ArgumentHelp("Only the files of this module (a SwiftPM target, an Xcode project folder or a `modules:` entry); repeatable.", valueName: "name"))
    var modules: [String] = []

    /// Whether the command looks at part of the repository (PATHs or modules).
    var isPartial: Bool { !paths.isEmpty || !modules.isEmpty }

    @Flag(name: .customLong("no-cache"), help: "Parse every file again instead of reusing .swiftmod/cache.")
    var noCache = false

    @Option(help: ArgumentHelp("Do not parse files bigger than this (each is named; check fails on one that may hold a new use): bytes, or 4MB, 512KB (default: max-file-size in .swiftmod.yml, else 4MB).", valueName: "size"))
    var maxFileSize: String?

    @Flag(name: .customLong("no-prefilter"), help: "Parse even files that cannot hold a use, and every file again (the results are the same; for checking that).")
    var noPrefilter = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let maxFileSize, ByteSize.parse(maxFileSize) == nil {
            throw ValidationError("--max-file-size: '\(maxFileSize)' is not a size; write bytes or a size like 4MB or 512KB")
        }
    }

    /// The size limit: the option, else the configuration's, else the default.
    func fileSizeLimit(_ configuration: Configuration?) -> Int {
        maxFileSize.flatMap(ByteSize.parse) ?? configuration?.maxFileSize ?? SourceFileReader.defaultMaxFileSize
    }

    /// The configuration, its migrations, and the files to scan.
    /// - Parameter changedSince: a git revision: only files changed since it (committed or not,
    ///   renamed, or new) are scanned.
    /// - Returns: also the folders that could not be listed, as failures for `scan(_:_:_:unreadable:)`.
    /// - Returns: also what the file selection left out and the second paths of its files, for
    ///   `scan(_:_:_:unreadable:notJudged:aliases:)`.
    /// - Returns: also, when the scan will judge outlets and the whole root was walked, the files
    ///   they read (see `FileSelection.outletFiles`; pass them to `scan`).
    func load(changedSince: String? = nil, addingRulesOf ruleFolders: [String] = []) throws
        -> (Configuration, [Migration], [String], [FileFailure], [NotJudged], [String], outletFiles: [String]?) {
        var configuration: Configuration
        if !ruleFolders.isEmpty, config == nil, Configuration.find() == nil {
            // No configuration: the folders' codemods are the migrations, over the repository
            // (or the current folder).
            let here = FileManager.default.currentDirectoryPath
            let root = Git.topLevel(of: here) ?? here
            do {
                configuration = try Configuration.parse("migrations: []", path: "--codemods", root: root)
            } catch let error as LocatedError {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
            }
        } else {
            configuration = try ConfigurationLoading.load(config)
        }
        if !ruleFolders.isEmpty {
            // Every codemod of the folders is a migration too (those configured keep their settings).
            do {
                for folder in ruleFolders {
                    let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
                    configuration.codemodFolders.append(absolute)
                    for definition in try DefinitionLoader().loadDirectory(absolute)
                    where !configuration.migrations.contains(where: { $0.codemod == definition.id || $0.id == definition.id }) {
                        if let reason = definition.leftOut {
                            printError("note: '\(definition.id)' (\(DisplayPath()(definition.origin))) \(reason) and is not checked")
                            continue
                        }
                        configuration.migrations.append(MigrationSettings(id: definition.id, codemod: definition.id, line: 0))
                    }
                }
            } catch let error as LocatedError {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
            }
        }
        var migrations: [Migration]
        do {
            let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions, directories: configuration.codemodFolderPaths)
            // Queries with parameters compile while the files are found (checked below).
            migrations = try Migration.resolve(configuration, catalog: catalog, checkingParameters: false)
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let configured = migrations
        if !only.isEmpty {
            for id in only where !migrations.contains(where: { $0.id == id }) {
                throw CommandFailure(message: "no migration '\(id)' in \(configuration.path) (known: \(migrations.map(\.id).joined(separator: ", ")))",
                                     exitCode: ExitStatus.usage)
            }
            migrations = migrations.filter { only.contains($0.id) }
        }
        var selection: FileSelection
        do {
            let chosen = try moduleSelection(configuration)
            // A module's folders are walked (unless PATHs say where), and only its files kept.
            let roots = paths.isEmpty ? (chosen?.folders ?? []).map { RepositoryPath.absolute($0, root: configuration.root) } : paths
            let readingOutlets = migrations.contains(where: \.isOutletRule) || OutletRules.judgeOutlets(migrations)
            selection = try FileSelection(configuration, paths: roots, changedSince: changedSince, readingOutlets: readingOutlets)
            if let chosen {
                selection.files = selection.files.filter { RepositoryPath.relative($0, root: configuration.root).map(chosen.contains) ?? false }
                if selection.files.isEmpty {
                    // With --changed-since, a module with files may simply have none changed:
                    // only one without any (walked as without the option) is warned about.
                    let all = changedSince == nil ? [] : try FileSelection(configuration, paths: roots).files
                    if let changedSince, all.contains(where: { RepositoryPath.relative($0, root: configuration.root).map(chosen.contains) ?? false }) {
                        ModuleSelection.noteUnchanged(chosen, since: changedSince)
                    } else {
                        ModuleSelection.warnEmpty(chosen, paths: paths)
                    }
                }
            }
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        do {
            try Migration.checkParameters(of: configured, in: configuration)
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        return (configuration, migrations, selection.files, selection.unreadable, selection.notJudged, selection.aliases, selection.outletFiles)
    }

    /// The modules named by `--module`, nil when none.
    /// - Throws: `CommandFailure` (usage) for a name that is no module, with the closest names.
    func moduleSelection(_ configuration: Configuration) throws -> ModuleSelection? {
        guard !modules.isEmpty else { return nil }
        do {
            return try ModuleSelection(names: modules, root: configuration.root, configuration: configuration)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }

    /// The repo-relative roots a partial command looked at: the PATHs, or the folders of the
    /// selected files' modules.
    func roots(_ configuration: Configuration, files: [String]) throws -> [String] {
        if !paths.isEmpty { return paths.map { RepositoryPath.relative($0, root: configuration.root) ?? "" } }
        guard let chosen = try moduleSelection(configuration) else { return [] }
        let folders = chosen.folders
        if folders != [""] { return folders }
        // A `modules:` entry: the folders of its files.
        return Array(Set(files.compactMap { RepositoryPath.relative($0, root: configuration.root) }
            .map { ($0 as NSString).deletingLastPathComponent })).sorted()
    }

    /// Scans, reusing and updating the cache, with progress on a terminal; reports unreadable
    /// files and folders on stderr (and in the result's failures, so every format shows them and
    /// the command fails).
    /// - Throws: `CommandFailure` (usage) when a definition's regular expression ran out of time.
    /// - Parameters:
    ///   - wholeRepository: whether `files` are all the configuration covers. Module rules always
    ///     read the whole repository's module graph.
    ///   - completeModuleRules: for a partial `check` or `baseline --prune`: report the module
    ///     rules' findings of the whole repository, not only of `files` (they are compared with
    ///     all their entries: a change in one module can put another's dependency on a cycle, a
    ///     changed manifest can change a module's type).
    ///   - leavingOutUntracked: for a partial `check`: the module graph leaves out files git does
    ///     not track that are not among `files` (scratch work is not part of a commit).
    ///   - outletFiles: what `load` walked for the outlets (else they are walked here when needed).
    func scan(_ configuration: Configuration, _ migrations: [Migration], _ files: [String], unreadable: [FileFailure] = [],
              notJudged: [NotJudged] = [], aliases: [String] = [], outletFiles: [String]? = nil, wholeRepository: Bool? = nil,
              completeModuleRules: Bool = false, leavingOutUntracked: Bool = false) throws -> ScanResult {
        var rules: ModuleRules?
        let whole = wholeRepository ?? !isPartial
        if migrations.contains(where: \.isModuleRule) {
            // Links inside a module to files outside it are the module's files too.
            var all = whole ? files + aliases : ((try? FileSelection(configuration, paths: [])).map { $0.files + $0.aliases } ?? files)
            if !whole, leavingOutUntracked {
                // A partial check (the pre-commit hook, --changed-since) judges what is to be
                // committed: a file git does not track, and that was not named, is someone's
                // scratch work, not part of this change.
                let untracked = Self.untrackedFiles(root: configuration.root)
                let named = Set(files.map { PathKey($0) })
                let left = all.filter { !named.contains(PathKey($0)) && untracked.contains(RepositoryPath.relative($0, root: configuration.root) ?? $0) }
                if let first = left.first {
                    let leftSet = Set(left.map { PathKey($0) })
                    all.removeAll { leftSet.contains(PathKey($0)) }
                    printError("note: the module rules leave out \(plural(left.count, "Swift file")) git does not track and this check was not asked about (\(SafeText.oneLine(RepositoryPath.relative(first, root: configuration.root) ?? first))\(left.count > 1 ? ", …" : "")); a full `swiftmod check` judges them")
                }
            }
            let checked = ModuleRules(configuration: configuration, migrations: migrations, files: all, jobs: jobs)
            for warning in checked.warnings { printError("warning: \(SafeText.oneLine(warning))") }
            rules = checked
        }
        let known = Set(configuration.migrations.map(\.id))
        var scanner = Scanner(root: configuration.root, migrations: migrations,
                              jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, knownIDs: known)
        scanner.prefilter = !noPrefilter
        scanner.maxFileSize = fileSizeLimit(configuration)
        // The outlet rules, and `strong-iboutlet` where there are storyboards and xibs, judge
        // outlets by them and by what the scan's parse of each file says about outlets.
        let outletRules = migrations.contains(where: \.isOutletRule)
        let outletFiles = outletRules || OutletRules.judgeOutlets(migrations)
            ? outletFiles ?? (try? OutletRepository.files(under: [configuration.root])) ?? [] : []
        let judgesOutlets = outletRules || OutletRules.judgeOutlets(migrations) && OutletRules.holdInterfaceBuilderFiles(outletFiles)
        scanner.readsOutlets = judgesOutlets
        let progress = ProgressLine.forTerminal(label: "scanning")
        let report: (@Sendable (Int, Int) -> Void)? = progress.map { line in { @Sendable done, total in line.update(done, total) } }
        // Without a configuration (`scan --codemods DIR` alone) nothing is written into the repository.
        // --no-prefilter checks the prefilter: a cached answer would be the prefilter's.
        let cached = !noCache && !noPrefilter && configuration.path != "--codemods"
        // The projects, storyboards and xibs are read beside the scan's parsing, where they must be.
        let prepared = judgesOutlets ? OutletRules.prepare(configuration: configuration, walked: outletFiles, jobs: jobs,
                                                           cacheVersion: cached ? Swiftmod.version : nil) : nil
        var result = scanner.scan(files, cachePath: cached ? ScanCache.defaultPath(root: configuration.root) : nil,
                                  version: Swiftmod.version, progress: report)
        result.failures = unreadable + result.failures
        result.notJudged = notJudged + result.notJudged
        if let rules {
            // The whole repository's, manifests too when `include:` leaves them out.
            let (findings, allowed) = whole || completeModuleRules ? rules.results() : rules.results(in: result.files)
            result.findings.add(findings)
            result.allowed += allowed
            result.moduleGraph = rules.graph
            // Files the module rules could not read (too large even for their imports).
            let known = Set(result.failures.map(\.file))
            result.failures += rules.graph.failures.filter { !known.contains($0.file) }
            result.repositoryWide = rules.repositoryWideIDs
            if completeModuleRules { result.complete = Set(rules.migrations.map(\.id)) }
        }
        if judgesOutlets {
            // Outlets are judged against the whole repository's storyboards and xibs.
            let outlets = OutletRules(configuration: configuration, migrations: migrations, jobs: jobs,
                                      cacheVersion: cached ? Swiftmod.version : nil, read: result.outlets, walked: outletFiles,
                                      contentHashes: result.contentHashes, prepared: prepared)
            // `strong-iboutlet`'s uses at outlets that may be absent are none (as in `run`).
            outlets.removeUsesLeftAlone(from: &result.findings, of: migrations)
            if outletRules {
                // A storyboard that cannot be read (a merge conflict) fails the check: its findings
                // are not gone.
                result.failures += outlets.failures
                // What no target builds is not judged: said.
                if let first = outlets.notBuilt.first {
                    printError("note: the outlet rules leave out \(outlets.notBuilt.count) storyboard\(outlets.notBuilt.count == 1 ? " or xib" : "s and xibs") no target of an Xcode project builds (\(SafeText.oneLine(first))\(outlets.notBuilt.count > 1 ? ", …" : "")); `swiftmod outlets` lists them")
                }
                // (Always the whole repository's: a change to a storyboard decides a Swift file's
                // finding, and storyboards are no file a partial scan names.)
                let (findings, allowed) = outlets.results()
                result.findings.add(findings)
                result.allowed += allowed
                result.repositoryWide.formUnion(outlets.migrations.map(\.id))
                result.complete.formUnion(outlets.migrations.map(\.id))
            } else {
                for failure in outlets.failures {
                    printError("note: \(SafeText.oneLine(failure.description))")
                }
            }
        }
        progress?.finish()
        if let error = result.definitionErrors.first {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        for failure in result.failures { printError("error: \(SafeText.oneLine(failure.description))") }
        return result
    }
}

extension LockdownOptions {
    /// Repo-relative paths of the files git does not track (and does not ignore); empty outside git.
    static func untrackedFiles(root: String) -> Set<String> {
        guard let top = Git.topLevel(of: root), let untracked = Git.untrackedFiles(top: top) else { return [] }
        return Set(untracked.compactMap { RepositoryPath.relative((top as NSString).appendingPathComponent($0), root: root) })
    }
}

/// Finds and reads `.swiftmod.yml`.
enum ConfigurationLoading {
    static func load(_ explicit: String?) throws -> Configuration {
        guard let path = explicit ?? Configuration.find() else {
            throw CommandFailure(message: "no \(Configuration.fileName) in \(FileManager.default.currentDirectoryPath) or any folder above it; create one (`swiftmod init`; see docs/configuration.md) or pass --config",
                                 exitCode: ExitStatus.usage)
        }
        do {
            return try Configuration.load(path)
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}

/// `files done / total` on one line of a terminal's stderr; nothing when stderr is not a terminal
/// or in CI.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    private init(label: String) { self.label = label }

    static func forTerminal(label: String) -> ProgressLine? {
        let environment = ProcessInfo.processInfo.environment
        guard isatty(fileno(stderr)) != 0, environment["CI"] == nil, environment["TERM"] != "dumb" else { return nil }
        return ProgressLine(label: label)
    }

    func update(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        drawn = true
        FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) files".utf8))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
