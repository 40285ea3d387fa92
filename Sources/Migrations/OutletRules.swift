import CodemodKit
import Foundation
import InterfaceBuilder
import SwiftTree
import Workspace

/// The outlet rules of a configuration (`rules:` of kind `outlet-not-guaranteed` and
/// `stale-connection`) checked over the repository's storyboards, xibs and Swift code, as
/// findings that are locked down, allowed and tracked like uses of a deprecated pattern.
///
/// - `outlet-not-guaranteed`: an implicitly unwrapped outlet whose view may be absent (not
///   connected in some storyboard or xib that uses its class, or removed from its superview),
///   at the outlet's name in Swift; `// swiftmod:allow ID -- reason` there allows it. Its text is
///   `Class.outlet`, so it follows the outlet across moves.
/// - `stale-connection`: a storyboard's or xib's connection to an outlet or action its class
///   does not declare, at the connection's line in the Interface Builder file (which takes no
///   comments: the baseline allows it). Its text is `Class.name`.
public struct OutletRules: Sendable, FindingsByFile {
    public let migrations: [Migration]
    /// The findings not allowed inline, and wrong allow comments, by repo-relative file.
    public private(set) var findingsByFile: [String: [Finding]] = [:]
    public private(set) var allowedByFile: [String: Int] = [:]
    /// Interface Builder files that could not be read: the verdicts of the classes they use may be wrong.
    /// Storyboards and xibs that could not be read: what they connect is not judged, so a check
    /// must fail rather than take their findings as gone.
    public private(set) var failures: [FileFailure] = []
    /// Storyboards and xibs that no target of an Xcode project builds: not judged.
    public private(set) var notBuilt: [String] = []
    /// The lines of the outlets that may be absent, by repo-relative Swift file: where
    /// `strong-iboutlet` (a codemod with the `outlet-guarantee` step) has no use, which a scan,
    /// reading one file at a time, cannot know (see `removeUsesLeftAlone`).
    public private(set) var mayBeAbsent: [String: [SwiftOutlets.Outlet]] = [:]

    /// How many Swift files the rules parsed themselves, beyond the scan's parsing (none when
    /// their findings came from the cache): those the verdicts need whole, with a cache or
    /// without (`OutletRepository.swiftFilesParsed`).
    public private(set) var swiftFilesParsed = 0

    public static let codemodID = "outlet-rules"

    /// Reads the repository under the configuration's root and checks the outlet rules among
    /// `migrations` (others are ignored).
    /// - Parameter cacheVersion: keep what each file gave in the root's `.swiftmod/cache` (nil: no cache).
    /// - Parameter read: what Swift files say about outlets, read by a scan already
    ///   (`ScanResult.outlets`, by repo-relative path): not parsed again.
    /// - Parameter walked: the files `OutletRepository.files(under:)` gives for the root, walked already.
    /// - Parameter contentHashes: the content hashes of files the scan read (`ScanResult.contentHashes`),
    ///   in the order of `walked` (another order only costs time).
    /// - Parameter prepared: what was read beside the scan (`prepare`).
    public init(configuration: Configuration, migrations: [Migration], jobs: Int? = nil, cacheVersion: String? = nil,
                read: [String: SwiftOutlets] = [:], walked: [String]? = nil, contentHashes: [(path: String, hash: UInt64)] = [],
                prepared: Preparation? = nil) {
        let rules = migrations.filter { $0.settings.rule?.isOutletRule == true }
        let root = configuration.root
        // Nothing changed since the last time (no file came, went or changed, the same rules):
        // its findings, without reading any file.
        let resultsPath = Self.resultsPath(root: root)
        let files = walked ?? (try? OutletRepository.files(under: [root])) ?? []
        let state = cacheVersion.map {
            Self.state(files: files, rules: rules, version: $0, configuration: configuration, contentHashes: contentHashes,
                       stamps: walked == nil ? nil : prepared?.stamps?.value)
        }
        if let state, let payload = CacheFile.read(resultsPath, format: Results.format, key: state) {
            var reader = ByteReader(payload)
            if let cached = try? Results(from: &reader) {
                self.init(rules: rules, results: cached)
                return
            }
        }
        self.init(configuration: configuration, rules: rules, jobs: jobs, cacheVersion: cacheVersion, read: read, files: files,
                  contentHashes: Dictionary(byPath: contentHashes.lazy.map { ($0.path, $0.hash) }), prepared: prepared?.reading?.value)
        if let state {
            let results = Results(findingsByFile: findingsByFile, allowedByFile: allowedByFile, failures: failures.map { [$0.file, $0.reason] },
                                  notBuilt: notBuilt, mayBeAbsent: mayBeAbsent)
            var writer = ByteWriter()
            results.write(to: &writer)
            CacheFile.write(resultsPath, format: Results.format, key: state, payload: writer.bytes)
        }
    }

