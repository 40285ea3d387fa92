import Dispatch
import Foundation
import SwiftTree
import Workspace

/// How a run treats files.
public struct RunOptions: Sendable {
    /// Write changed files (otherwise a dry run).
    public var write = false
    /// How many files are processed at once.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Turns a file path into the path shown in diffs and messages.
    public var displayPath: @Sendable (String) -> String = { $0 }
    /// Files bigger than this are skipped with a note (see `SourceFileReader`).
    public var maxFileSize = SourceFileReader.defaultMaxFileSize

    /// Tests only: called just before a file is replaced (to change it behind the runner's back).
    var beforeReplacing: (@Sendable (String) -> Void)?

    /// Chooses which of a file's changes to make (`run --interactive`): given the file as shown,
    /// its text and its changes in hunks (edits within a few lines of each other, in order), it
    /// returns the hunks accepted. Called for one file at a time, in order, when `jobs` is 1.
    public var choose: (@Sendable (_ displayPath: String, _ source: SourceText, _ hunks: [[Edit]]) -> [[Edit]])?

    public init(write: Bool = false, jobs: Int? = nil, maxFileSize: Int = SourceFileReader.defaultMaxFileSize,
                displayPath: @escaping @Sendable (String) -> String = { $0 }) {
        self.write = write
        self.maxFileSize = maxFileSize
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        self.displayPath = displayPath
    }
}

/// One change in a file, located for people and tools.
public struct Change: Sendable, Codable, Equatable {
    public var line: Int
    public var column: Int
    public var endLine: Int
    public var endColumn: Int
    public var original: String
    public var replacement: String
}

/// What happened to one file.
public struct FileOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        /// Nothing to change.
        case unchanged
        /// Changes found (a dry run: not written).
        case changed
        /// Changes written to disk.
        case written
        /// Not changed on purpose: the rewrite would break the file.
        case refused(String)
        /// The file could not be processed (unreadable, not a regular file, not UTF-8, an engine
        /// error, a failed write).
        case failed(String)
        /// Not read on purpose (bigger than the size limit); the message says why. Not a failure.
        case skipped(String)
    }

    public var path: String
    public var displayPath: String
    public var status: Status
    public var uses: [Use] = []
    public var changes: [Change] = []
    /// The unified diff of the changes (also for refused files, to show what was not done).
    public var diff = ""
    public var refusals: [SiteRefusal] = []
    /// What the codemod wants said that is not a use.
    public var notes: [SiteRefusal] = []
    public var skippedInErrorRegions = 0
    /// The uses whose changes a review (`RunOptions.choose`) did not accept: declined, skipped with
    /// the rest of their file, or not reached after quitting. They are left as they were, on
    /// purpose, so they are neither converted nor among `sitesNotConverted`.
    public var declined: [Use] = []
    /// Whether the file has syntax errors (it was parsed and is not clean).
    public var hasSyntaxErrors = false
    /// A fault of the codemod's definition met in this file (a regular expression that ran out
    /// of time): the run is a usage error, whatever else happened.
    public var definitionError: LocatedError?

    /// The uses this run leaves for a person to rewrite, each with the reason, in file order: the
    /// sites the codemod refused, the uses inside a syntax error region, and every other use of a
    /// file that was refused or failed (with the file's reason). Empty for a codemod that only finds.
    public var sitesNotConverted: [SiteRefusal] {
        var fileReason: String?
        switch status {
        case let .refused(reason), let .failed(reason): fileReason = reason
        default: break
        }
        var sites = refusals
        let declinedOffsets = Set(declined.map(\.start.offset))
        for use in uses where !refusals.contains(where: { $0.location.offset == use.start.offset }) && !declinedOffsets.contains(use.start.offset) {
            if use.inErrorRegion, skippedInErrorRegions > 0 {
                sites.append(SiteRefusal(location: use.start, message: "inside a syntax error region"))
            } else if let fileReason {
                sites.append(SiteRefusal(location: use.start, message: fileReason))
            }
        }
        return sites.sorted { $0.location.offset < $1.location.offset }
    }
}

