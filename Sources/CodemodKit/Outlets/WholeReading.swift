import InterfaceBuilder
import SwiftTree
import Workspace

/// The Swift files read by their text alone (`SwiftOutlets.deferredExtensions`) that the verdicts
/// must read whole, read whole (in parallel): for a rewrite, all of them; for the verdicts alone,
/// those whose types matter (`RelevantTypes`) and whose text can say something the verdicts read.
///
/// A file whose types matter is read whole at once when its declarations may hide a type from
/// its text (`SwiftOutlets.textMayMissTypes`) or when it may remove or re-add a view or declare a
/// helper (`SwiftOutlets.mayHoldViewCode`); again, until no more files matter (a file read whole
/// may show a superclass that makes another file's types matter). The others are set aside:
/// their code says nothing to the verdicts but calls of helpers that other files declare, and
/// the members and actions they declare. So a file set aside is read whole when it names a
/// helper (`hide(label)`), and, when a connection is found stale, when it names its member
/// (`readNaming`). A file the cache has read whole is not read again.
struct WholeReading {
    typealias SwiftFile = (path: String, outlets: SwiftOutlets)

    /// What every Swift file says: whole once read.
    private(set) var swift: [SwiftFile]
    /// The cache entries of the files read (not the cache's).
    private(set) var entries: [String: OutletReadingCache.Entry] = [:]
    /// Where each file of `swift` is.
    private let paths: [String]
    private let documents: [IBDocument]
    private let all: Bool
    private let jobs: Int
    private let cache: OutletReadingCache
    /// Files whose types matter but whose text holds no view code, by index, with their text.
    private var setAside: [Int: SourceText] = [:]

    /// Reads what the verdicts need (or, with `all`, every file).
    init(_ swift: [SwiftFile], at paths: [String], documents: [IBDocument], all: Bool, jobs: Int, cache: OutletReadingCache) {
        self.swift = swift
        self.paths = paths
        self.documents = documents
        self.all = all
        self.jobs = jobs
        self.cache = cache
        while true {
            let relevant = all ? nil : RelevantTypes(documents: documents, swift: self.swift.map(\.outlets))
            let candidates = self.swift.indices.filter {
                setAside[$0] == nil && (relevant?.needsWholeReading(self.swift[$0].outlets) ?? (self.swift[$0].outlets.deferredExtensions != nil))
            }
            guard let files = look(at: candidates), !files.isEmpty else { break }
            read(files)
        }
        // Of the files set aside, and of those whose calls were not read (`scan`'s), those that
        // may call a helper some file declares.
        let helpers = Set(self.swift.flatMap { $0.outlets.helpers.map(\.method) })
        readNaming(helpers)
        readCalls(naming: helpers)
    }

    /// Reads whole again the files read but for their calls (`SwiftOutlets.helperCallsUnread`)
    /// whose text names a helper (for a rewrite: all of them).
    private mutating func readCalls(naming helpers: Set<String>) {
        let unread = swift.indices.filter { swift[$0].outlets.helperCallsUnread }
        guard !unread.isEmpty, all || !helpers.isEmpty else { return }
        let texts = helpers.map { Array($0.utf8) }
        let paths = paths, all = all
        let names: [Bool] = ParallelMap.map(unread, jobs: jobs, worker: { () }) { _, index in
            // (One that cannot be read is tried again below, and keeps what it said.)
            guard !all, let source = try? SourceText(contentsOfFile: paths[index]) else { return true }
            return texts.contains { ByteSearch.contains(source.bytes, $0) }
        }
        let files = zip(unread, names).filter(\.1).map(\.0)
        if !files.isEmpty { read(Dictionary(uniqueKeysWithValues: files.map { ($0, nil) })) }
    }

    /// Takes what the cache read whole of some files, and sets aside the files whose text holds
    /// no view code; the rest, with their text, are to be read whole.
    private mutating func look(at candidates: [Int]) -> [Int: SourceText?]? {
        guard !candidates.isEmpty else { return nil }
        let paths = paths, cache = cache
        let looked: [(known: SwiftOutlets?, source: SourceText?)] = ParallelMap.map(candidates, jobs: jobs, worker: { () }) { _, index in
            let path = paths[index]
            if let known = cache.fresh(path, stamp: FileStamp(statusOf: path))?.swift, known.deferredExtensions == nil { return (known, nil) }
            return (nil, try? SourceText(contentsOfFile: path))
        }
        var files: [Int: SourceText?] = [:]
        for (position, index) in candidates.enumerated() {
            if let known = looked[position].known {
                swift[index].outlets = known
            } else if let source = looked[position].source, !all, !swift[index].outlets.textMayMissTypes, !SwiftOutlets.mayHoldViewCode(source.bytes) {
                setAside[index] = source
            } else {
                // (One that cannot be read is tried again, and keeps what its text said.)
                files[index] = looked[position].source
            }
        }
        return files
    }

    /// Reads whole the files set aside whose text holds one of some names (and, if given, the
    /// text `required` too).
    /// - Returns: the indexes (in `swift`) of the files read.
    @discardableResult
    mutating func readNaming(_ names: Set<String>, alongside required: String? = nil) -> [Int] {
        let texts = names.filter { !$0.isEmpty }.map { Array($0.utf8) }
        let required = required.map { Array($0.utf8) }
        let named = setAside.filter { _, source in
            texts.contains { ByteSearch.contains(source.bytes, $0) } && required.map { ByteSearch.contains(source.bytes, $0) } != false
        }
        guard !named.isEmpty else { return [] }
        for index in named.keys { setAside[index] = nil }
        read(named.mapValues { Optional($0) })
        return named.keys.sorted()
    }

    /// Reads some files whole (from their text, when it was read), in parallel.
    private mutating func read(_ files: [Int: SourceText?]) {
        let indexes = files.keys.sorted()
        let paths = paths, all = all
        let read: [(outlets: SwiftOutlets?, entry: OutletReadingCache.Entry?)] = ParallelMap.map(indexes, jobs: jobs, worker: { Parser() }) { parser, index in
            let path = paths[index]
            let stamp = FileStamp(statusOf: path)
            guard let source = (files[index] ?? nil) ?? (try? SourceText(contentsOfFile: path)) else { return (nil, nil) }
            let outlets = SwiftOutlets(parser.parse(source), readingUses: all)
            return (outlets, stamp.map { OutletReadingCache.Entry(stamp: $0, swift: outlets) })
        }
        for (position, index) in indexes.enumerated() {
            // (A file that can no longer be read keeps what its text said, and is not asked for again.)
            var outlets = read[position].outlets ?? swift[index].outlets
            outlets.deferredExtensions = nil
            swift[index].outlets = outlets
            if let entry = read[position].entry { entries[paths[index]] = entry }
        }
    }
}