    /// What a scan starts for the rules beside its parsing, on threads of their own (`prepare`).
    public struct Preparation: Sendable {
        /// The projects, storyboards and xibs, read: when the rules' findings cannot come from
        /// their cache (there is none, or no cache is used).
        let reading: BackgroundWork<InterfaceBuilderReading>?
        /// The stamps of the walked files that are no Swift files (`stamps(of:)`), taken before
        /// any of them is read: what the findings' cache is checked against (a file saved while
        /// the scan runs then counts as changed, never as what was read).
        let stamps: BackgroundWork<[FileStamp?]>?
    }

    /// Starts what the rules read of `walked` that a scan does not: the stamps of the projects,
    /// storyboards and xibs (with a cache), and, when the rules' findings cannot come from their
    /// cache (there is none, or no cache is used), what they say (a warm scan reads nothing, or
    /// only what changed, after the scan, when it knows which).
    public static func prepare(configuration: Configuration, walked: [String], jobs: Int? = nil,
                               cacheVersion: String? = nil) -> Preparation {
        let root = configuration.root
        let stamps = cacheVersion.map { _ in BackgroundWork { Self.stamps(of: walked) } }
        if cacheVersion != nil, FileManager.default.fileExists(atPath: resultsPath(root: root)) {
            return Preparation(reading: nil, stamps: stamps)
        }
        let reading = InterfaceBuilderReading.inBackground(root: root, walked: walked, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                                           display: display(root: root), cacheVersion: cacheVersion,
                                                           first: { _ = stamps?.value })
        return Preparation(reading: reading, stamps: stamps)
    }

    /// The stamps of the files that are no Swift files (whose content hashes a scan does not
    /// know), in order.
    static func stamps(of files: [String]) -> [FileStamp?] {
        files.filter { !$0.hasSuffix(".swift") }.map(FileStamp.init(statusOf:))
    }

    /// How the rules name a file: relative to the root.
    static func display(root: String) -> @Sendable (String) -> String {
        { RepositoryPath.relative($0, root: root) ?? $0 }
    }

    /// Where the rules' findings are kept between runs.
    static func resultsPath(root: String) -> String {
        (root as NSString).appendingPathComponent(".swiftmod/cache/outlet-rules.cache")
    }

    private init(rules: [Migration], results: Results) {
        migrations = rules
        findingsByFile = results.findingsByFile
        allowedByFile = results.allowedByFile
        notBuilt = results.notBuilt
        mayBeAbsent = results.mayBeAbsent
        failures = results.failures.compactMap { $0.count == 2 ? FileFailure(file: $0[0], reason: $0[1]) : nil }
    }

    /// Whether some of `migrations` leave an outlet that may be absent alone (`strong-iboutlet`'s
    /// `outlet-guarantee` step): a scan must then know the storyboards and xibs.
    public static func judgeOutlets(_ migrations: [Migration]) -> Bool {
        migrations.contains { leavesMayBeAbsentOutletsAlone($0) }
    }

    static func leavesMayBeAbsentOutletsAlone(_ migration: Migration) -> Bool {
        migration.codemod?.definition.rewrite.contains(.action(name: "outlet-guarantee")) == true
    }

    /// Whether some files (as `OutletRepository.files(under:)` gives them) hold a storyboard or xib.
    public static func holdInterfaceBuilderFiles(_ files: [String]) -> Bool {
        files.contains(where: IBDocument.isInterfaceBuilderFile)
    }

