import CodemodKit
import Foundation

/// Remembers each file's findings by its content, so an unchanged file is not parsed again
/// (`.swiftmod/cache/scan.cache` at the repository root).
///
/// The cache is valid for one configuration (migrations, their codemods and parameters, this
/// swiftmod): any change starts a new one. The file carries a checksum of its contents; a cache
/// that is unreadable, truncated, from another version or altered is ignored and rebuilt, never
/// trusted.
public struct ScanCache: Sendable {
    /// What is remembered of one file.
    public struct Entry: Codable, Sendable {
        /// The file's metadata when it was scanned: when all of it is the same, so is the content.
        public var stamp: FileStamp
        /// The file was modified within a second of the cache being written, so a later change in
        /// that second may have kept its stamp ("racily clean", as git calls it): its content hash
        /// decides instead.
        public var racy = false
        public var hash: String
        public var findings: [Finding]
        public var allowed: Int
    }

    static let format = "swiftmod-scan-cache-2"

    /// Entries by repo-relative path.
    public var entries: [String: Entry] = [:]
    /// What the cache is valid for.
    public let key: String

    public init(key: String) { self.key = key }

    /// The default location under a repository root.
    public static func defaultPath(root: String) -> String {
        (root as NSString).appendingPathComponent(".swiftmod/cache/scan.cache")
    }

    /// The key of a set of migrations: changes whenever what a scan would find could change.
    public static func key(for migrations: [Migration], knownIDs: Set<String>, version: String) -> String {
        var text = "swiftmod \(version)\nids \(knownIDs.sorted().joined(separator: ","))\n"
        for migration in migrations.sorted(by: { $0.id < $1.id }) {
            let definition = migration.definition
            text += "\(migration.id)|\(definition.id)|\(migration.codemod.params.sorted { $0.key < $1.key })|\(definition.query)"
            text += "|\(definition.useCapture ?? "")|\(definition.requires ?? "")|\(definition.constraints)|\(definition.rewrite)\n"
        }
        return ContentHash.hex(Array(text.utf8))
    }

    /// Reads a cache; anything wrong with it gives an empty cache.
    public static func load(_ path: String, key: String) -> ScanCache {
        var cache = ScanCache(key: key)
        guard let data = FileManager.default.contents(atPath: path),
              let newline = data.firstIndex(of: 0x0A) else { return cache }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ").map(String.init)
        let payload = data[(newline + 1)...]
        guard header.count == 3, header[0] == format, header[1] == key,
              header[2] == ContentHash.hex(Array(payload)),
              let entries = try? JSONDecoder().decode([String: Entry].self, from: Data(payload)) else { return cache }
        cache.entries = entries
        return cache
    }

    /// Writes the cache atomically (a failure to write only costs speed next time). Entries of files
    /// modified in the second before the write (or later) are marked racy.
    public func save(_ path: String, now: Double = Date().timeIntervalSince1970) {
        let encoder = JSONEncoder()
        var marked = entries
        let racyFrom = now.rounded(.down) - 1
        for (file, entry) in marked where entry.stamp.modified >= racyFrom || entry.stamp.changed >= racyFrom {
            marked[file]?.racy = true
        }
        guard let payload = try? encoder.encode(marked) else { return }
        let header = "\(Self.format) \(key) \(ContentHash.hex(Array(payload)))\n"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? (Data(header.utf8) + payload).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// What git compares to tell that a file is unchanged without reading it: size, modification and
/// status-change times, inode and device. Restoring a modification time (`cp -p`, `rsync -a`,
/// `tar`, `touch -r`) cannot restore the status-change time, and a replaced file has a new inode.
public struct FileStamp: Codable, Sendable, Equatable {
    public var size: Int64
    /// `st_mtime`, in seconds with nanoseconds.
    public var modified: Double
    /// `st_ctime`, in seconds with nanoseconds.
    public var changed: Double
    public var inode: UInt64
    public var device: UInt64

    public init(size: Int64, modified: Double, changed: Double, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    /// The stamp of a file's `stat`.
    public init(_ info: stat) {
        #if canImport(Darwin)
        let modified = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        let changed = Double(info.st_ctimespec.tv_sec) + Double(info.st_ctimespec.tv_nsec) / 1e9
        #else
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
        #endif
        self.init(size: Int64(info.st_size), modified: modified, changed: changed,
                  inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}

/// A fast 64-bit content hash (FNV-1a): for recognising unchanged files, not for security.
public enum ContentHash {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100000001b3
        }
        return hash
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let value = bytes.withUnsafeBytes { of($0) }
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
