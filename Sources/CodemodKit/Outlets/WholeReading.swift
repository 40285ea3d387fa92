import Foundation
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
    /// How many files were parsed whole here (not those the cache had read whole).
    private(set) var parsedCount = 0
    /// Where each file of `swift` is.
    private let paths: [String]
    private let all: Bool
    private let jobs: Int
    private let cache: OutletReadingCache
    /// Files whose types matter but whose text holds no view code, by index.
    private var setAside: Set<Int> = []

    /// Reads what the verdicts need (or, with `all`, every file).
    init(_ swift: [SwiftFile], at paths: [String], documents: [IBDocument], all: Bool, jobs: Int, cache: OutletReadingCache) {
        self.swift = swift
        self.paths = paths
        self.all = all
        self.jobs = jobs
        self.cache = cache
        var relevant = all ? nil : RelevantTypes(documents: documents, swift: swift.map(\.outlets))
        while true {
            let candidates = self.swift.indices.filter {
                !setAside.contains($0) && (relevant?.needsWholeReading(self.swift[$0].outlets) ?? (self.swift[$0].outlets.deferredExtensions != nil))
            }
            // Only a file whose declarations its text may have missed can show a type that
            // makes another file matter.
            let revealing = candidates.contains { self.swift[$0].outlets.textMayMissTypes }
            let files = look(at: candidates)
            read(files)
            guard !all, revealing else { break }
            relevant = RelevantTypes(documents: documents, swift: self.swift.map(\.outlets))
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
        if all {
            read(unread)
        } else {
            read(Self.naming(helpers, among: unread, at: paths, jobs: jobs))
        }
    }

    /// Takes what the cache read whole of some files, and sets aside the files whose text holds
    /// no view code (`SwiftOutlets.textHoldsViewCode`).
    /// - Returns: the rest, to be read whole.
    private mutating func look(at candidates: [Int]) -> [Int] {
        let paths = paths, cache = cache
        let known: [SwiftOutlets?] = ParallelMap.map(candidates, jobs: jobs, worker: { () }) { _, index in
            guard let known = cache.fresh(paths[index])?.swift, known.deferredExtensions == nil else { return nil }
            return known
        }
        var files: [Int] = []
        for (position, index) in candidates.enumerated() {
            let outlets = swift[index].outlets
            if let known = known[position] {
                swift[index].outlets = known
            } else if !all, !outlets.textMayMissTypes, !outlets.textHoldsViewCode {
                setAside.insert(index)
            } else {
                files.append(index)
            }
        }
        return files
    }

    /// Reads whole the files set aside whose text holds one of some names (and, if given, the
    /// text `required` too).
    /// - Returns: the indexes (in `swift`) of the files read.
    @discardableResult
    mutating func readNaming(_ names: Set<String>, alongside required: String? = nil) -> [Int] {
        let named = Self.naming(names, alongside: required, among: setAside.sorted(), at: paths, jobs: jobs)
        setAside.subtract(named)
        read(named)
        return named
    }

    /// Of some files whose text holds no view code, those whose text holds one of some names
    /// (and `required`). A name that holds view code itself (`addSubview`) is in none of them.
    /// A file that cannot be read counts: reading it whole says so.
    private static func naming(_ names: Set<String>, alongside required: String? = nil, among files: [Int], at paths: [String], jobs: Int) -> [Int] {
        let texts = names.filter { !$0.isEmpty && !SwiftOutlets.mayHoldViewCode(Array($0.utf8)) }.map { Array($0.utf8) }
        guard !texts.isEmpty, !files.isEmpty else { return [] }
        let required = required.map { Array($0.utf8) }
        let holds: [Bool] = ParallelMap.map(files, jobs: jobs, worker: { () }) { _, index in
            guard let bytes = FileManager.default.contents(atPath: paths[index]).map({ [UInt8]($0) }) else { return true }
            return texts.contains { ByteSearch.contains(bytes, $0) } && required.map { ByteSearch.contains(bytes, $0) } != false
        }
        return zip(files, holds).filter(\.1).map(\.0)
    }

    /// Reads some files whole, in parallel.
    private mutating func read(_ indexes: [Int]) {
        guard !indexes.isEmpty else { return }
        parsedCount += indexes.count
        let paths = paths, all = all
        let read: [(outlets: SwiftOutlets?, entry: OutletReadingCache.Entry?)] = ParallelMap.map(indexes, jobs: jobs, worker: { Parser() }) { parser, index in
            let path = paths[index]
            let stamp = FileStamp(statusOf: path)
            guard let source = try? SourceText(contentsOfFile: path) else { return (nil, nil) }
            let outlets = SwiftOutlets(parser.parse(source), readingUses: all)
            return (outlets, stamp.map { OutletReadingCache.Entry(stamp: $0, swift: outlets) })
        }
        for (position, index) in indexes.enumerated() {
            // (A file that can no longer be read keeps what its text said, and is not asked for again.)
            var outlets = read[position].outlets ?? swift[index].outlets
            outlets.deferredExtensions = nil
            outlets.helperCallsUnread = false
            swift[index].outlets = outlets
            if let entry = read[position].entry { entries[paths[index]] = entry }
        }
    }
}
