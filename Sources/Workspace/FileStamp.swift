import Foundation

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

    /// The stamp of a file (through symbolic links), nil when it cannot be examined.
    public init?(statusOf path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
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

/// A fast 64-bit content hash: for recognising unchanged files and intact caches. SipHash-2-4
/// under a fixed key, eight bytes at a time (FNV-1a, a byte at a time, took a warm scan's time
/// to check its cache; a plain multiply-and-shift hash was as fast, but each of its steps can be
/// undone, so two files of one hash could be made in a second). Under the fixed key, two inputs of
/// one hash can be found in about 2^32 tries (minutes): it checks that caches are intact. Files are
/// recognised under a key each scan cache draws at random (`of(_:seed:)`), which no one preparing
/// a pair of files knows.
public enum ContentHash {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        sipHash24(bytes, key: (0x736d_7466_6977_7300, 0x646f_6d74_6669_7773))
    }

    /// The hash under a key of one's own: what a cache that recognises files by their hash keys
    /// them with (`ScanCache.seed`), so that two files of one hash cannot be made ahead of time.
    public static func of(_ bytes: [UInt8], seed: (UInt64, UInt64)) -> UInt64 {
        bytes.withUnsafeBytes { sipHash24($0, key: seed) }
    }

    /// SipHash-2-4 (Aumasson and Bernstein) of bytes under a 128-bit key, as two little-endian halves.
    static func sipHash24(_ bytes: UnsafeRawBufferPointer, key: (UInt64, UInt64)) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ key.0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ key.1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ key.0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ key.1
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
            v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
        }
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            v3 ^= word
            round()
            round()
            v0 ^= word
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        for index in offset..<count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xff
        round()
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// The hash of bytes.
    public static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    /// The hash of bytes as 16 hexadecimal digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let text = String(of(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

private extension UInt64 {
    /// The bits turned left by `count`, those leaving on the left coming back on the right.
    @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
