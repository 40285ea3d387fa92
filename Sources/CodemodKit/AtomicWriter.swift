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
    /// - Throws: `WriteError` when the file is read-only, vanished, or the write fails; the
    ///   original is then untouched.
    public static func replaceContents(of path: String, with bytes: [UInt8]) throws {
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
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(name).swiftmod-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        let temporary = String(cString: template)
        var finished = false
        defer {
            if !finished { unlink(temporary) }
        }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        // Keep the owner when we may (as root); otherwise the file becomes ours, as any editor's save.
        _ = fchown(descriptor, info.st_uid, info.st_gid)
        let flushed = written && fchmod(descriptor, info.st_mode & 0o7777) == 0 && fsync(descriptor) == 0
        let errorText = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else { throw WriteError(path: path, reason: "write failed: \(errorText)") }
        guard rename(temporary, target) == 0 else {
            throw WriteError(path: path, reason: "rename failed: \(String(cString: strerror(errno)))")
        }
        finished = true
    }
}
