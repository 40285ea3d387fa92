import ArgumentParser
import BundledCodemods
import CodemodKit
import Foundation
import Lockdown
import Migrations
import SwiftTree
import Workspace

/// `swiftmod run`: applies a codemod, as a dry-run diff or in place.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Apply a codemod: a dry-run diff by default, --write to change the files.",
        discussion: """
        PATHs are files or folders (recursive, *.swift only, skipping .git, what git ignores, and \
        .build, Pods, Carthage or DerivedData where their tool's files say they are its output); \
        the default is the current folder. The \
        diff goes to stdout (it applies with `git apply` from the same folder), the summary to \
        stderr. With --write each file is replaced atomically, keeping its line endings, byte order \
        mark and permissions, and the diff of what was written is printed. A file the rewrite would \
        break is refused and left as it was, and so is a file changed by someone else while it \
        was being rewritten. A *.swift symbolic link to a file outside the tree (the current \
        folder, the PATHs and their git work trees) is left alone with a note, unless \
        --follow-outside-links is given. A codemod without a rewrite lists its uses instead. A \
        migration id, or --module, processes only the files found in folders that `swiftmod \
        scan` looks at (the include: and exclude: of .swiftmod.yml); a file named is processed.

        Exit codes: 0 success (changed or not), 1 some file was refused or failed, 2 usage errors, 130 an interactive review stopped with Ctrl-C (what was accepted before is written, and summed up).

        Examples:
          swiftmod run strong-iboutlet --module ProfileUI
          swiftmod run strong-iboutlet Sources/Profile
          swiftmod run strong-iboutlet Sources/Profile --write
          swiftmod run backtick-self . --param binding=this
          swiftmod run strong-iboutlet . --format json

        Guide: docs/running-migrations.md
        """
    )

    @Argument(help: "A codemod id (see `swiftmod list`), a migration id of .swiftmod.yml, or a definition file (*.yml).",
              completion: .list(BundledCodemods.ids))
    var codemod: String

    @Argument(help: "Files or folders to process (default: the current folder).", completion: .file())
    var paths: [String] = []

    @Option(name: .customLong("param"), help: ArgumentHelp("A parameter of the codemod; repeatable.", valueName: "key=value"))
    var params: [String] = []

    @Option(name: .customLong("module"), help: ArgumentHelp("Only the files of this module (a SwiftPM target, an Xcode project folder or a `modules:` entry of .swiftmod.yml); repeatable.", valueName: "name"))
    var modules: [String] = []

    @Flag(help: "Write the changes (default: a dry run that prints a diff).")
    var write = false

    @Flag(name: .shortAndLong, help: "Review each change on a terminal (yes, no, all in this file, skip file, quit) and write only those accepted.")
    var interactive = false

    @Option(help: "Output format: diff or json.")
    var format: OutputFormat = .diff

    @Option(help: "Colour the diff: auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .shortAndLong, help: "How many files to process at once (default: all cores).")
    var jobs: Int?

    @Flag(help: "Also process *.swift symbolic links whose target is outside the tree (by default they are left alone, with a note).")
    var followOutsideLinks = false

    @Option(help: ArgumentHelp("Skip (with a note) files bigger than this: bytes, or 4MB, 512KB (default: max-file-size in .swiftmod.yml, else 4MB).", valueName: "size"))
    var maxFileSize: String?

    @OptionGroup var codemods: CodemodOptions

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case diff, json }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if interactive, format == .json { throw ValidationError("--interactive shows diffs on a terminal; leave out --format json") }
        if let maxFileSize, ByteSize.parse(maxFileSize) == nil {
            throw ValidationError("--max-file-size: '\(maxFileSize)' is not a size; write bytes or a size like 4MB or 512KB")
        }
    }

    func run() throws {
        // Read once: it names the codemod folders, migrations and the size limit.
        let settings = try codemods.configuration()
        let (definition, configuredParams) = try loadDefinition(settings)
        let codemod: Codemod
        do {
            let given = configuredParams.merging(try ParameterList.parse(params)) { _, explicit in explicit }
            codemod = try Codemod(definition, params: given)
        } catch let error as ParameterError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let display = DisplayPath()
        var selection: RunSelection
        do {
            // A module's files, found in the repository's module map (the configuration's root, else git's).
            let here = FileManager.default.currentDirectoryPath
            let root = settings?.root ?? Git.topLevel(of: here) ?? here
            let chosen = modules.isEmpty ? nil : try ModuleSelection(names: modules, root: root, configuration: settings)
            // Named from here, so that the diff's paths are too (it applies from this folder).
            let roots = paths.isEmpty ? (chosen?.folders ?? []).map { DisplayPath.relative(RepositoryPath.absolute($0, root: root), from: here) } : paths
            selection = try RunSelection(paths: roots, followOutsideLinks: followOutsideLinks, display: display)
            func absolute(_ file: String) -> String { file.hasPrefix("/") ? file : (here == "/" ? "/" : here + "/") + file }
            if let chosen {
                selection.files = selection.files.filter { file in
                    RepositoryPath.relative(absolute(file), root: root).map(chosen.contains) ?? false
                }
                if selection.files.isEmpty { ModuleSelection.warnEmpty(chosen, paths: paths) }
            }
            // A configured migration, like a module of the map, covers what `scan` covers: of the
            // files found in folders, those `include:` takes and `exclude:` leaves (generated code
            // is not rewritten). A file named as a PATH is processed as asked.
            if let settings, isMigration(settings) || chosen != nil {
                let named = Set(paths.filter { path in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
                }.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
                let before = selection.files.count
                selection.files = selection.files.filter { file in
                    named.contains(URL(fileURLWithPath: file).standardizedFileURL.path)
                        || RepositoryPath.relative(absolute(file), root: settings.root).map(settings.covers) ?? false
                }
                let left = before - selection.files.count
                if left > 0 {
                    printError("note: \(plural(left, "file")) left out by the include:/exclude: of \(Configuration.fileName) \(left == 1 ? "was" : "were") not processed, as scan leaves \(left == 1 ? "it" : "them") out (a file named as a PATH is processed)")
                }
            }
            // An ast-grep rule's `files:` and `ignores:`: globs relative to the configuration's root,
            // else to the rule's project (its sgconfig.yml's folder, its repository, its folder),
            // whatever the working folder.
            if !definition.files.isEmpty || !definition.ignores.isEmpty {
                let before = selection.files.count
                let ruleFile = definition.origin.hasPrefix("<bundled>") ? nil : definition.origin
                let base = settings?.root ?? ruleFile.map { file in
                    AstGrepProject.projectFolder(of: file) ?? Git.topLevel(of: (absolute(file) as NSString).deletingLastPathComponent)
                        ?? (absolute(file) as NSString).deletingLastPathComponent
                } ?? root
                selection.files = selection.files.filter { file in
                    definition.applies(to: RepositoryPath.relative(absolute(file), root: base) ?? file)
                }
                let left = before - selection.files.count
                if left > 0 {
                    printError("note: \(plural(left, "file")) left out by the files:/ignores: of \(definition.id) \(left == 1 ? "was" : "were") not processed")
                }
            }
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        for link in selection.outsideLinks {
            let how = link.isLink ? "a symbolic link to" : "reached through a symbolic link: it is"
            printError("note: \(SafeText.oneLine(link.path)): \(how) \(SafeText.oneLine(link.target)), outside the tree; left alone (--follow-outside-links processes it)")
        }
        if write {
            for stale in selection.prepareForWriting() {
                printError("note: removed \(SafeText.oneLine(display(stale))), a temporary file left by an interrupted run")
            }
        }
        let limit = maxFileSize.flatMap(ByteSize.parse) ?? settings?.maxFileSize ?? SourceFileReader.defaultMaxFileSize
        var options = RunOptions(write: write || interactive, jobs: interactive ? 1 : jobs, maxFileSize: limit) { display($0) }
        let painter = DiffPainter(enabled: color.isEnabled(for: stdout))
        var review: ChangeReview?
        if interactive {
            guard isatty(fileno(stdin)) != 0, isatty(fileno(stdout)) != 0 else {
                throw CommandFailure(message: "--interactive asks about each change on a terminal, and stdin or stdout is not one; without a terminal, review the dry run's diff and apply it with `git apply`, or use --write",
                                     exitCode: ExitStatus.usage)
            }
            let reviewer = ChangeReview(painter: painter)
            reviewer.stopOnInterrupt()
            options.choose = { reviewer.choose($0, $1, $2) }
            review = reviewer
            for stale in selection.prepareForWriting() {
                printError("note: removed \(SafeText.oneLine(display(stale))), a temporary file left by an interrupted run")
            }
        }
        let runner = CodemodRunner(codemod: codemod, options: options)
        var records: [FileRecord] = []
        // Files outside the current folder whose diff was printed: `git apply` wants a flag for them.
        var outside = 0
        // What is left, by reason, for the summary.
        var leftByReason: [String: Int] = [:]
        let summary = runner.run(selection.files) { outcome in
            for site in outcome.sitesNotConverted { leftByReason[site.message, default: 0] += 1 }
            // File names and notes stay on their line: no name can forge a message of its own.
            let path = SafeText.oneLine(outcome.displayPath)
            switch outcome.status {
            case let .refused(message), let .failed(message):
                printError("error: \(SafeText.oneLine(message))")
                review?.notWritten(outcome.displayPath)
                // What was refused, to see why: on stderr, indented, so that it never reaches a
                // `git apply` of the diff on stdout.
                if case .refused = outcome.status, !outcome.diff.isEmpty, format == .diff {
                    printError("  the change it would have made (not applied):")
                    for line in outcome.diff.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                        printError("    " + SafeText.oneLine(String(line)))
                    }
                }
            case let .skipped(message):
                printError("note: \(SafeText.oneLine(message))")
            default: break
            }
            for refusal in outcome.refusals {
                printError("note: \(path):\(refusal.location.line):\(refusal.location.column): not rewritten: \(SafeText.oneLine(refusal.message))")
            }
            for note in outcome.notes {
                printError("note: \(path):\(note.location.line):\(note.location.column): \(SafeText.oneLine(note.message))")
            }
            if outcome.skippedInErrorRegions > 0 {
                printError("note: \(path): \(outcome.skippedInErrorRegions) use(s) inside a syntax error region not rewritten")
            }
            switch format {
            case .diff:
                if review != nil { break }
                if !outcome.diff.isEmpty, outcome.status == .changed || outcome.status == .written {
                    print(painter.paint(outcome.diff), terminator: "")
                    if UnifiedDiff.patchName(outcome.displayPath).hasPrefix("../") { outside += 1 }
                } else if !codemod.definition.rewrites {
                    for use in outcome.uses {
                        print("\(path):\(use.start.line):\(use.start.column): \(codemod.id): \(SafeText.oneLine(codemod.definition.filled(codemod.definition.summary, params: codemod.params)))")
                    }
                }
            case .json:
                if outcome.status != .unchanged || !outcome.uses.isEmpty || !outcome.notes.isEmpty { records.append(FileRecord(outcome)) }
            }
        }
        if format == .json {
            let report = RunReport(codemod: codemod.id, migration: settings.flatMap { isMigration($0) ? self.codemod : nil },
                                   params: codemod.params, write: write, files: records,
                                   outsideLinks: selection.outsideLinks, summary: .init(summary))
            print(try JSONText.pretty(report))
        }
        // Files in a folder that cannot be listed were not seen: say so, and fail as for files.
        for folder in selection.unreadableFolders {
            printError("error: \(SafeText.oneLine(DisplayPath()(folder.path)))/: \(folder.reason); the Swift files in it were not processed")
        }
        if outside > 0, !write {
            printError("note: \(plural(outside, "file")) of the diff \(outside == 1 ? "is" : "are") outside the current folder, named from it (../); `git apply --unsafe-paths` applies \(outside == 1 ? "it" : "them") from here")
        }
        if let review { printError(review.summary) }
        printError(describe(summary, codemod: codemod, title: title(codemod, settings), review: review))
        if leftByReason.count > 0, codemod.definition.rewrites {
            let reasons = leftByReason.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            printError("not converted, by reason:")
            for (reason, count) in reasons.prefix(12) {
                printError("  \(count) \(count == 1 ? "site" : "sites"): \(SafeText.oneLine(reason))")
            }
            if reasons.count > 12 { printError("  … and \(plural(reasons.count - 12, "other reason")) (the notes above list every site)") }
        }
        if let error = summary.definitionError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        if review?.interrupted == true { throw ExitCode(ExitStatus.interrupted) }
        if summary.filesRefused + summary.filesFailed > 0 || !selection.unreadableFolders.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    /// The definition to run, and the parameters a configured migration gives it.
    private func loadDefinition(_ settings: Configuration?) throws -> (CodemodDefinition, [String: String]) {
        let catalog = try codemods.catalog(configuration: settings)
        do {
            guard let found = try catalog.runnable(named: codemod, configuration: settings) else {
                if settings?.migrations.contains(where: { $0.id == codemod && $0.rule != nil }) == true {
                    throw CommandFailure(message: "'\(codemod)' is a module rule of \(Configuration.fileName): there is nothing to rewrite; `swiftmod check` or `swiftmod modules` lists its violations, to fix by hand",
                                         exitCode: ExitStatus.usage)
                }
                let known = catalog.definitions.map(\.id).joined(separator: ", ")
                throw CommandFailure(message: "unknown codemod '\(codemod)' (known: \(known); a migration id of .swiftmod.yml; or a path to a .yml definition)",
                                     exitCode: ExitStatus.usage)
            }
            return found
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }

    /// Whether the name given is a migration of the configuration (rather than a codemod or a
    /// definition file): its run covers the configuration's files only.
    private func isMigration(_ settings: Configuration) -> Bool {
        settings.migrations.contains { $0.id == codemod && $0.rule == nil }
    }

    /// The run's name in its summary: the migration's id, with its codemod's when they differ.
    private func title(_ codemod: Codemod, _ settings: Configuration?) -> String {
        guard let settings, isMigration(settings), self.codemod != codemod.id else { return codemod.id }
        return "\(SafeText.oneLine(self.codemod)) (\(codemod.id))"
    }

    private func describe(_ summary: RunSummary, codemod: Codemod, title: String, review: ChangeReview?) -> String {
        var text = "\(title): \(plural(summary.filesScanned, "file")) scanned, "
            + "\(summary.filesChanged) \(write || interactive ? "written" : "to change"), \(plural(summary.edits, "edit")), "
            + "\(summary.filesRefused) refused, \(summary.filesFailed) failed, \(summary.sitesSkipped) skipped"
        if summary.filesSkipped > 0 { text += "; \(plural(summary.filesSkipped, "file")) over the size limit not read" }
        if summary.filesWithSyntaxErrors > 0 {
            let first = summary.firstFileWithSyntaxErrors.map { " (\(SafeText.oneLine($0))\(summary.filesWithSyntaxErrors > 1 ? ", …" : ""))" } ?? ""
            let done = codemod.definition.rewrites ? "rewritten" : "searched"
            text += "; \(plural(summary.filesWithSyntaxErrors, "file")) with syntax errors\(first), \(done) outside the damaged regions"
        }
        if !codemod.definition.rewrites {
            text += "; \(plural(summary.uses, "use")) found (this codemod only finds, it has no rewrite)"
        } else if summary.uses > 0 {
            // What is left to do by hand: refused sites, and every use of a refused file.
            if let review {
                // Declined sites are left on purpose: neither converted nor to do by hand.
                let converted = summary.uses - summary.sitesDeclined - summary.sitesNotConverted
                let declined = review.notReviewed > 0 ? "declined or not reviewed" : "declined"
                text += "; \(plural(summary.uses, "site")): \(converted) converted, \(summary.sitesDeclined) \(declined), \(summary.sitesNotConverted) not converted"
            } else {
                text += "; \(plural(summary.uses, "site")), \(summary.sitesNotConverted) not converted"
            }
            if summary.sitesNotConverted > 0 {
                // A refused or failed file says why in an error; a site left alone, in a note.
                let files = summary.filesRefused + summary.filesFailed > 0, sites = summary.sitesSkipped > 0
                text += " (see the \(files && sites ? "errors and notes" : files ? "errors" : "notes") above)"
            }
        }
        if codemod.definition.rewrites, !write, !interactive, summary.filesChanged > 0 {
            text += " (dry run: add --write to apply)"
        }
        return text
    }
}

/// Parses `--param key=value` arguments.
enum ParameterList {
    static func parse(_ items: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CommandFailure(message: "--param takes key=value, got '\(item)'", exitCode: ExitStatus.usage)
            }
            result[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return result
    }
}

/// `--color auto|always|never`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    func isEnabled(for stream: UnsafeMutablePointer<FILE>?) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            return isatty(fileno(stream)) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
                && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        }
    }
}

