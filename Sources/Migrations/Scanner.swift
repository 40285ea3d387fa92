import CodemodKit
import Foundation
import SwiftTree
import Workspace

/// What a scan found.
public struct ScanResult: Sendable {
    /// Uses that are not allowed inline, and allow comments that are wrong, in file order.
    public var findings: [Finding] = []
    /// Uses allowed by `// swiftmod:allow` comments.
    public var allowed = 0
    /// Files that could not be read (also what is not a regular file: a FIFO, a socket, a device).
    public var failures: [FileFailure] = []
    /// Files skipped on purpose, with why (over the size limit): neither failures nor scanned, so
    /// their baseline entries stay as they are.
    public var skipped: [FileFailure] = []
    /// What was not judged (too large, misread regions; the command adds what its file selection
    /// left out), in file order.
    public var notJudged: [NotJudged] = []
    /// Repo-relative paths of every file scanned.
    public var files: [String] = []
    /// Faults of a codemod definition met while scanning (a regular expression that ran out of
    /// time): the scan's answer cannot be trusted, and the command is a usage error.
    public var definitionErrors: [LocatedError] = []
    /// The module graph, when module rules were checked.
    public var moduleGraph: ModuleGraph?
    /// Migrations whose uses were found in the whole repository, even when the scan was of some
    /// files only (module rules, for `check` and `baseline --prune`; see `Comparison`).
    public var complete: Set<String> = []
    /// Migrations whose uses are one of a kind in the repository (see `Comparison`).
    public var repositoryWide: Set<String> = []
    /// What each Swift file the scan read says about outlets, by repo-relative path, when the
    /// scanner was asked to read it (`Scanner.readsOutlets`). A file answered from the cache is
    /// not read: the outlet rules keep their own readings (`OutletRepository`'s cache, by content
    /// hash), and need none when nothing changed.
    public var outlets: [String: SwiftOutlets] = [:]
    /// The content hash of each scanned file that has a cache entry, with the path it was scanned
    /// at (as given to `Scanner.scan`), in the order it was given: what the outlet rules' kept
    /// verdicts and readings are checked against, without a second `stat`. (A list: a warm scan
    /// reads it beside the walk's files, in order, rather than looking each up.)
    public var contentHashes: [(path: String, hash: UInt64)] = []

    public var uses: [Finding] { findings.filter { $0.kind == .use } }
}

/// A file that could not be read, and why.
public struct FileFailure: Sendable, Equatable, CustomStringConvertible {
    /// Repo-relative.
    public var file: String
    public var reason: String
    public var description: String { "\(file): \(reason)" }
}

/// Finds the uses of every migration in files: each file is read and parsed once for all of them.
///
/// Inline exceptions: `// swiftmod:allow ID -- reason` on the line of a use, or on the line before,
/// allows one use of migration ID. An allow comment that allows nothing, or has no reason, is
/// itself a finding. Where the parser could not read a region, occurrences of a codemod's required
/// text inside it are still counted as uses (flagged `inErrorRegion`), so that damage never hides a
/// use from the lock-down.
public struct Scanner: Sendable {
    public let root: String
    /// The migrations with a codemod (module rules are left to `ModuleRules`).
    public let migrations: [Migration]
    public var jobs: Int
    /// Every migration id of the configuration: allow comments may name any of them, even when
    /// only some migrations are scanned (those comments are then left alone).
    public var knownIDs: Set<String>
    /// Skip files that cannot hold a match without parsing them (never changes results).
    public var prefilter = true
    /// Files bigger than this are skipped (see `SourceFileReader`).
    public var maxFileSize = SourceFileReader.defaultMaxFileSize
    /// Also read what each file the scan parses says about outlets (for the outlet rules, which
    /// would otherwise parse the files a second time): `ScanResult.outlets`. A file that
    /// declares no outlet or action is parsed for that only when a codemod needs its tree;
    /// otherwise it is read by its text, and whole later if its types matter (`RelevantTypes`).
    public var readsOutlets = false

    public init(root: String, migrations: [Migration], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                knownIDs: Set<String>? = nil) {
        self.root = root
        // Module rules are checked over the module graph (`ModuleRules`), not file by file.
        self.migrations = migrations.filter { $0.codemod != nil }
        self.jobs = jobs
        self.knownIDs = knownIDs ?? Set(migrations.map(\.id))
    }

    /// The files a configuration covers under some paths (default: the whole root), as absolute paths.
    /// - Throws: `FileWalker.MissingPathError` for a path that does not exist.
    public static func files(of configuration: Configuration, under paths: [String]) throws -> [String] {
        try FileSelection(configuration, paths: paths).files
    }

