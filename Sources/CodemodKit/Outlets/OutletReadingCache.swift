import Foundation
import InterfaceBuilder
import Workspace

/// What reading each Swift, storyboard and xib file for the outlet verdicts gave, by path, with
/// the file's stamp: a file whose stamp is unchanged is not read again (`scan` with outlet rules,
/// `swiftmod outlets`). Kept in `.swiftmod/cache/outlets.cache`, trusted only when intact.
struct OutletReadingCache {
    struct Entry {
        var stamp: FileStamp
        var swift: SwiftOutlets?
        var document: IBDocument?
        /// Why an Interface Builder file could not be read (its line, and the reason).
        var failure: ReadFailure?
    }

    struct ReadFailure {
        var line: Int
        var reason: String
    }

    var entries: [String: Entry] = [:]

    /// Raised whenever what reading a file gives changes.
    static let format = "swiftmod-outlets-13"

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
                var entry = Entry(stamp: try FileStamp(from: &reader))
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

    /// Written as plain bytes: a property list of hundreds of storyboards takes longer to write
    /// than reading them took.
    func write(_ path: String, version: String) {
        var writer = ByteWriter()
        writer.write(entries.count)
        for (file, entry) in entries.sorted(by: { $0.key < $1.key }) {
            writer.write(file)
            entry.stamp.write(to: &writer)
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
        CacheFile.write(path, format: Self.format, key: version, payload: writer.bytes)
    }

    /// The entry of a file whose stamp has not changed.
    func fresh(_ path: String, stamp: FileStamp?) -> Entry? {
        guard let stamp, let entry = entries[path], entry.stamp == stamp else { return nil }
        return entry
    }
}