/// Colours a unified diff with ANSI escapes.
struct DiffPainter {
    var enabled: Bool

    func paint(_ diff: String) -> String {
        guard enabled else { return diff }
        var output = ""
        // Split on bytes: in Swift "\r\n" is one Character and would not split on "\n".
        for bytes in diff.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let line = String(decoding: bytes, as: UTF8.self)
            let code: String?
            if line.hasPrefix("+++") || line.hasPrefix("---") { code = "1" }
            else if line.hasPrefix("@@") { code = "36" }
            else if line.hasPrefix("+") { code = "32" }
            else if line.hasPrefix("-") { code = "31" }
            else { code = nil }
            output += code.map { "\u{1B}[\($0)m\(line)\u{1B}[0m\n" } ?? "\(line)\n"
        }
        return output
    }
}

/// The JSON form of a run.
struct RunReport: Encodable {
    var codemod: String
    /// The migration of .swiftmod.yml run by its id, if it was.
    var migration: String?
    var params: [String: String]
    var write: Bool
    var files: [FileRecord]
    /// Symbolic links out of the tree, left alone.
    var outsideLinks: [RunSelection.OutsideLink]
    var summary: Summary

    struct Summary: Encodable {
        var filesScanned, filesChanged, edits, uses, filesRefused, filesFailed, filesSkipped, sitesSkipped, sitesNotConverted: Int
        init(_ summary: RunSummary) {
            filesSkipped = summary.filesSkipped
            filesScanned = summary.filesScanned; filesChanged = summary.filesChanged; edits = summary.edits
            uses = summary.uses; filesRefused = summary.filesRefused; filesFailed = summary.filesFailed
            sitesSkipped = summary.sitesSkipped; sitesNotConverted = summary.sitesNotConverted
        }
    }
}

