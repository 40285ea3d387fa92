import Foundation

/// Why a file was not written.
public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): not written: \(reason)" }
}

/// Writes files atomically: the new content goes to a temporary file beside the original, takes
/// the original's permissions, is flushed to disk, and then replaces the original in one rename.
/// A reader sees the old file or the new one, never half of one.
public enum AtomicWriter {
    /// Replaces a file's content.
    /// - Parameter expected: what the file was when it was read; when given, a file that changed
    ///   since (another content, or another file put in its place) is not replaced.
    /// - Throws: `WriteError` when the file is read-only, vanished, or the write fails;
    ///   `FileChangedError` when it changed since `expected`. The original is then untouched.
    public static func replaceContents(of path: String, with bytes: [UInt8], expected: FileSnapshot? = nil) throws {
        // Write through symbolic links to the file they point at.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var info = stat()
        guard stat(target, &info) == 0 else { throw WriteError(path: path, reason: "the file is gone") }
        // A file without any write bit is read-only on purpose (generated, locked): respected even
        // by root, who could otherwise write anything.
        guard access(target, W_OK) == 0, info.st_mode & 0o222 != 0 else {
            throw WriteError(path: path, reason: "the file is read-only (make it writable to rewrite it)")
        }
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        guard let (descriptor, temporary) = TemporaryFiles.create(in: directory.isEmpty ? "." : directory, for: name) else {
            throw WriteError(path: path, reason: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        var finished = false
        defer {
            if !finished { _ = TemporaryFiles.finish(temporary, renamingTo: nil) }
        }
        let written = writeAll(bytes, to: descriptor)
        // Keep the owner when we may (as root); otherwise the file becomes ours, as any editor's save.
        _ = fchown(descriptor, info.st_uid, info.st_gid)
        let flushed = written && fchmod(descriptor, info.st_mode & 0o7777) == 0 && fsync(descriptor) == 0
        let errorText = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else { throw WriteError(path: path, reason: "write failed: \(errorText)") }
        // As late as can be: what was read must still be there. Another swiftmod checks and
        // renames under the same lock (held on the file being replaced), so of two runs rewriting
        // one file, the second sees the first's result and refuses; an editor takes no lock, so
        // its change in the last microseconds can still be lost.
        let lock = open(target, O_RDONLY | O_NONBLOCK)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        if let expected, !expected.isCurrent(at: target) { throw FileChangedError(path: path) }
        finished = true
        guard TemporaryFiles.finish(temporary, renamingTo: target) else {
            throw WriteError(path: path, reason: "rename failed: \(String(cString: strerror(errno)))")
        }
    }
}

extension AtomicWriter {
    /// Writes every byte to an open file, again after an interruption; false when the write
    /// fails (`errno` says why).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }
}

/// A file changed between the moment it was read and the moment its rewrite would replace it.
public struct FileChangedError: Error, CustomStringConvertible {
    public var path: String
    public var description: String { "\(path): changed while being rewritten; run again" }
}
