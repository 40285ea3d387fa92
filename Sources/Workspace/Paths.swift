import Foundation

/// Paths relative to a repository root: how findings, baselines, caches and module maps name files.
public enum RepositoryPath {
    /// A path relative to the root, or nil when it lies outside. Symbolic links in either are
    /// resolved, so `/tmp/repo` and `/private/tmp/repo` are the same place.
    public static func relative(_ path: String, root: String) -> String? {
        // The common case, cheaply: a clean absolute path below the root, compared byte by byte
        // (thousands of files are named this way in every scan).
        if let relative = relativeByBytes(path, root: root) { return relative }
        let base = root.hasSuffix("/") ? root : root + "/"
        if path.hasPrefix(base), isClean(path.utf8) {
            return String(path.dropFirst(base.count))
        }
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        if standardized.hasPrefix(base) { return String(standardized.dropFirst(base.count)) }
        let resolvedPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolvedBase = resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/"
        if resolvedPath.hasPrefix(resolvedBase) { return String(resolvedPath.dropFirst(resolvedBase.count)) }
        return resolvedPath == resolvedRoot ? "" : nil
    }

    /// The part of a clean path after the root and a slash, when its bytes begin so; else nil.
    private static func relativeByBytes(_ path: String, root: String) -> String? {
        var path = path, root = root
        return path.withUTF8 { path in
            root.withUTF8 { root -> String? in
                let base = root.last == UInt8(ascii: "/") ? root.count : root.count + 1
                guard !root.isEmpty, path.count > base, memcmp(path.baseAddress!, root.baseAddress!, root.count) == 0,
                      path[base - 1] == UInt8(ascii: "/"), isClean(path) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: path[base...]), as: UTF8.self)
            }
        }
    }

    /// Whether a path has no empty, `.` or `..` component after its first character, nor a
    /// trailing slash (so it names its file by text alone), checked byte by byte.
    static func isClean<Bytes: Collection<UInt8>>(_ path: Bytes) -> Bool {
        var previousSlash = false
        var dots = 0  // dots since the last slash, while only dots were seen
        var onlyDots = false
        for byte in path {
            if byte == UInt8(ascii: "/") {
                if previousSlash || (onlyDots && (dots == 1 || dots == 2)) { return false }
                previousSlash = true
                onlyDots = true
                dots = 0
            } else {
                previousSlash = false
                if byte == UInt8(ascii: "."), onlyDots { dots += 1 } else { onlyDots = false }
            }
        }
        return !(onlyDots && dots <= 2)
    }

    /// Whether a repo-relative path is a folder prefix (or the file) named by a repo-relative
    /// root; `""` is the whole repository.
    public static func isWithin(_ relative: String, _ root: String) -> Bool {
        root.isEmpty || relative == root || relative.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The absolute path of a repo-relative one.
    public static func absolute(_ relative: String, root: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }

    /// The path with every symbolic link resolved, or nil when it does not exist.
    public static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

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

    /// The way from folder `base` to `target` (both absolute), by the text: `../App/Sources`.
    public static func relative(_ target: String, from base: String) -> String {
        let from = lexicallyNormalized(base).split(separator: "/"), to = lexicallyNormalized(target).split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
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
