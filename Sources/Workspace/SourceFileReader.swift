import Foundation

/// Why a source file could not be read.
public enum SourceFileError: Error, CustomStringConvertible, Equatable {
    case notFound(path: String)
    case isDirectory(path: String)
    /// Not a regular file: `kind` says what it is ("a FIFO", "a socket", "a character device").
    case notRegularFile(path: String, kind: String)
    /// Bigger than the size limit; skipped, not read.
    case tooLarge(path: String, size: Int, limit: Int)
    case unreadable(path: String, reason: String)
    case notUTF8(path: String, detail: String)

    /// Whether the path itself is wrong (missing, or a directory) rather than the file's content.
    public var isUsageError: Bool {
        switch self {
        case .notFound, .isDirectory: return true
        case .notRegularFile, .tooLarge, .unreadable, .notUTF8: return false
        }
    }

    /// Whether the file was skipped on purpose (over the size limit) rather than failing.
    public var isSkip: Bool {
        if case .tooLarge = self { return true }
        return false
    }

    /// The path the error is about.
    public var path: String {
        switch self {
        case let .notFound(path), let .isDirectory(path), let .notRegularFile(path, _), let .tooLarge(path, _, _),
             let .unreadable(path, _), let .notUTF8(path, _): return path
        }
    }

    /// For a file over the size limit: by how much (`5 MB is over the 4 MB file size limit …`).
    public var sizeProblem: String? {
        guard case let .tooLarge(_, size, limit) = self else { return nil }
        return "\(ByteSize.describe(size)) is over the \(ByteSize.describe(limit)) file size limit (--max-file-size, or max-file-size in .swiftmod.yml)"
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory, not a Swift file"
        case let .notRegularFile(_, kind): return "is \(kind), not a regular file; not read"
        case .tooLarge:
            return "skipped: " + (sizeProblem ?? "")
        case let .unreadable(_, reason): return "cannot be read (\(reason))"
        case let .notUTF8(_, detail): return "\(detail); swiftmod reads UTF-8 Swift sources only"
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// What is wrong with a file that is not a Swift source (a configuration, a baseline), without
    /// the path.
    public var reasonForDataFile: String {
        switch self {
        case .isDirectory: return "is a directory, not a file"
        case let .tooLarge(_, size, limit): return "is \(ByteSize.describe(size)), more than such a file may be (\(ByteSize.describe(limit)))"
        case let .notUTF8(_, detail): return "\(detail); it must be UTF-8"
        default: return reason
        }
    }
}

/// Reads source files without ever blocking or exhausting memory on what is not a source file.
///
/// Only regular files are opened: the path is checked with `stat` first (a FIFO, socket or device,
/// also behind a symbolic link, is reported by its kind and never opened), then opened with
/// `O_NONBLOCK` (so a FIFO swapped in after the check cannot block) and checked again with `fstat`
/// on the open descriptor. A file bigger than `maxFileSize` is not read (`SourceFileError.tooLarge`);
/// reading stops at the limit even if the file grows meanwhile.
public struct SourceFileReader: Sendable {
    /// The default size limit: 4 MiB, far above hand-written Swift (and what the parser handles in
    /// well under a second).
    public static let defaultMaxFileSize = 4 << 20

    /// Files bigger than this many bytes are skipped.
    public var maxFileSize: Int

    public init(maxFileSize: Int = SourceFileReader.defaultMaxFileSize) {
        self.maxFileSize = maxFileSize
    }

    /// The kind of a non-regular file mode, as said to people ("a FIFO"), or nil for a regular file.
    public static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file"
        }
    }

    /// A file's bytes.
    /// - Throws: `SourceFileError` naming the path and what is wrong.
    public func bytes(ofFile path: String) throws -> [UInt8] {
        try bytes(ofFile: path, status: nil)
    }

    /// A file's bytes, when its `stat` was just taken (and judged with `problem(with:path:)`):
    /// the path is not looked up once more before opening it.
    /// - Throws: `SourceFileError` naming the path and what is wrong.
    public func bytes(ofFile path: String, status known: stat?) throws -> [UInt8] {
        var info = known ?? stat()
        guard known != nil || stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR {
                var linkInfo = stat()
                if lstat(path, &linkInfo) == 0 { throw SourceFileError.unreadable(path: path, reason: "a symbolic link to nothing") }
                throw SourceFileError.notFound(path: path)
            }
            throw SourceFileError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        try check(info, path: path)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == EACCES ? "permission denied" : String(cString: strerror(errno))
            throw SourceFileError.unreadable(path: path, reason: reason)
        }
        defer { close(descriptor) }
        // The path may name something else by now: what counts is what was opened.
        guard fstat(descriptor, &info) == 0 else {
            throw SourceFileError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        try check(info, path: path)
        return try readAll(descriptor, expected: Int(info.st_size), path: path)
    }

    /// What is wrong with a file, judged by its metadata before opening it: a folder, not a
    /// regular file, or over the size limit; nil when it may be read.
    public func problem(with info: stat, path: String) -> SourceFileError? {
        if info.st_mode & S_IFMT == S_IFDIR { return .isDirectory(path: path) }
        if let kind = Self.kind(ofMode: info.st_mode) { return .notRegularFile(path: path, kind: kind) }
        if Int(info.st_size) > maxFileSize { return .tooLarge(path: path, size: Int(info.st_size), limit: maxFileSize) }
        return nil
    }

    private func check(_ info: stat, path: String) throws {
        if let problem = problem(with: info, path: path) { throw problem }
    }

    /// Reads to the end, never more than the limit (plus one byte, to notice a file that grew).
    private func readAll(_ descriptor: Int32, expected: Int, path: String) throws -> [UInt8] {
        let limit = maxFileSize + 1
        // One byte more than expected, so that the read that says "end of file" needs no growing.
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 0) + 1, limit))
        var filled = 0
        while filled < limit {
            if filled == bytes.count {
                // The file grew since it was measured: read on, up to the limit.
                bytes.append(contentsOf: repeatElement(0, count: min(max(bytes.count, 4096), limit - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SourceFileError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        if filled > maxFileSize { throw SourceFileError.tooLarge(path: path, size: filled, limit: maxFileSize) }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

/// Sizes in bytes as people write them: `4MB`, `512k`, `1048576`.
public enum ByteSize {
    /// Parses `N`, `NK`/`NKB`, `NM`/`NMB`, `NG`/`NGB` (binary units, case-insensitive); nil when
    /// malformed or not positive.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits), number > 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let factor: Int
        switch unit {
        case "", "B": factor = 1
        case "K", "KB", "KIB": factor = 1 << 10
        case "M", "MB", "MIB": factor = 1 << 20
        case "G", "GB", "GIB": factor = 1 << 30
        default: return nil
        }
        let (result, overflow) = number.multipliedReportingOverflow(by: factor)
        return overflow ? nil : result
    }

    /// `4 MB`, `52.4 MB`, `800 KB`, `12 bytes`.
    public static func describe(_ size: Int) -> String {
        func format(_ value: Double, _ unit: String) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? "\(Int(rounded)) \(unit)" : "\(rounded) \(unit)"
        }
        if size >= 1 << 20 { return format(Double(size) / Double(1 << 20), "MB") }
        if size >= 1 << 10 { return format(Double(size) / Double(1 << 10), "KB") }
        return "\(size) byte\(size == 1 ? "" : "s")"
    }
}

