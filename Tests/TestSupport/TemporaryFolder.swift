import Foundation

/// A folder under the temporary directory, removed when released.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file (creating folders) and returns its path.
    @discardableResult
    public func write(_ relative: String, _ content: String) throws -> String {
        try write(relative, bytes: Array(content.utf8))
    }

    @discardableResult
    public func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let full = (path as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// swiftmod's temporary files left in the folder.
    public func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains(".swiftmod-") }
    }

    public func read(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: (path as NSString).appendingPathComponent(relative))))
    }
}

/// A value filled in by another thread.
public final class DataBox: @unchecked Sendable {
    public var text = ""

    public init() {}
}