    /// Scans files (absolute paths under the root). With a cache, files whose content is
    /// unchanged reuse their findings, and the cache is updated: to this scan's files, keeping what
    /// other (partial) runs cached for files this one did not look at.
    /// - Parameter progress: called (from any thread) as files are done.
    public func scan(_ files: [String], cache: inout ScanCache?, progress: (@Sendable (Int, Int) -> Void)? = nil) -> ScanResult {
        let pass = ScanPass(scanner: self, cached: cache?.entries, seed: cache?.seed ?? (0, 0))
        let perFile = FilePipeline(maxFileSize: maxFileSize, jobs: jobs).run(files, through: pass, progress: progress)
        var result = ScanResult()
        // (By path: of two names equal but for normalisation, neither is cached, nor hands on its
        // reading; see `Dictionary(byPath:)`.)
        var entries: [(String, ScanCache.Entry)] = []
        var readings: [(String, SwiftOutlets)] = []
        for (path, outcome) in zip(files, perFile) {
            result.findings += outcome.findings
            result.allowed += outcome.allowed
            if let failure = outcome.failure { result.failures.append(FileFailure(file: outcome.file, reason: failure)) }
            if let error = outcome.definitionError, !result.definitionErrors.contains(error) { result.definitionErrors.append(error) }
            if let misread = outcome.misread {
                result.notJudged.append(NotJudged(path: outcome.file, reason: .misread, detail: misread))
            }
            if let skip = outcome.skipped {
                result.skipped.append(FileFailure(file: outcome.file, reason: "skipped: " + skip))
                var item = NotJudged(path: outcome.file, reason: .tooLarge, detail: "not judged: \(skip)")
                item.possibleUses = outcome.possibleUses
                result.notJudged.append(item)
                continue
            }
            if let entry = outcome.entry {
                entries.append((outcome.file, entry))
                result.contentHashes.append((path, entry.hash))
            }
            if let outlets = outcome.outlets { readings.append((outcome.file, outlets)) }
            result.files.append(outcome.file)
        }
        var fresh = Dictionary(byPath: entries)
        result.outlets = Dictionary(byPath: readings)
        let unchanged = perFile.allSatisfy(\.fromCacheAlone)
        if let previous = cache?.entries {
            let scanned = Set(result.files)
            for (file, entry) in previous where fresh[file] == nil && !scanned.contains(file) { fresh[file] = entry }
        }
        // Every file answered from its metadata alone, none gone: the cache stays as it was.
        let same = unchanged && fresh.count == cache?.entries.count
        cache?.entries = fresh
        if same { cache?.isChanged = false }
        return result
    }

    /// Scans files with the cache file at `cachePath` (nil: without a cache): read when it is
    /// valid for these migrations and this `version` of swiftmod, and written back updated.
    public func scan(_ files: [String], cachePath: String?, version: String,
                     progress: (@Sendable (Int, Int) -> Void)? = nil) -> ScanResult {
        var cache = cachePath.map { ScanCache.load($0, key: ScanCache.key(for: migrations, knownIDs: knownIDs, version: version)) }
        let result = scan(files, cache: &cache, progress: progress)
        // An unchanged tree leaves the cache as it was: nothing to write.
        if let cachePath, let cache, cache.isChanged { cache.save(cachePath) }
        return result
    }

    /// Scans files without a cache.
    public func scan(_ files: [String]) -> ScanResult {
        var none: ScanCache?
        return scan(files, cache: &none)
    }

    struct FileOutcome {
        var file: String
        var findings: [Finding] = []
        var allowed = 0
        var failure: String?
        /// Why the file was skipped on purpose (over the size limit: by how much).
        var skipped: String?
        /// For a skipped file: how many uses of each migration it may hold (see `NotJudged`).
        var possibleUses: [String: Int] = [:]
        /// Where the parser misread the file (its uses there were counted by their text).
        var misread: String?
        var entry: ScanCache.Entry?
        var definitionError: LocatedError?
        /// Answered from the cache by the file's metadata alone (its entry is as it was).
        var fromCacheAlone = false
        /// What the file says about outlets (`Scanner.readsOutlets`).
        var outlets: SwiftOutlets?
    }

    /// One scan as a consumer of the file pipeline: the cache answers unchanged files, the
    /// prefilter skips files that can hold neither a use nor an allow comment.
    struct ScanPass: FileConsumer {
        let scanner: Scanner
        /// The cache's entries; nil when scanning without a cache.
        let cached: [String: ScanCache.Entry]?
        /// The key of the cache's content hashes (`ScanCache.seed`).
        let seed: (UInt64, UInt64)