/// One file of a JSON run report.
struct FileRecord: Encodable {
    var path: String
    var status: String
    var message: String?
    var uses: [UseRecord]
    var changes: [Change]
    /// The uses left for a person to rewrite, each with the reason.
    var notConverted: [SiteRecord]
    /// What the codemod says that is not a use (an outlet left weak on purpose, say).
    var notes: [NoteRecord]
    var diff: String?

    struct UseRecord: Encodable {
        var line, column: Int
        var text: String
        var inErrorRegion: Bool
    }

    struct SiteRecord: Encodable {
        var line, column: Int
        var reason: String
    }

    struct NoteRecord: Encodable {
        var line, column: Int
        var message: String
    }

    init(_ outcome: FileOutcome) {
        path = outcome.displayPath
        switch outcome.status {
        case .unchanged: status = "unchanged"
        case .changed: status = "changed"
        case .written: status = "written"
        case let .refused(text): status = "refused"; message = text
        case let .failed(text): status = "failed"; message = text
        case let .skipped(text): status = "skipped"; message = text
        }
        uses = outcome.uses.map { UseRecord(line: $0.start.line, column: $0.start.column, text: $0.text, inErrorRegion: $0.inErrorRegion) }
        changes = outcome.changes
        notConverted = outcome.sitesNotConverted.map { SiteRecord(line: $0.location.line, column: $0.location.column, reason: $0.message) }
        notes = outcome.notes.map { NoteRecord(line: $0.location.line, column: $0.location.column, message: $0.message) }
        diff = outcome.diff.isEmpty ? nil : outcome.diff
    }
}

/// Encodes values as stable, readable JSON.
