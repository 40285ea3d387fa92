import Foundation

/// What a file was when it was read: its identity and times (as `stat` gives them) and its bytes.
///
/// Taken before a rewrite reads a file and checked again just before the rewrite replaces it, so a
/// change made in between (by a person, an editor, or another `run --write`) is never overwritten.
public struct FileSnapshot: Sendable, Equatable {
    /// Device and inode: a file replaced by a rename (an editor's save, another rewrite) is another file.
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification and status-change times, in nanoseconds.
    public var modified: Int64
    public var changed: Int64
    /// The bytes read (byte order mark included), compared when the rest cannot tell: a change of
    /// the same size within the file system's timestamp granularity.
    public var bytes: [UInt8]

    /// The identity and times of a file (through symbolic links), with the bytes it holds, or nil
    /// when it cannot be examined.
    /// - Parameter bytes: the bytes read; take the snapshot's `stat` *before* reading them, so a
    ///   change while reading shows as a difference, never as a match.
    public init?(statusOf path: String, bytes: [UInt8]) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info, bytes: bytes)
    }

    public init(_ info: stat, bytes: [UInt8]) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        self.bytes = bytes
    }

    /// Whether the file at `path` is still the one this snapshot describes: the same file (device
    /// and inode), size and times, and the same bytes.
    public func isCurrent(at path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let now = FileSnapshot(info, bytes: [])
        guard now.device == device, now.inode == inode, now.size == size, now.modified == modified,
              now.changed == changed else { return false }
        // Same-size writes within one timestamp tick look alike: only the bytes can tell.
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.elementsEqual(bytes)
    }
}