        func relative(_ file: PipelineFile) -> String {
            RepositoryPath.relative(file.path, root: scanner.root) ?? file.path
        }

        /// The cache's entry of a file: its own, not one of a name equal but for normalisation.
        func cachedEntry(_ relative: String) -> ScanCache.Entry? {
            guard let cached, let index = cached.index(forKey: relative), PathKey.sameBytes(cached[index].key, relative) else { return nil }
            return cached[index].value
        }

        func reuse(_ file: PipelineFile) -> FileOutcome? {
            // Unchanged metadata vouches for unchanged content, unless the entry was racy.
            let relative = relative(file)
            guard let entry = cachedEntry(relative), !entry.racy, entry.stamp == file.stamp else { return nil }
            return FileOutcome(file: relative, findings: entry.findings, allowed: entry.allowed, entry: entry, fromCacheAlone: true)
        }

        func reuse(_ file: PipelineFile, bytes: [UInt8]) -> FileOutcome? {
            let relative = relative(file)
            guard let entry = cachedEntry(relative), let stamp = file.stamp, entry.hash == ContentHash.of(bytes, seed: seed) else { return nil }
            var refreshed = entry
            refreshed.stamp = stamp
            refreshed.racy = false
            return FileOutcome(file: relative, findings: entry.findings, allowed: entry.allowed, entry: refreshed)
        }

        func needsTree(_ bytes: [UInt8]) -> Bool {
            !scanner.prefilter || ByteSearch.contains(bytes, Scanner.allowMarker)
                || scanner.migrations.contains { $0.codemod?.mightMatch(bytes) == true }
                || scanner.readsOutlets && SwiftOutlets.mayDeclareOutlets(bytes)
        }

        func entry(_ file: PipelineFile, _ bytes: [UInt8], _ findings: [Finding], _ allowed: Int) -> ScanCache.Entry? {
            guard cached != nil, let stamp = file.stamp else { return nil }
            return ScanCache.Entry(stamp: stamp, hash: ContentHash.of(bytes, seed: seed), findings: findings, allowed: allowed)
        }

        /// What a file says about outlets, when the scanner reads it.
        func outlets(_ read: () -> SwiftOutlets) -> SwiftOutlets? {
            scanner.readsOutlets ? read() : nil
        }

        func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> FileOutcome {
            let outlets = outlets { SwiftOutlets(classesOf: bytes) }
            return FileOutcome(file: relative(file), entry: entry(file, bytes, [], 0), outlets: outlets)
        }

        func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> FileOutcome {
            let relative = relative(file)
            do {
                let memo = TreeMemo()
                let outlets = outlets {
                    guard SwiftOutlets.mayHoldOutlets(tree.source.bytes) else { return SwiftOutlets(classesOf: tree.source.bytes) }
                    // (The verdicts' reading: the uses a rewrite reaches are not read.)
                    let read = SwiftOutlets(tree, readingUses: false, deferringCalls: true)
                    // (The actions that judge outlets in this tree use it too.)
                    OutletRepository.remember(read, in: memo)
                    return read
                }
                let (findings, allowed) = try scanner.scan(tree, file: relative, memo: memo)
                let bom: [UInt8] = tree.source.hasByteOrderMark ? [0xEF, 0xBB, 0xBF] : []
                var outcome = FileOutcome(file: relative, findings: findings, allowed: allowed,
                                          entry: entry(file, bom + tree.source.bytes, findings, allowed), outlets: outlets)
                if let first = tree.misreadRegions.first {
                    // Said each time, cached or not: the cache keeps findings only.
                    outcome.entry = nil
                    outcome.misread = "lines \(first.start.line)–\(first.end.line) were read by their text only: the parser misread them "
                        + "(a string or regular expression literal across lines, as a bare regex literal like /\\/\"/ makes it); "
                        + "a migration's text there counts as a use"
                }
                return outcome
            } catch let error as LocatedError {
                var outcome = FileOutcome(file: relative, failure: "\(error)")
                outcome.definitionError = error
                return outcome
            } catch {
                return FileOutcome(file: relative, failure: "\(error)")
            }
        }

