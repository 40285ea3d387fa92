import Foundation
import Workspace

/// The files a command looks at: those the configuration covers (`include`, `exclude`) under the
/// paths a user named (default: the whole repository), found by walking, or named by git as
/// changed since a revision.
public struct FileSelection: Sendable {
    /// Absolute paths, sorted.
    public var files: [String]
    /// Folders that could not be listed, as failures (repo-relative, `/` at the end): files in
    /// them may be missing, so a scan that meets one is incomplete.
    public var unreadable: [FileFailure]

    /// Why files cannot be selected.
    public enum Problem: Error, CustomStringConvertible {
        case missingPath(String)
        case outsideRepository(path: String, root: String)
        case notARevision(String, root: String)

        public var description: String {
            switch self {
            case let .missingPath(path): return "\(path): no such file or directory"
            case let .outsideRepository(path, root): return "\(path) is outside the repository at \(root)"
            case let .notARevision(revision, root): return "--changed-since \(revision): not a git revision of \(root)"
            }
        }
    }

    /// Selects files.
    /// - Parameter changedSince: a git revision: only files changed since it (committed or not,
    ///   renamed, or new) are selected, without walking the tree.
    /// - Throws: `Problem`.
    public init(_ configuration: Configuration, paths: [String], changedSince: String? = nil) throws {
        let root = configuration.root
        try Self.checkInside(paths, root: root, existing: true)
        if let changedSince {
            let roots = paths.compactMap { RepositoryPath.relative($0, root: root) }
            guard let changed = FileWalker().swiftFiles(changedSince: changedSince, root: root, under: roots) else {
                throw Problem.notARevision(changedSince, root: root)
            }
            files = changed.filter(configuration.covers).map { RepositoryPath.absolute($0, root: root) }
            unreadable = []
        } else {
            let walk: FileWalker.Walk
            do {
                walk = try FileWalker().walk(paths.isEmpty ? [root] : paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            } catch let error as FileWalker.MissingPathError {
                throw Problem.missingPath(error.path)
            }
            // The walk names files inside the working folder relatively: made absolute once here,
            // each finds its repo-relative path by a prefix (not by resolving it).
            let here = FileManager.default.currentDirectoryPath
            files = walk.files.lazy.map { $0.hasPrefix("/") ? $0 : (here == "/" ? "/" + $0 : here + "/" + $0) }.filter { path in
                RepositoryPath.relative(path, root: root).map(configuration.covers) ?? false
            }
            unreadable = walk.unreadableFolders.map { folder in
                FileFailure(file: (RepositoryPath.relative(folder.path, root: root) ?? folder.path) + "/", reason: folder.reason)
            }
        }
        try Self.checkInside(paths, root: root, existing: false)
    }

    /// Throws for a path outside the repository: before any work for paths that exist (`scan /`
    /// must not walk the disk to say so), after it for the others (a missing path says so first).
    static func checkInside(_ paths: [String], root: String, existing: Bool) throws {
        for path in paths where FileManager.default.fileExists(atPath: path) == existing {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            if absolute != root, RepositoryPath.relative(absolute, root: root) == nil {
                throw Problem.outsideRepository(path: path, root: root)
            }
        }
    }
}
