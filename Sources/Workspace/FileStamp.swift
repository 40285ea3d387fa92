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

/// A fast 64-bit content hash: for recognising unchanged files and intact caches, not for
/// security. Eight bytes at a time, each word mixed in by a multiply and a shift (a byte at a time,
/// as FNV-1a does, took a warm scan's time to check its cache), then the length, and a final mix
/// (MurmurHash3's) so that every input bit moves every output bit.
public enum ContentHash {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            hash = mix(hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        if offset < count {
            var last: UInt64 = 0
            for index in offset..<count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
            hash = mix(hash ^ last)
        }
        hash = mix(hash ^ UInt64(count))
        hash ^= hash >> 33
        hash &*= 0xff51afd7ed558ccd
        hash ^= hash >> 33
        hash &*= 0xc4ceb9fe1a85ec53
        return hash ^ (hash >> 33)
    }

    /// One word folded in: a multiply carries low bits up, the shift brings high bits down.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0x9e3779b97f4a7c15
        return product ^ (product >> 29)
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