    /// Removes from findings the uses of codemods that leave a may-be-absent outlet alone (their
    /// `outlet-guarantee` step) at such outlets: a scan judges them by their file's code alone
    /// (it reads one file at a time); the storyboards and xibs say more.
    public func removeUsesLeftAlone(from findings: inout [Finding], of migrations: [Migration]) {
        // (A few: compared, not hashed, for each of thousands of findings.)
        let guarded = migrations.filter(Self.leavesMayBeAbsentOutletsAlone).map(\.id)
        guard !guarded.isEmpty, !mayBeAbsent.isEmpty else { return }
        // (A file's findings come together: its outlets are looked up once for all of them, and
        // the findings of a file without any are passed over. Read through a buffer: an element
        // read from an array is copied, its strings retained.)
        let removed = findings.withUnsafeBufferPointer { findings in
            var removed: [Int] = []
            var index = findings.startIndex
            while index < findings.endIndex {
                var end = index + 1
                // (By bytes: two names equal but for normalisation are two files.)
                while end < findings.endIndex, PathKey.sameBytes(findings[end].file, findings[index].file) { end += 1 }
                // (Of the file itself, not of one whose name is equal but for normalisation.)
                if let found = mayBeAbsent.index(forKey: findings[index].file), PathKey.sameBytes(mayBeAbsent[found].key, findings[index].file) {
                    let outlets = mayBeAbsent[found].value
                    for position in index..<end where findings[position].kind == .use && guarded.contains(findings[position].migration) {
                        let (line, column) = (findings[position].line, findings[position].column)
                        if outlets.contains(where: { $0.declares(line: line, column: column) }) { removed.append(position) }
                    }
                }
                index = end
            }
            return removed
        }
        findings.remove(at: removed)
    }

    /// What the rules found, kept between runs: as plain bytes (a property list decoder took most
    /// of a warm scan's extra time).
    struct Results {
        var findingsByFile: [String: [Finding]]
        var allowedByFile: [String: Int]
        var failures: [[String]]
        var notBuilt: [String]
        var mayBeAbsent: [String: [SwiftOutlets.Outlet]]

        static let format = "swiftmod-outlet-rules-11"

        func write(to writer: inout ByteWriter) {
            writer.write(findingsByFile.count)
            for file in findingsByFile.keys.sorted() {
                writer.write(file)
                writer.write(findingsByFile[file]!.count)
                for finding in findingsByFile[file]! { finding.write(to: &writer) }
            }
            writer.writeLines(allowedByFile)
            writer.write(failures.count)
            for failure in failures { writer.writeStrings(failure) }
            writer.writeStrings(notBuilt)
            writer.write(mayBeAbsent.count)
            for file in mayBeAbsent.keys.sorted() {
                writer.write(file)
                writer.write(mayBeAbsent[file]!.count)
                for outlet in mayBeAbsent[file]! { outlet.write(to: &writer) }
            }
        }
    }

    /// A digest of what the findings depend on: every file the outlet rules read (its path, and
    /// its content hash where the scan knows it, else its stamp), the rules, and the version that
    /// judged them.
    /// - Parameter files: as walked (`OutletRepository.files(under:)`, sorted): in another order,
    ///   the same files only give another digest.
    /// - Parameter contentHashes: by path as in `files` (`ScanResult.contentHashes`), in the order
    ///   of `files`: the two are read side by side (a file the order leaves behind counts by its stamp).
    /// - Parameter stamps: `stamps(of: files)`, taken already (beside the scan).
    public static func state(files: [String], rules: [Migration], version: String, configuration: Configuration,
                             contentHashes: [(path: String, hash: UInt64)] = [], stamps: [FileStamp?]? = nil) -> String {
        var digest = ByteWriter()
        // (Spelled out: describing a value by reflection takes longer than the rest.)
        digest.write(version + "\n" + rules.map { "\($0.id) \($0.settings.rule?.name ?? "")" }.joined(separator: ",") + "\n"
            + configuration.include.map(\.description).joined(separator: "\u{1}") + "\n"
            + configuration.exclude.map(\.description).joined(separator: "\u{1}") + "\n")
        // (As bytes: thousands of numbers written out as text cost more than the stats.)
        var next = contentHashes.startIndex
        var stamped = stamps?.makeIterator()
        // (Each path without the root's: half as many bytes to hash.)
        let root = Array(configuration.root.hasSuffix("/") ? configuration.root.utf8 : (configuration.root + "/").utf8)
        for file in files {
            digest.write(file, droppingPrefix: root)
            let taken = file.hasSuffix(".swift") ? nil : stamped?.next()
            // (Side by side, not looked up: the scan's files come in the walk's order. Compared
            // by bytes: two names equal but for normalisation are two files.)
            while next < contentHashes.endIndex, !PathKey.sameBytes(contentHashes[next].path, file), contentHashes[next].path < file { next += 1 }
            if next < contentHashes.endIndex, PathKey.sameBytes(contentHashes[next].path, file) {
                digest.write(UInt64(1))
                digest.write(contentHashes[next].hash)
                next += 1
                continue
            }
            let stamp = taken ?? FileStamp(statusOf: file)
            digest.write(stamp != nil)
            stamp?.write(to: &digest)
        }
        return String(ContentHash.of(digest.bytes), radix: 16)
    }

