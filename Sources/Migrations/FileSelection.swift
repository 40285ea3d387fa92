import CodemodKit
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
    /// What the selection leaves out that a compiler may still compile: files the configuration
    /// excludes, dependency folders, files named inside one.
    public var notJudged: [NotJudged] = []
    /// Absolute second paths of selected files (links beside their targets), for the module
    /// graph: a link inside a module is that module's file, wherever its target lies.
    public var aliases: [String] = []
    /// When asked for (`readingOutlets`) and the whole root was walked: every Swift file,
    /// storyboard, xib and Xcode project under it, whatever `include:`/`exclude:` say (what
    /// `OutletRepository.files(under:)` gives), found by the same walk.
    public var outletFiles: [String]?

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
    public init(_ configuration: Configuration, paths: [String], changedSince: String? = nil, readingOutlets: Bool = false) throws {
        let root = configuration.root
        try Self.checkInside(paths, root: root, existing: true)
        files = []
        unreadable = []
        if let changedSince {
            try selectChanged(since: changedSince, configuration, paths: paths)
        } else {
            try selectWalked(configuration, paths: paths, readingOutlets: readingOutlets)
            if !paths.isEmpty { addLinks(to: paths, configuration) }
        }
        if changedSince != nil || !paths.isEmpty {
            judgeLinksAtTheirTargets(configuration)
            addNamesakes()
        }
        try Self.checkInside(paths, root: root, existing: false)
    }

    /// The files git says changed since a revision, those in dependency folders inside a SwiftPM
    /// target included (they are the target's own).
    private mutating func selectChanged(since revision: String, _ configuration: Configuration, paths: [String]) throws {
        let root = configuration.root
        let roots = paths.compactMap { RepositoryPath.relative($0, root: root) }
        guard let changed = FileWalker().changes(since: revision, root: root, under: roots) else {
            throw Problem.notARevision(revision, root: root)
        }
        let targets = changed.skipped.isEmpty ? [] : Self.targetFolders(configuration)
        let own = changed.inSkipped.filter { $0.folder.isCheckout && Self.isInside($0.folder.path, targets) }.map(\.file)
        let candidates = (changed.files + own).sorted()
        files = candidates.filter(configuration.covers).map { RepositoryPath.absolute($0, root: root) }
        notJudged = NotJudged.excluded(candidates.filter { !configuration.covers($0) }, by: configuration)
            + Self.skippedFolders(changed.skipped.filter { !($0.isCheckout && Self.isInside($0.path, targets)) })
    }

    /// The files found by walking the paths (default: the root), as the configuration covers them.
    private mutating func selectWalked(_ configuration: Configuration, paths: [String], readingOutlets: Bool) throws {
        let root = configuration.root
        // The walk names files inside the working folder relatively: made absolute once here,
        // each finds its repo-relative path by a prefix (not by resolving it).
        let here = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : (here == "/" ? "/" + path : here + "/" + path) }
        // Covered files are kept before links are told from their targets: a link whose target
        // is excluded is judged by its own path.
        func covered(_ path: String) -> Bool { RepositoryPath.relative(absolute(path), root: root).map(configuration.covers) ?? false }
        // The outlets' files come with the same walk: storyboards, xibs and projects are kept
        // (and told apart below); Swift files `include:`/`exclude:` leave out are among those left out.
        let withOutlets = readingOutlets && paths.isEmpty
        let walker = withOutlets ? FileWalker(endings: OutletRepository.endings) : FileWalker()
        func isSwift(_ path: String) -> Bool { path.hasSuffix(".swift") }
        var walk: FileWalker.Walk
        do {
            walk = try walker.walk(paths.isEmpty ? [root] : paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                                   keep: withOutlets ? { !isSwift($0) || covered($0) } : covered)
        } catch let error as FileWalker.MissingPathError {
            throw Problem.missingPath(error.path)
        }
        if withOutlets {
            outletFiles = (walk.files + walk.leftOut).map(absolute).sorted()
            walk.files = walk.files.filter(isSwift)
            walk.aliases = walk.aliases.filter(isSwift)
        }
        files = walk.files.map(absolute)
        aliases = walk.aliases.filter(covered).map(absolute)
        unreadable = walk.unreadableFolders.map { folder in
            FileFailure(file: (RepositoryPath.relative(folder.path, root: root) ?? folder.path) + "/", reason: folder.reason)
        }
        // A named file that is no Swift file (an Xcode project the pre-commit hook passes) is not
        // one left out.
        notJudged = NotJudged.excluded(walk.leftOut.filter { $0.hasSuffix(".swift") }.compactMap { RepositoryPath.relative(absolute($0), root: root) },
                                       by: configuration)
        var skipped = walk.skippedFolders.map { folder in
            FileWalker.SkippedFolder(path: RepositoryPath.relative(absolute(folder.path), root: root) ?? folder.path, reason: folder.reason,
                                     isCheckout: folder.isCheckout)
        }
        // SwiftPM compiles everything in a target's folder: a dependency folder inside one (a
        // `Pods` beside a `Podfile` under `Sources/Feed`) is the target's source.
        var targets: [String]?
        func isTargetsOwn(_ folder: FileWalker.SkippedFolder) -> Bool {
            guard folder.isCheckout else { return false }
            if targets == nil { targets = Self.targetFolders(configuration) }
            return Self.isInside(folder.path, targets ?? [])
        }
        for folder in skipped where isTargetsOwn(folder) {
            guard let inside = try? FileWalker().walk([RepositoryPath.absolute(folder.path, root: root)], keep: covered) else { continue }
            files += inside.files.map(absolute)
            skipped.removeAll { $0 == folder }
        }
        files.sort()
        notJudged += Self.skippedFolders(skipped)
        // A file named inside a dependency folder (or found under a folder named inside one) is
        // judged as a walk would: not at all, and said so (the pre-commit hook names files, and
        // must agree with a full check). Only the named paths' folders are asked: the walk
        // skipped those below them already.
        var skippedRoots: [(path: String, folder: FileWalker.SkippedFolder)] = []
        for path in paths {
            guard let relative = RepositoryPath.relative(URL(fileURLWithPath: path).standardizedFileURL.path, root: root), !relative.isEmpty else { continue }
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if let folder = FileWalker.skippedFolder(of: isFolder.boolValue ? relative + "/-" : relative, root: root), !isTargetsOwn(folder) {
                skippedRoots.append((relative, folder))
            }
        }
        guard !skippedRoots.isEmpty else { return }
        var inDependencies: [NotJudged] = []
        files.removeAll { path in
            guard let relative = RepositoryPath.relative(path, root: root),
                  let (_, folder) = skippedRoots.first(where: { RepositoryPath.isWithin(relative, $0.path) }) else { return false }
            inDependencies.append(NotJudged(path: relative, reason: .skippedFolder, detail: "not judged: \(folder.reason), in \(folder.path)/"))
            return true
        }
        notJudged += inDependencies
    }

    /// Adds the links whose targets are named files (an excluded one, one of another name): they
    /// are the Swift files SwiftPM compiles.
    private mutating func addLinks(to paths: [String], _ configuration: Configuration) {
        let root = configuration.root
        let named = paths.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }.compactMap { RepositoryPath.relative(URL(fileURLWithPath: $0).standardizedFileURL.path, root: root) }
        var selected = Set(files.map { PathKey($0) })
        let linked = FileWalker.linkedPaths(to: named, root: root).filter(configuration.covers).map { RepositoryPath.absolute($0, root: root) }
        files += linked.filter { selected.insert(PathKey($0)).inserted }
        files.sort()
    }

    /// A selected link to a Swift file the configuration covers is judged at that file, as a full
    /// check judges a file reached twice (by the path that is no link); the link's path is then
    /// an alias, for the module rules.
    private mutating func judgeLinksAtTheirTargets(_ configuration: Configuration) {
        let root = configuration.root
        guard let realRoot = RepositoryPath.real(root) else { return }
        var selected = Set(files.map { PathKey($0) })
        files = files.compactMap { path in
            guard FileWalker.isLink(path), let real = RepositoryPath.real(path), real.hasPrefix(realRoot + "/") else { return path }
            let target = RepositoryPath.absolute(String(real.dropFirst(realRoot.count + 1)), root: root)
            guard target.hasSuffix(".swift"), RepositoryPath.relative(target, root: root).map(configuration.covers) == true else { return path }
            aliases.append(path)
            return selected.insert(PathKey(target)).inserted ? target : nil
        }.sorted()
    }

    /// Adds the files whose names differ from a selected one only in Unicode normalisation: one
    /// file to the baseline, so a partial check looks at both, as a full check does.
    private mutating func addNamesakes() {
        var selected = Set(files.map { PathKey($0) })
        for file in files {
            for namesake in FileWalker.namesakes(of: file) where selected.insert(PathKey(namesake)).inserted {
                files.append(namesake)
            }
        }
    }

    /// The folders of SwiftPM targets, repo-relative: SwiftPM compiles all that is in them.
    public static func targetFolders(_ configuration: Configuration) -> [String] {
        ModuleMap.discover(root: configuration.root, configuration: configuration).folders
            .filter { ModuleMap.isManifest($0.source) && !$0.path.isEmpty }.map(\.path)
    }

    /// Whether a folder lies inside (not at) one of some folders.
    public static func isInside(_ folder: String, _ folders: [String]) -> Bool {
        folders.contains { RepositoryPath.isWithin(folder, $0) && folder != $0 }
    }


    /// One entry per folder skipped.
    static func skippedFolders(_ folders: [FileWalker.SkippedFolder]) -> [NotJudged] {
        var seen = Set<String>()
        return folders.filter { seen.insert($0.path).inserted }.map(NotJudged.init(skipped:))
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