        func unreadable(_ file: PipelineFile, error: SourceFileError) -> FileOutcome {
            let relative = relative(file)
            if error.isSkip {
                var outcome = FileOutcome(file: relative, skipped: error.sizeProblem ?? error.reason)
                // Too big to parse, not to search: whether it may hold a use decides whether the
                // check can pass without judging it.
                // Mapped, not copied: the file is only searched.
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file.path), options: .alwaysMapped)).map { [UInt8]($0) }
                for migration in scanner.migrations {
                    guard let codemod = migration.codemod else { continue }
                    // Without any of the texts every use needs, it holds none.
                    if let bytes, !codemod.mightMatch(bytes) { continue }
                    guard let bytes, let literal = codemod.requiredLiteral, !literal.isEmpty else {
                        outcome.possibleUses[migration.id] = Int.max
                        continue
                    }
                    let count = ByteSearch.occurrences(of: literal, in: bytes).count
                    if count > 0 { outcome.possibleUses[migration.id] = count }
                }
                return outcome
            }
            // As before the pipeline: a file that is not UTF-8 is named with where it breaks.
            if case let .notUTF8(_, detail) = error { return FileOutcome(file: relative, failure: detail) }
            return FileOutcome(file: relative, failure: error.reason)
        }
    }

    static let allowMarker = Array("swiftmod:allow".utf8)

    /// The findings of one file's syntax tree (a buffer in an editor, say) and how many uses its
    /// allow comments allowed.
    /// - Parameter memo: what is known of the tree already (see `TreeMemo`).
    public func scan(_ tree: SyntaxTree, file relative: String, memo: TreeMemo = TreeMemo()) throws -> ([Finding], Int) {
        let source = tree.source
        let candidates = (prefilter ? migrations.filter { $0.codemod?.mightMatch(source.bytes) == true } : migrations)
            .filter { $0.codemod?.definition.applies(to: relative) != false }
        let mayAllow = !prefilter || ByteSearch.contains(source.bytes, Self.allowMarker)
        guard !candidates.isEmpty || mayAllow else { return ([], 0) }
        var uses: [Finding] = []
        // Where the parser could not read, or misread, the text: found once for all migrations.
        let unread = tree.root.hasError ? tree.errorRegions.filter(\.isError) + tree.misreadRegions : []
        for migration in candidates {
            uses += try findings(of: migration, in: tree, file: relative, unread: unread, memo: memo)
        }
        uses.sort { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
        guard mayAllow else { return (uses, 0) }
        let (kept, allowed, problems) = applyAllowComments(to: uses, in: tree, file: relative)
        let all = (kept + problems).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
        return (all, allowed)
    }

    /// - Parameter unread: the regions the parser could not read or misread (see `scan(_:file:)`).
    func findings(of migration: Migration, in tree: SyntaxTree, file: String, unread: [Node], memo: TreeMemo = TreeMemo()) throws -> [Finding] {
        guard let codemod = migration.codemod else { return [] }
        let uses = try codemod.uses(in: tree, memo: memo)
        var result = uses.map { use -> Finding in
            let node = tree.root.descendant(spanning: use.range)
            var finding = Finding(kind: .use, migration: migration.id, codemod: codemod.definition.id, file: file,
                                  line: use.start.line, column: use.start.column, endLine: use.end.line, endColumn: use.end.column,
                                  text: Scope.folded(use.text), scope: node.map(Scope.path) ?? "", inErrorRegion: use.inErrorRegion)
            finding.setCharacterColumns(start: use.start, end: use.end, in: tree.source)
            return finding
        }
        // Occurrences of the required text inside unreadable regions are uses too.
        if let literal = codemod.requiredLiteral, !literal.isEmpty {
            let covered = uses.map(\.range)
            for region in unread {
                for offset in ByteSearch.occurrences(of: literal, in: tree.source.bytes, within: region.byteRange)
                where !covered.contains(where: { $0.contains(offset) }) {
                    let start = tree.source.location(ofByte: offset)
                    let end = tree.source.location(ofByte: offset + literal.count)
                    var finding = Finding(kind: .use, migration: migration.id, codemod: codemod.definition.id, file: file,
                                          line: start.line, column: start.column, endLine: end.line, endColumn: end.column,
                                          text: String(decoding: literal, as: UTF8.self), scope: Scope.path(of: region),
                                          inErrorRegion: true)
                    finding.setCharacterColumns(start: start, end: end, in: tree.source)
                    result.append(finding)
                }
            }
        }
        return result
    }

    /// Removes the uses allowed by comments; returns what is left, how many were allowed, and the
    /// findings for wrong allow comments.
    ///
    /// Allow comments are found through the syntax tree's comment nodes, so a marker in a string is
    /// no comment, and a comment beside a string is still one.
    func applyAllowComments(to uses: [Finding], in tree: SyntaxTree, file: String) -> ([Finding], Int, [Finding]) {
        var remaining = uses
        var allowed = 0
        var problems: [Finding] = []
        let text = tree.source
        for comment in AllowComment.all(in: tree) {
            let start = text.location(ofByte: comment.markerOffset)
            let markerEnd = text.location(ofByte: comment.node.byteRange.upperBound)
            let line = start.line
            func problem(_ kind: Finding.Kind, _ id: String, _ message: String) -> Finding {
                Finding(kind: kind, migration: id, codemod: "", file: file, line: line, column: start.column,
                        endLine: line, endColumn: markerEnd.line == line ? markerEnd.column : start.column + Self.allowMarker.count,
                        text: message, scope: Scope.path(of: comment.node), inErrorRegion: false)
            }
            let id: String
            switch comment.form {
            case let .broken(reason):
                problems.append(problem(.unusedAllow, "", "swiftmod:allow comment allows nothing: \(reason); write `// swiftmod:allow ID -- reason`"))
                continue
            case let .allow(allowID, _):
                id = allowID
            }
            // A comment for a migration that is not being scanned is not this run's business.
            if knownIDs.contains(id), !migrations.contains(where: { $0.id == id }) { continue }
            if let index = remaining.firstIndex(where: { $0.migration == id && ($0.line == line || $0.line == line + 1) }) {
                remaining.remove(at: index)
                allowed += 1
                if case .allow(_, reason: nil) = comment.form {
                    problems.append(problem(.allowWithoutReason, id, "swiftmod:allow \(id) needs a reason: // swiftmod:allow \(id) -- why"))
                }
            } else {
                let known = migrations.contains { $0.id == id }
                problems.append(problem(.unusedAllow, id, known
                    ? "swiftmod:allow \(id) allows nothing: no use of \(id) on this line or the next"
                    : "swiftmod:allow names '\(SafeText.oneLine(id))', which is not a configured migration"))
            }
        }
        return (remaining, allowed, problems)
    }
}

