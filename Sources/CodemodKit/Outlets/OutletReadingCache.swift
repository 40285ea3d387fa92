import Foundation
import InterfaceBuilder
import Workspace

/// What reading each Swift, storyboard and xib file for the outlet verdicts gave, by path, with
/// the file's stamp, or, for a Swift file `scan` read, the content hash of the bytes it read: a
/// file whose stamp or content hash is unchanged is not read again (`scan` with outlet rules,
/// `swiftmod outlets`). Kept in `.swiftmod/cache/outlets.cache`, trusted only when intact.
struct OutletReadingCache: Sendable {
    struct Entry: Sendable {
        /// The file's metadata, taken before it was read here.
        var stamp: FileStamp?
        /// `ContentHash` of the bytes `scan` read it from (`ScanResult.contentHashes`).
        var hash: UInt64?
        var swift: SwiftOutlets?
        var document: IBDocument?
        /// Why an Interface Builder file could not be read (its line, and the reason).
        var failure: ReadFailure?
    }

    struct ReadFailure: Sendable {
        var line: Int
        var reason: String
    }

    var entries: [String: Entry] = [:]
    /// The content hash of each Swift file `scan` read, by path: an entry of the same hash is
    /// fresh without a `stat`.
    var hashes: [String: UInt64] = [:]

    /// Raised whenever what reading a file gives changes.
    static let format = "swiftmod-outlets-19"

    static func defaultPath(root: String) -> String {
        (root as NSString).appendingPathComponent(".swiftmod/cache/outlets.cache")
    }

    /// The cache at a path, or an empty one (missing, damaged, of another format or version).
    static func load(_ path: String, version: String) -> OutletReadingCache {
        guard let payload = CacheFile.read(path, format: format, key: version) else { return OutletReadingCache() }
        var reader = ByteReader(payload)
        var cache = OutletReadingCache()
        do {
            for _ in 0..<(try reader.readCount()) {
                let path = try reader.readString()
                var entry = Entry()
                if try reader.readBool() { entry.stamp = try FileStamp(from: &reader) }
                if try reader.readBool() { entry.hash = try reader.readUInt64() }
                if try reader.readBool() { entry.swift = try SwiftOutlets(from: &reader) }
                if try reader.readBool() { entry.document = try IBDocument(from: &reader) }
                if try reader.readBool() { entry.failure = ReadFailure(line: try reader.readInt(), reason: try reader.readString()) }
                cache.entries[path] = entry
            }
        } catch {
            // (Damaged, though its checksum matched: as good as none.)
            return OutletReadingCache()
        }
        return cache
    }

    /// Written as plain bytes (a property list of hundreds of storyboards takes longer to write
    /// than reading them took), while the command goes on (`CacheFile.writeInBackground`).
    func write(_ path: String, version: String) {
        CacheFile.writeInBackground(path, format: Self.format, key: version) { [self] in payload() }
    }

    private func payload() -> [UInt8] {
        var writer = ByteWriter()
        writer.write(entries.count)
        for file in entries.keys.sorted() {
            let entry = entries[file]!
            writer.write(file)
            writer.write(entry.stamp != nil)
            entry.stamp?.write(to: &writer)
            writer.write(entry.hash != nil)
            if let hash = entry.hash { writer.write(hash) }
            writer.write(entry.swift != nil)
            entry.swift?.write(to: &writer)
            writer.write(entry.document != nil)
            entry.document?.write(to: &writer)
            writer.write(entry.failure != nil)
            if let failure = entry.failure {
                writer.write(failure.line)
                writer.write(failure.reason)
            }
        }
        return writer.bytes
    }

    /// The entry of a file whose stamp has not changed.
    func fresh(_ path: String, stamp: FileStamp?) -> Entry? {
        guard let stamp, let entry = entries[path], entry.stamp == stamp else { return nil }
        return entry
    }

    /// The entry of a file that `scan` read with the bytes the entry was read from (`hashes`).
    func fresh(byHashOf path: String) -> Entry? {
        guard let hash = hashes[path], let entry = entries[path], entry.hash == hash else { return nil }
        return entry
    }

    /// The entry of a file unchanged since: by its content hash where `scan` read it, else by its stamp.
    func fresh(_ path: String) -> Entry? {
        fresh(byHashOf: path) ?? fresh(path, stamp: FileStamp(statusOf: path))
    }
}