    private init(configuration: Configuration, rules: [Migration], jobs: Int?, cacheVersion: String?, read: [String: SwiftOutlets], files: [String],
                 contentHashes: [String: UInt64], prepared: InterfaceBuilderReading?) {
        let root = configuration.root
        let repository = OutletRepository(root: root, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                          display: Self.display(root: root), cacheVersion: cacheVersion, read: read,
                                          hashes: contentHashes, walked: files, prepared: prepared)
        self.init(configuration: configuration, migrations: rules, repository: repository)
        swiftFilesParsed = repository.swiftFilesParsed
    }

    /// The outlet rules among `migrations` checked on a repository read already (whose files are
    /// named repo-relative).
    /// - Parameter texts: the bytes of some Swift files (repo-relative), in place of what is on
    ///   disk, for their allow comments: what an editor shows.
    public init(configuration: Configuration, migrations: [Migration], repository: OutletRepository, texts: [String: [UInt8]] = [:]) {
        self.migrations = migrations.filter(\.isOutletRule)
        let root = configuration.root
        notBuilt = repository.notBuilt
        failures = repository.unreadableFiles.map { FileFailure(file: $0.file, reason: "\($0.reason); its outlets and connections are not judged") }
        for entry in repository.classification.entries where entry.verdict.mayBeAbsent {
            mayBeAbsent[entry.file, default: []].append(entry.outlet)
        }
        var all: [Finding] = []
        if let rule = self.migrations.first(where: { $0.settings.rule == .outletNotGuaranteed }) {
            for entry in repository.classification.entries where entry.verdict.mayBeAbsent && entry.outlet.isImplicitlyUnwrapped {
                let outlet = entry.outlet
                // (Named as the code names it: a class told apart from a namesake keeps its name.)
                let className = SameNamedClasses.name(of: outlet.className)
                var finding = Finding(kind: .use, migration: rule.id, codemod: Self.codemodID, file: entry.file, line: outlet.line,
                                      column: outlet.nameColumn, endLine: outlet.line, endColumn: outlet.nameColumn + outlet.name.utf8.count,
                                      text: "\(className).\(outlet.name)", scope: className, inErrorRegion: false)
                finding.detail = "`\(outlet.className).\(outlet.name)` may be absent: \(entry.reason)"
                all.append(finding)
            }
        }
        if let rule = self.migrations.first(where: { $0.settings.rule == .staleConnection }) {
            for stale in repository.classification.stale {
                // (Its scope is the class as judged: of two classes of one name, which.)
                let className = SameNamedClasses.name(of: stale.className)
                var finding = Finding(kind: .use, migration: rule.id, codemod: Self.codemodID, file: stale.file, line: stale.line,
                                      column: 1, endLine: stale.line, endColumn: 1, text: "\(className).\(stale.name)",
                                      scope: stale.className, inErrorRegion: false)
                finding.detail = stale.kind == .action
                    ? "`\(stale.className)` declares no action `\(stale.name)`: the app crashes when the control sends it (unrecognized selector)"
                    : "`\(stale.className)` declares no outlet `\(stale.name)`: the scene crashes when it loads (not key value coding-compliant)"
                all.append(finding)
            }
        }
        // Allow comments in the Swift files of the findings (and any naming these rules).
        let ids = Set(self.migrations.map(\.id))
        // What the configuration's `include:`/`exclude:` leave out is not judged (a storyboard
        // is no Swift file `include:` names: only `exclude:` leaves it out).
        all.removeAll { finding in
            finding.file.hasSuffix(".swift") ? !configuration.covers(finding.file) : configuration.exclude.contains { $0.matches(finding.file) }
        }
        var byFile = Dictionary(grouping: all, by: \.file)
        // The class side of stale connections: at the class's declaration in Swift, one finding
        // stands for all of a class's stale connections, so that an allow comment there allows
        // them (the storyboard's side takes no comments: the baseline allows it).
        var proxies: [String: [Finding]] = [:]
        let stale = all.filter { !$0.file.hasSuffix(".swift") }
        for (className, findings) in Dictionary(grouping: stale, by: \.scope) {
            // (At each declaration of the class: a comment at any allows them.)
            for declaration in repository.classification.declarations[className] ?? [] {
                guard var proxy = findings.first else { continue }
                proxy.file = declaration.file
                proxy.line = declaration.line
                proxy.endLine = declaration.line
                proxy.text = className
                proxies[declaration.file, default: []].append(proxy)
            }
        }
        var files = Set(byFile.keys.filter { $0.hasSuffix(".swift") }).union(proxies.keys)
        for id in ids { files.formUnion(repository.allowComments[id] ?? []) }
        var allowedClasses: [String: String] = [:]
        for file in files {
            var comments: [ImportScanner.Comment] = []
            if let bytes = texts[file] ?? FileManager.default.contents(atPath: RepositoryPath.absolute(file, root: root)).map([UInt8].init) {
                comments = ImportScanner.scan(bytes).allowComments
            }
            let standing = proxies[file] ?? []
            let (remaining, allowed, problems) = ModuleRules.applyAllowComments(to: (byFile[file] ?? []) + standing, comments: comments, file: file,
                                                                                ids: ids, what: "finding")
            // (A stale connection's finding in a Swift file is one that stands for some.)
            let left = Set(remaining.filter { finding in standing.contains { $0.migration == finding.migration && $0.text == finding.text } }.map(\.text))
            for proxy in standing where !left.contains(proxy.text) { allowedClasses[proxy.text] = file }
            byFile[file] = remaining.filter { finding in !standing.contains { $0.migration == finding.migration && $0.text == finding.text } }
            let findings = (byFile[file]! + problems).sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            if !findings.isEmpty { findingsByFile[file] = findings }
            if allowed > 0 { allowedByFile[file] = allowed }
        }
        for (file, findings) in byFile where !file.hasSuffix(".swift") {
            let kept = findings.filter { allowedClasses[$0.scope] == nil }
            for finding in findings where allowedClasses[finding.scope] != nil { allowedByFile[allowedClasses[finding.scope]!, default: 0] += 1 }
            let sorted = kept.sorted { ($0.line, $0.column, $0.migration) < ($1.line, $1.column, $1.migration) }
            if !sorted.isEmpty { findingsByFile[file] = sorted }
        }
        // (The comment that allowed a class's stale connections counted once for all of them.)
        for (className, file) in allowedClasses where stale.contains(where: { $0.scope == className }) { allowedByFile[file, default: 0] -= 1 }
    }

}

// (Apart from the type, so that it keeps its memberwise initializer.)
extension OutletRules.Results {
    /// Reads what `write(to:)` wrote.
    init(from reader: inout ByteReader) throws {
        findingsByFile = [:]
        for _ in 0..<(try reader.readCount()) {
            let file = try reader.readString()
            findingsByFile[file] = try (0..<reader.readCount()).map { _ in try Finding(from: &reader, file: file) }
        }
        allowedByFile = try reader.readLines()
        failures = try (0..<reader.readCount()).map { _ in try reader.readStrings() }
        notBuilt = try reader.readStrings()
        mayBeAbsent = [:]
        for _ in 0..<(try reader.readCount()) {
            let file = try reader.readString()
            mayBeAbsent[file] = try (0..<reader.readCount()).map { _ in try SwiftOutlets.Outlet(from: &reader) }
        }
    }
}