/// Totals of a run.
public struct RunSummary: Sendable, Equatable {
    public var filesScanned = 0
    public var filesChanged = 0
    public var edits = 0
    public var uses = 0
    public var filesRefused = 0
    public var filesFailed = 0
    /// Files not read on purpose (over the size limit).
    public var filesSkipped = 0
    /// Uses left alone: in syntax-error regions, or refused by the codemod.
    public var sitesSkipped = 0
    /// Uses left for a person to rewrite: those skipped, and those of files refused or failed.
    public var sitesNotConverted = 0
    /// Uses whose changes a review did not accept (see `FileOutcome.declined`).
    public var sitesDeclined = 0
    /// Files parsed that have syntax errors.
    public var filesWithSyntaxErrors = 0
    /// The first of them (display path), to name in the summary.
    public var firstFileWithSyntaxErrors: String?
    /// The first fault of the definition met (see `FileOutcome.definitionError`).
    public var definitionError: LocatedError?

    public mutating func add(_ outcome: FileOutcome) {
        filesScanned += 1
        uses += outcome.uses.count
        sitesSkipped += outcome.skippedInErrorRegions + outcome.refusals.count
        sitesNotConverted += outcome.sitesNotConverted.count
        sitesDeclined += outcome.declined.count
        if outcome.hasSyntaxErrors {
            filesWithSyntaxErrors += 1
            if firstFileWithSyntaxErrors == nil { firstFileWithSyntaxErrors = outcome.displayPath }
        }
        if definitionError == nil { definitionError = outcome.definitionError }
        switch outcome.status {
        case .changed, .written:
            filesChanged += 1
            edits += outcome.changes.count
        case .refused: filesRefused += 1
        case .failed: filesFailed += 1
        case .skipped: filesSkipped += 1
        case .unchanged: break
        }
    }
}

/// Applies one codemod to many files, in parallel, with the safety net: a file whose rewrite
/// would have more syntax errors than before is refused and left as it was.
public struct CodemodRunner: Sendable {
    public let codemod: Codemod
    public let options: RunOptions

    public init(codemod: Codemod, options: RunOptions) {
        self.codemod = codemod
        self.options = options
    }

    /// Processes files on `options.jobs` threads; `report` receives every outcome in the order of
    /// `files`.
    public func run(_ files: [String], report: (FileOutcome) -> Void) -> RunSummary {
        codemod.prepare(files, pipeline: pipeline)
        let outcomes = pipeline.run(files, through: self)
        var summary = RunSummary()
        for outcome in outcomes {
            summary.add(outcome)
            report(outcome)
        }
        return summary
    }

    /// Processes one file.
    public func process(_ path: String, with parser: Parser) -> FileOutcome {
        pipeline.process(path, through: self, parser: parser)
    }

    var pipeline: FilePipeline { FilePipeline(maxFileSize: options.maxFileSize, jobs: options.jobs) }
}

extension CodemodRunner {
    /// Edits grouped as a diff shows them: those within six lines of each other are one hunk.
    static func hunks(of edits: [Edit], in source: SourceText) -> [[Edit]] {
        var hunks: [[Edit]] = []
        var lastLine: Int?
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let first = source.location(ofByte: edit.range.lowerBound).line
            if let lastLine, first - lastLine <= 6 { hunks[hunks.count - 1].append(edit) } else { hunks.append([edit]) }
            lastLine = source.location(ofByte: edit.range.upperBound).line
        }
        return hunks
    }

    /// The uses a review left as they were: those an offered edit touches and no chosen one does;
    /// every use that could be rewritten when nothing was chosen (an action's edits may lie
    /// outside its uses, say a renamed reference).
    static func declined(_ uses: [Use], offered: [Edit], chosen: [Edit], refusals: [SiteRefusal]) -> [Use] {
        guard chosen.count < offered.count else { return [] }
        let refused = Set(refusals.map(\.location.offset))
        let rewritable = uses.filter { !$0.inErrorRegion && !refused.contains($0.start.offset) }
        guard !chosen.isEmpty else { return rewritable }
        // An insertion touches a use it is in or at the end of; a replacement, one it overlaps.
        func touches(_ use: Use, _ edit: Edit) -> Bool {
            edit.range.isEmpty ? (use.range.lowerBound...use.range.upperBound).contains(edit.range.lowerBound) : edit.range.overlaps(use.range)
        }
        return rewritable.filter { use in
            offered.contains { touches(use, $0) } && !chosen.contains { touches(use, $0) }
        }
    }
}

extension CodemodRunner: FileConsumer {
    public func needsTree(_ bytes: [UInt8]) -> Bool { codemod.mightMatch(bytes) }

    public func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> FileOutcome {
        FileOutcome(path: file.path, displayPath: options.displayPath(file.path), status: .unchanged)
    }

