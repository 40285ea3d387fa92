import Foundation
import Workspace

/// The files a `run` processes: the Swift files under the paths a user named (by the walk's
/// rules), without `*.swift` links that lead out of the tree (the paths and their git work trees),
/// which a run leaves alone unless told to follow them.
public struct RunSelection: Sendable {
    /// A file left alone because it leads outside the tree.
    public struct OutsideLink: Sendable, Encodable, Equatable {
        /// As the user sees it.
        public var path: String
        /// Where it really is.
        public var target: String
        /// Whether the path is itself a link (rather than reached through a linked folder).
        public var isLink: Bool

        enum CodingKeys: String, CodingKey { case path, target }
    }

    /// The files to process, sorted.
    public var files: [String]
    public var outsideLinks: [OutsideLink] = []
    /// Folders that could not be listed: the files in them were not seen.
    public var unreadableFolders: [FileWalker.UnreadableFolder]

    /// Selects files.
    /// - Parameter followOutsideLinks: keep links that lead out of the tree.
    /// - Throws: `FileWalker.MissingPathError` for a path that does not exist.
    public init(paths: [String], followOutsideLinks: Bool = false, display: DisplayPath = DisplayPath()) throws {
        let roots = paths.isEmpty ? ["."] : paths
        let walk = try FileWalker().walk(roots)
        files = walk.files
        unreadableFolders = walk.unreadableFolders
        guard !followOutsideLinks else { return }
        // Links out of the tree are left alone: a run rewrites this project, never another one.
        let boundary = WriteBoundary(paths: roots)
        let outside = boundary.outsideTargets(of: files)
        guard !outside.isEmpty else { return }
        outsideLinks = outside.keys.sorted().map { index in
            OutsideLink(path: display(files[index]), target: outside[index]!, isLink: FileWalker.isLink(files[index]))
        }
        files = files.indices.filter { outside[$0] == nil }.map { files[$0] }
    }

    /// Makes writing safe to interrupt (SIGINT, SIGTERM leave no temporary file) and removes
    /// temporary files that killed runs left beside the files to write; returns those removed.
    public func prepareForWriting() -> [String] {
        TemporaryFiles.removeOnInterrupt()
        let folders = Set(files.map { (URL(fileURLWithPath: $0).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent })
        return TemporaryFiles.removeStale(in: folders)
    }
}
