import Foundation

/// An exclusive lock on a file's updates, held through `flock` on `PATH.lock` beside it, so two
/// processes that read, change and write the file (two partial `baseline` runs) take turns instead
/// of one dropping the other's changes.
///
/// The lock file is removed on release. A waiter that then holds a lock on the removed file sees
/// that the path names another file (or none) and locks again, so removing it is safe.
public final class FileLock {
    /// The lock file's path.
    public let path: String
    private var descriptor: Int32 = -1

    /// The lock could not be taken: held by someone else for longer than the timeout, or the
    /// lock file cannot be created.
    public struct LockError: Error, CustomStringConvertible {
        public var description: String
    }

    /// How long to wait for a lock: `SWIFTMOD_LOCK_TIMEOUT` seconds, or 30.
    public static var defaultTimeout: Double {
        ProcessInfo.processInfo.environment["SWIFTMOD_LOCK_TIMEOUT"].flatMap(Double.init).map { max(0, $0) } ?? 30
    }

    /// Takes the lock for `file`, waiting up to `timeout` seconds.
    /// - Throws: `LockError` when it stays held, or the lock file cannot be made.
    public init(for file: String, timeout: Double = FileLock.defaultTimeout) throws {
        path = file + ".lock"
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let candidate = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard candidate >= 0 else {
                throw LockError(description: "\(path): cannot create the lock file: \(String(cString: strerror(errno)))")
            }
            if flock(candidate, LOCK_EX | LOCK_NB) == 0 {
                // Still the file at `path`? (Its holder may have removed it before we got it.)
                var held = stat(), named = stat()
                if fstat(candidate, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                    descriptor = candidate
                    return
                }
            }
            close(candidate)
            guard Date() < deadline else {
                throw LockError(description: "\(path): locked by another swiftmod run for more than \(String(format: "%g", timeout)) s; "
                    + "try again when it has finished (or remove the lock file if no run is going on; SWIFTMOD_LOCK_TIMEOUT sets the wait in seconds)")
            }
            usleep(50_000)
        }
    }

    /// Releases the lock (and removes the lock file). Also done when the value is released.
    public func unlock() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }
}
