import Foundation

/// Where a run may write: inside the folder it runs from, the folders it was given, and the git
/// work trees holding them. A `*.swift` symbolic link whose target lies outside all of them is
/// left alone (unless asked), so `run --write .` never rewrites a file of another project.
public struct WriteBoundary: Sendable {
    /// The folders, absolute, with symbolic links resolved.
    public let roots: [String]

    /// The roots for a run over `paths` (files or folders) from the current folder.
    public init(paths: [String]) {
        var roots: Set<String> = []
        let folders = [FileManager.default.currentDirectoryPath] + paths.map { path in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            return exists && isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
        }
        for folder in Set(folders.map { $0.isEmpty ? "." : $0 }) {
            if let real = Self.realPath(folder) { roots.insert(real) }
            if let top = Git.run(["rev-parse", "--show-toplevel"], in: folder),
               let real = Self.realPath(String(decoding: top, as: UTF8.self).trimmingCharacters(in: .newlines)) {
                roots.insert(real)
            }
        }
        self.roots = roots.sorted()
    }

    public init(roots: [String]) {
        self.roots = roots
    }

    /// For a symbolic link whose target is outside every root: that target. Nil for a file that
    /// is not a link, or a link into a root.
    public func outsideTarget(of path: String) -> String? {
        guard FileWalker.isLink(path), let target = Self.realPath(path) else { return nil }
        let inside = roots.contains { root in root == "/" || target.hasPrefix(root + "/") }
        return inside ? nil : target
    }

    /// The path with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
