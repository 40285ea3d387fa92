import Dispatch
import Foundation

/// The temporary files of `AtomicWriter` (`.NAME.swiftmod-PID-XXXXXX` beside each file written):
/// the ones in flight, removed when the run is interrupted by SIGINT or SIGTERM, and stale ones left
/// by a run that was killed outright (`kill -9`, a power cut), which a later run removes.
public enum TemporaryFiles {
    /// The marker between a file's name and the temporary part.
    static let marker = ".swiftmod-"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var inFlight: Set<String> = []
    nonisolated(unsafe) private static var stopping = false
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var interruptionHandler: (@Sendable (Int32) -> Bool)?

    /// Creates a temporary file for `target` in `directory` (named after it, with this process's
    /// id) and registers it as in flight; returns its descriptor and path, or nil with `errno` set.
    /// Nothing is created once an interrupted run is cleaning up.
    static func create(in directory: String, for name: String) -> (descriptor: Int32, path: String)? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping else {
            errno = EINTR
            return nil
        }
        var template = Array("\(directory)/.\(name)\(marker)\(getpid())-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        let path = String(cString: template)
        inFlight.insert(path)
        return (descriptor, path)
    }

    /// Renames a temporary file over its target (or removes it, when `target` is nil, or the
    /// rename fails) and forgets it; returns whether the rename succeeded (`errno` set when not).
    static func finish(_ temporary: String, renamingTo target: String?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        inFlight.remove(temporary)
        if let target, !stopping, rename(temporary, target) == 0 { return true }
        let reason = stopping ? EINTR : errno
        unlink(temporary)
        errno = reason
        return false
    }

    /// Removes every temporary file in flight and stops creating new ones (what a signal does
    /// before the process exits; `stop: false` keeps writing possible, for tests). Returns the
    /// paths removed.
    @discardableResult
    public static func removeInFlight(stop: Bool = true) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if stop { stopping = true }
        let removed = inFlight.sorted()
        for path in removed { unlink(path) }
        inFlight.removeAll()
        return removed
    }

    /// On SIGINT or SIGTERM, removes the temporary files in flight and exits with 128 + the signal
    /// (130, 143), as a shell reports a process killed by it. Call once, before writing.
    public static func removeOnInterrupt() {
        lock.lock()
        defer { lock.unlock() }
        guard signalSources.isEmpty else { return }
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            // A queue of its own: it gets a thread even while the workers keep every core busy.
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "swiftmod.signal.\(number)"))
            source.setEventHandler {
                let handler = lock.withLock { interruptionHandler }
                if let handler, !handler(number) { return }
                removeInFlight()
                _exit(128 + number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Asks `handler` first when SIGINT or SIGTERM arrives (on the signal's own queue, with the
    /// signal): true stops the process as without it (the temporary files in flight are removed,
    /// and it exits with 128 + the signal); false leaves the stopping to the command, which the
    /// handler told to stop (`run --interactive` finishes the file it is writing, then sums up).
    public static func handleInterruptions(_ handler: @escaping @Sendable (Int32) -> Bool) {
        lock.withLock { interruptionHandler = handler }
    }

    /// Removes the temporary files of this tool left in `folders` by runs that cannot finish
    /// them: those whose process is gone, and any older than `maximumAge` (also the older
    /// `.NAME.swiftmod-XXXXXX` form, which names no process). Only regular files named
    /// `.NAME.swiftmod-[PID-]XXXXXX` whose `NAME` is a file of that folder are considered.
    /// - Parameter orphans: also those whose `NAME` is not there (in a folder of the tool's own,
    ///   its caches', where the first write of a file may have been cut short).
    /// - Returns: the paths removed.
    public static func removeStale(in folders: Set<String>, maximumAge: TimeInterval = 3600,
                                   now: Date = Date(), orphans: Bool = false) -> [String] {
        var removed: [String] = []
        for folder in folders.sorted() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let present = Set(names)
            for name in names.sorted() {
                guard let temporary = TemporaryName(name), orphans || present.contains(temporary.original) else { continue }
                let path = folder == "." ? name : "\(folder)/\(name)"
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                let age = now.timeIntervalSince1970 - Double(info.st_mtim_seconds)
                let writerGone = temporary.writer.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? false
                if writerGone || age > maximumAge, unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed
    }
}

/// A name of `TemporaryFiles`' pattern: `.NAME.swiftmod-PID-XXXXXX`, or `.NAME.swiftmod-XXXXXX`
/// (as older versions named them).
struct TemporaryName: Equatable {
    /// The name of the file it was to replace.
    var original: String
    /// The process that wrote it, when the name says.
    var writer: pid_t?

    /// Nil for a name of any other pattern.
    init?(_ name: String) {
        guard name.hasPrefix("."), let range = name.range(of: TemporaryFiles.marker, options: .backwards),
              range.lowerBound > name.startIndex else { return nil }
        original = String(name[name.index(after: name.startIndex)..<range.lowerBound])
        let parts = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard !original.isEmpty, let random = parts.last, random.count == 6,
              random.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        switch parts.count {
        case 1: writer = nil
        case 2:
            guard let pid = pid_t(parts[0]), pid > 0 else { return nil }
            writer = pid
        default: return nil
        }
    }
}

extension stat {
    /// The modification time, in whole seconds.
    var st_mtim_seconds: Int {
        #if canImport(Darwin)
        Int(st_mtimespec.tv_sec)
        #else
        Int(st_mtim.tv_sec)
        #endif
    }
}
