import Foundation

/// Why a source file could not be read.
public enum SourceFileError: Error, CustomStringConvertible, Equatable {
    case notFound(path: String)
    case isDirectory(path: String)
    case unreadable(path: String, reason: String)
    case notUTF8(path: String, detail: String)

    /// Whether the path itself is wrong (missing, or a directory) rather than the file's content.
    public var isUsageError: Bool {
        switch self {
        case .notFound, .isDirectory: return true
        case .unreadable, .notUTF8: return false
        }
    }

    /// The path the error is about.
    public var path: String {
        switch self {
        case let .notFound(path), let .isDirectory(path), let .unreadable(path, _), let .notUTF8(path, _): return path
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory, not a Swift file"
        case let .unreadable(_, reason): return "cannot be read (\(reason))"
        case let .notUTF8(_, detail): return "\(detail); swiftmod reads UTF-8 Swift sources only"
        }
    }

    public var description: String { "\(path): \(reason)" }
}

extension SourceText {
    /// Reads a file as UTF-8 Swift source.
    /// - Throws: `SourceFileError` naming the path and what is wrong.
    public init(contentsOfFile path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceFileError.notFound(path: path)
        }
        if isDirectory.boolValue { throw SourceFileError.isDirectory(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: path) ? "\(error.localizedDescription)" : "permission denied"
            throw SourceFileError.unreadable(path: path, reason: reason)
        }
        do {
            try self.init(utf8: data)
        } catch let error as DecodingError {
            throw SourceFileError.notUTF8(path: path, detail: error.description)
        }
    }
}
