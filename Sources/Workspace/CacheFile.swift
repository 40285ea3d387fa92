import Foundation

/// A cache on disk, trusted only when intact: a header line `FORMAT KEY CHECKSUM` and a binary
/// payload. A file that is missing, unreadable, truncated, of another format or key, or altered
/// (its checksum differs) reads as nothing: a cache is rebuilt, never trusted blindly.
public enum CacheFile {
    /// The payload, or nil when the file is not an intact cache of this format and key.
    public static func read(_ path: String, format: String, key: String) -> [UInt8]? {
        waitForWrite(of: path)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").map(String.init)
        let payload = Array(bytes[(newline + 1)...])
        guard header.count == 3, header[0] == format, header[1] == key, header[2] == ContentHash.hex(payload) else { return nil }
        return payload
    }

    /// Writes a cache atomically; a failure only costs speed next time, so it is not reported.
    public static func write(_ path: String, format: String, key: String, payload: [UInt8]) {
        waitForWrite(of: path)
        put(path, format: format, key: key, payload: payload)
    }

    /// Writes a cache atomically on another thread, its payload made there too, while the command
    /// goes on (a large cache takes as long to write as the work after it). A later `read` or
    /// `write` of the same path waits for it, and so does the process before it exits (one stopped
    /// by a signal leaves the cache as it was, and its temporary file to the next write).
    public static func writeInBackground(_ path: String, format: String, key: String, payload: @escaping @Sendable () -> [UInt8]) {
        _ = waitsAtExit
        lock.withLock { pending[path, default: 0] += 1 }
        writes.async {
            put(path, format: format, key: key, payload: payload())
            lock.withLock {
                pending[path]! -= 1
                if pending[path] == 0 { pending[path] = nil }
            }
        }
    }

    /// Waits for every write `writeInBackground` started.
    public static func waitForWrites() {
        writes.sync {}
    }

    /// One after another, in the order asked.
    private static let writes = DispatchQueue(label: "swiftmod.cache-writes")
    private static let lock = NSLock()
    /// How many writes of each path have not ended.
    nonisolated(unsafe) private static var pending: [String: Int] = [:]
    /// (Once: a process that exits does not leave a cache unwritten.)
    private static let waitsAtExit: Void = { atexit { CacheFile.waitForWrites() } }()

    private static func waitForWrite(of path: String) {
        if lock.withLock({ pending[path] != nil }) { waitForWrites() }
    }

    /// Through a temporary file of `TemporaryFiles`' (removed by a later write when the run was
    /// interrupted or killed, even before the cache's first write ended), renamed over the cache.
    private static func put(_ path: String, format: String, key: String, payload: [UInt8]) {
        let header = Array("\(format) \(key) \(ContentHash.hex(payload))\n".utf8)
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = TemporaryFiles.removeStale(in: [folder], orphans: true)
        guard let (descriptor, temporary) = TemporaryFiles.create(in: folder, for: (path as NSString).lastPathComponent) else { return }
        // (Readable as a file the tool writes with the usual umask would be.)
        let written = AtomicWriter.writeAll(header, to: descriptor) && AtomicWriter.writeAll(payload, to: descriptor) && fchmod(descriptor, 0o644) == 0
        close(descriptor)
        _ = TemporaryFiles.finish(temporary, renamingTo: written ? path : nil)
    }
}

/// Appends values to a compact binary buffer: `Int`s (counts, lengths, lines) as variable-length
/// numbers, a byte for most; `UInt64`s and `Double`s as eight little-endian bytes; strings after
/// their length.
public struct ByteWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Zigzag-encoded (small negative numbers stay short), seven bits a byte, lowest first.
    public mutating func write(_ value: Int) {
        var rest = UInt64(bitPattern: (Int64(value) << 1) ^ (Int64(value) >> 63))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
    public mutating func write(_ value: Double) { write(value.bitPattern) }
    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A string that may begin with a prefix (a path with its repository's root), written
    /// without it: a flag for whether it began with it, then what follows it, after its length.
    public mutating func write(_ value: String, droppingPrefix prefix: [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            let begins = utf8.count >= prefix.count && prefix.withUnsafeBufferPointer { prefix in
                prefix.isEmpty || memcmp(utf8.baseAddress!, prefix.baseAddress!, prefix.count) == 0
            }
            let rest = begins ? UnsafeBufferPointer(rebasing: utf8[prefix.count...]) : utf8
            write(begins)
            write(rest.count)
            bytes.append(contentsOf: rest)
        }
    }

    /// Bytes as they are, without their count: what another writer wrote, in its place.
    public mutating func append(_ written: [UInt8]) {
        bytes.append(contentsOf: written)
    }

    /// Bytes, after their count.
    public mutating func write(bytes value: [UInt8]) {
        write(value.count)
        bytes.append(contentsOf: value)
    }

    /// nil is written as a flag, so it reads back as nil.
    public mutating func write(_ value: Int?) {
        write(value != nil)
        if let value { write(value) }
    }
}

/// Reads what a `ByteWriter` wrote; any attempt to read past the end throws.
public struct ByteReader {
    public struct Truncated: Error {
        public init() {}
    }

    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func readUInt64() throws -> UInt64 {
        guard bytes.count - offset >= 8 else { throw Truncated() }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        offset += 8
        return UInt64(littleEndian: value)
    }

    /// Reads what `ByteWriter.write(_: Int)` wrote.
    public mutating func readInt() throws -> Int {
        var zigzag: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            // (More than ten bytes is no number a writer wrote.)
            guard offset < bytes.count, shift < 64 else { throw Truncated() }
            let byte = bytes[offset]
            offset += 1
            zigzag |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        let value = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
        guard let result = Int(exactly: value) else { throw Truncated() }
        return result
    }

    public mutating func readDouble() throws -> Double { Double(bitPattern: try readUInt64()) }

    public mutating func readBool() throws -> Bool {
        guard offset < bytes.count else { throw Truncated() }
        offset += 1
        return bytes[offset - 1] != 0
    }

    public mutating func readString() throws -> String {
        let count = try readInt()
        guard count >= 0, count <= bytes.count - offset else { throw Truncated() }
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    /// Bytes written by `write(bytes:)`.
    public mutating func readBytes() throws -> [UInt8] {
        let count = try readInt()
        guard count >= 0, count <= bytes.count - offset else { throw Truncated() }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    public mutating func readOptionalInt() throws -> Int? {
        try readBool() ? try readInt() : nil
    }
}

extension FileStamp {
    /// Writes the stamp (five numbers).
    public func write(to writer: inout ByteWriter) {
        writer.write(UInt64(bitPattern: size))
        writer.write(modified)
        writer.write(changed)
        writer.write(inode)
        writer.write(device)
    }

    /// Reads a stamp written by `write(to:)`.
    public init(from reader: inout ByteReader) throws {
        self.init(size: Int64(bitPattern: try reader.readUInt64()), modified: try reader.readDouble(),
                  changed: try reader.readDouble(), inode: try reader.readUInt64(), device: try reader.readUInt64())
    }
}
