import Foundation

/// Shows paths the way a user typed them: relative to the working folder when inside it.
public struct DisplayPath: Sendable {
    public let base: String

    /// Paths are shown relative to `base` (default: the current folder).
    public init(base: String = FileManager.default.currentDirectoryPath) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    public func callAsFunction(_ path: String) -> String {
        let tidy = Self.lexicallyNormalized(path)
        if tidy.hasPrefix("/"), tidy.hasPrefix(base + "/") { return String(tidy.dropFirst(base.count + 1)) }
        if tidy == base, base.hasPrefix("/") { return "." }
        return tidy
    }

    /// `./A//B/../C.swift` → `A/C.swift`, by the text alone. Unlike `standardizingPath`, symbolic
    /// links are never resolved: a link inside the tree is shown (and diffed) by its own path.
    public static func lexicallyNormalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue  // `/..` is `/`
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