    public func unreadable(_ file: PipelineFile, error: SourceFileError) -> FileOutcome {
        // Named as the user sees the file.
        let display = options.displayPath(file.path)
        return FileOutcome(path: file.path, displayPath: display,
                           status: error.isSkip ? .skipped("\(display): \(error.reason)") : .failed("\(display): \(error.reason)"))
    }

    public func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> FileOutcome {
        let path = file.path
        let display = options.displayPath(path)
        let source = tree.source
        var outcome = FileOutcome(path: path, displayPath: display, status: .unchanged)
        outcome.hasSyntaxErrors = tree.hasErrors
        var transformation: Transformation
        do {
            transformation = try codemod.transform(tree)
        } catch let error as LocatedError {
            outcome.status = .failed("\(display): \(error)")
            outcome.definitionError = error
            return outcome
        } catch {
            outcome.status = .failed("\(display): \(error)")
            return outcome
        }
        outcome.uses = transformation.uses
        outcome.refusals = transformation.refusals
        outcome.notes = transformation.notes
        outcome.skippedInErrorRegions = transformation.skippedInErrorRegions
        guard !transformation.edits.isEmpty else { return outcome }

        if source.dominantLineEnding == "\r\n" {
            transformation.edits = transformation.edits.map { edit in
                var edit = edit
                edit.replacement = edit.replacement.replacingOccurrences(of: "\r\n", with: "\n")
                    .replacingOccurrences(of: "\n", with: "\r\n")
                return edit
            }
        }
        var edits: EditSet
        do {
            edits = try EditSet(transformation.edits, in: source)
        } catch {
            outcome.status = .failed("\(display): \(error)")
            return outcome
        }
        if let choose = options.choose, !edits.isEmpty {
            // A built-in action (renaming what a binding rebinds, say) makes edits that stand or
            // fall together: its file is one change, never half taken.
            let together = codemod.steps.contains { if case let .action(action) = $0 { return action.editsStandTogether } else { return false } }
            let hunks = together ? [edits.edits] : Self.hunks(of: edits.edits, in: source)
            let chosen = choose(display, source, hunks).flatMap { $0 }
            outcome.declined = Self.declined(outcome.uses, offered: edits.edits, chosen: chosen, refusals: outcome.refusals)
            do {
                edits = try EditSet(chosen, in: source)
            } catch {
                outcome.status = .failed("\(display): \(error)")
                return outcome
            }
            guard !edits.isEmpty else { return outcome }
        }
        let newBytes = edits.apply(to: source)
        guard newBytes != source.bytes else { return outcome }
        outcome.changes = edits.edits.map { edit in
            let start = source.location(ofByte: edit.range.lowerBound)
            let end = source.location(ofByte: edit.range.upperBound)
            return Change(line: start.line, column: start.column, endLine: end.line, endColumn: end.column,
                          original: source.text(in: edit.range), replacement: edit.replacement)
        }
        outcome.diff = UnifiedDiff().render(path: display, source: source, edits: edits)

        // The safety net: never make a file less parsable than it was. Damaged regions may stay
        // (moved by the edits); none may appear, grow, or spread into code that parsed.
        let rewritten = parser.parse(SourceText(String(decoding: newBytes, as: UTF8.self)))
        let after = rewritten.errorRegions
        if let region = ErrorRegionCheck.firstNewRegion(before: tree.errorRegions.map(\.byteRange), after: after.map(\.byteRange), edits: edits) {
            let start = rewritten.source.location(ofByte: region.lowerBound)
            let before = tree.errorRegions.count
            outcome.status = .refused("\(display): the rewrite would leave a syntax error at line \(start.line), column \(start.column) in code that parsed before (\(after.count) syntax error region(s) after, \(before) before); the file was left unchanged")
            return outcome
        }
        guard options.write else {
            outcome.status = .changed
            return outcome
        }
        do {
            let bom: [UInt8] = source.hasByteOrderMark ? [0xEF, 0xBB, 0xBF] : []
            let snapshot = file.status.map { FileSnapshot($0, bytes: bom + source.bytes) }
            options.beforeReplacing?(path)
            try AtomicWriter.replaceContents(of: path, with: bom + newBytes, expected: snapshot)
            outcome.status = .written
        } catch is FileChangedError {
            // Someone else's edit wins; this run's edits are not lost, only not applied yet.
            outcome.status = .refused("\(display): changed while being rewritten; run again")
        } catch {
            outcome.status = .failed("\(error)")
        }
        return outcome
    }
}