/// One comment of a file that holds the `swiftmod:allow` marker, read from the syntax tree.
///
/// The one allowed form is a line comment that starts with the marker:
/// `// swiftmod:allow ID -- reason`. A block comment, a comment with the marker elsewhere or more
/// than once, or a marker without an id is broken: it allows nothing and is reported.
struct AllowComment {
    enum Form: Equatable {
        case allow(id: String, reason: String?)
        case broken(String)
    }

    /// The comment node.
    var node: Node
    /// Where its first marker starts.
    var markerOffset: Int
    var form: Form

    static let marker = "swiftmod:allow"

    /// Every comment holding the marker, in file order (markers in strings and code are not
    /// comments and are left alone).
    static func all(in tree: SyntaxTree) -> [AllowComment] {
        var result: [AllowComment] = []
        var seen = Set<Int>()
        for offset in ByteSearch.occurrences(of: Array(marker.utf8), in: tree.source.bytes) {
            guard let node = tree.root.descendant(spanning: offset..<(offset + marker.utf8.count)),
                  node.isComment,
                  // The grammar reads `//` and `/*` inside a multi-line string as comments.
                  !node.ancestors.contains(where: { $0.kind.hasSuffix("string_literal") }),
                  seen.insert(node.byteRange.lowerBound).inserted else { continue }
            result.append(AllowComment(node: node, markerOffset: offset, form: form(of: node.text, kind: node.kind)))
        }
        return result
    }

    /// What a comment's text says.
    static func form(of text: String, kind: String) -> Form {
        if kind == "multiline_comment" {
            return .broken("a block comment (/* */) cannot allow a use; only a line comment can")
        }
        let markers = text.components(separatedBy: marker).count - 1
        if markers > 1 { return .broken("\(markers) markers in one comment; give each allow its own comment and line") }
        let body = text.drop(while: { $0 == "/" }).drop(while: { $0 == " " || $0 == "\t" })
        guard body.hasPrefix(marker) else { return .broken("the comment must start with the marker") }
        let rest = body.dropFirst(marker.count)
        guard let first = rest.first, first == " " || first == "\t" else {
            return .broken(rest.isEmpty ? "it names no migration" : "the marker must be followed by a space and a migration id")
        }
        let afterBlanks = rest.drop(while: { $0 == " " || $0 == "\t" })
        let id = String(afterBlanks.prefix(while: { $0.isLetter || $0.isNumber || "_.-".contains($0) }))
        if id.isEmpty || id.hasPrefix("--") { return .broken("it names no migration") }
        let tail = afterBlanks.dropFirst(id.count).trimmingCharacters(in: .whitespaces)
        guard tail.hasPrefix("--") else { return .allow(id: id, reason: nil) }
        let reason = tail.dropFirst(2).trimmingCharacters(in: .whitespaces)
        return .allow(id: id, reason: reason.isEmpty ? nil : reason)
    }
}
