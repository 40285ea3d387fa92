import Foundation

/// Where a run may write: inside the folder it runs from, the folders it was given, and the git
/// work trees holding them. A `*.swift` file whose real path (every symbolic link resolved: the
/// file's own, or a folder's on the way) lies outside all of them is left alone (unless asked), so
/// `run --write .` — or `run --write Link` where `Link` leads out of the project — never rewrites
/// a file of another project.
public struct WriteBoundary: Sendable {
    /// The folders, absolute, with symbolic links resolved.
    public let roots: [String]

    /// The roots for a run over `paths` (files or folders) from the current folder. A given path
    /// that a symbolic link leads to elsewhere does not widen the tree: only where it leads counts,
    /// and that must lie inside the tree already.
    public init(paths: [String]) {
        let here = FileManager.default.currentDirectoryPath
        var roots = Set(Self.roots(of: here))
        for path in paths {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            var folder = exists && isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
            if folder.isEmpty { folder = "." }
            // Reached without a link: the folder is what it says it is.
            let absolute = DisplayPath.lexicallyNormalized(folder.hasPrefix("/") ? folder : here + "/" + folder)
            if RepositoryPath.real(folder) == absolute { roots.formUnion(Self.roots(of: folder)) }
        }
        self.roots = roots.sorted()
    }

    /// The boundary of one repository: its root folder and the git work tree holding it.
    public init(repository root: String) {
        roots = Set(Self.roots(of: root)).sorted()
    }

    /// A folder and the git work tree holding it, with symbolic links resolved.
    static func roots(of folder: String) -> [String] {
        guard let real = RepositoryPath.real(folder) else { return [] }
        return [real] + (Git.topLevel(of: folder).flatMap(RepositoryPath.real).map { [$0] } ?? [])
    }

    /// Where a file that may not exist yet would really be written, when that is outside: its
    /// own real path, or its nearest existing folder's.
    public func outsideDestination(of path: String) -> String? {
        var probe = path
        while !FileManager.default.fileExists(atPath: probe), probe != "/", !probe.isEmpty {
            probe = (probe as NSString).deletingLastPathComponent
        }
        return outsideTarget(of: probe.isEmpty ? "." : probe)
    }

    public init(roots: [String]) {
        self.roots = roots
    }

    /// For each file whose real path is outside every root: that real path (as `outsideTarget(of:)`),
    /// by the file's index. Each folder is resolved once, and a file that is not itself a link
    /// costs one `lstat`, so this stays cheap on large trees.
    public func outsideTargets(of paths: [String]) -> [Int: String] {
        var folders = RealFolders()
        var result: [Int: String] = [:]
        for (index, path) in paths.enumerated() {
            var target: String?
            if FileWalker.isLink(path) {
                target = RepositoryPath.real(path)
            } else {
                let folder = (path as NSString).deletingLastPathComponent
                target = folders.real(folder.isEmpty ? "." : folder).map { ($0 == "/" ? "" : $0) + "/" + (path as NSString).lastPathComponent }
            }
            guard let target else { continue }
            if !roots.contains(where: { root in root == "/" || target == root || target.hasPrefix(root + "/") }) {
                result[index] = target
            }
        }
        return result
    }

    /// For a file whose real path (links resolved) is outside every root: that real path. Nil
    /// for a file inside the tree.
    public func outsideTarget(of path: String) -> String? {
        guard let target = RepositoryPath.real(path) else { return nil }
        let inside = roots.contains { root in root == "/" || target == root || target.hasPrefix(root + "/") }
        return inside ? nil : target
    }
}

/// Real paths of folders, each resolved once, and from its parent's when it is not itself a link:
/// one `lstat` per folder instead of `realpath`'s look at every component of every path.
struct RealFolders {
    private var known: [String: String?] = [:]

    mutating func real(_ folder: String) -> String? {
        if let cached = known[folder] { return cached }
        // Split by hand: only a plain `parent/name` is resolved from its parent.
        let slash = folder.lastIndex(of: "/")
        let name = slash.map { String(folder[folder.index(after: $0)...]) } ?? folder
        let parent = slash.map { String(folder[..<$0]) } ?? ""
        var resolved: String?
        if parent.isEmpty || name.isEmpty || name == "." || name == ".." || FileWalker.isLink(folder) {
            resolved = RepositoryPath.real(folder)
        } else {
            var info = stat()
            resolved = stat(folder, &info) == 0 ? real(parent).map { ($0 == "/" ? "" : $0) + "/" + name } : nil
        }
        known[folder] = .some(resolved)
        return resolved
    }
}
