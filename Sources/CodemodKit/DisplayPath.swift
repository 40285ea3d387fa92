import Foundation

/// Shows paths the way a user typed them: relative to the working folder when inside it.
public struct DisplayPath: Sendable {
    public let base: String

    /// Paths are shown relative to `base` (default: the current folder).
    public init(base: String = FileManager.default.currentDirectoryPath) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    public func callAsFunction(_ path: String) -> String {
        guard path.hasPrefix("/") else { return (path as NSString).standardizingPath }
        let standardized = (path as NSString).standardizingPath
        if standardized.hasPrefix(base + "/") { return String(standardized.dropFirst(base.count + 1)) }
        return standardized
    }
}
