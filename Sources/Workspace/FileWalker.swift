import Foundation

/// Finds the Swift files under the paths a user names.
///
/// Directories are searched recursively for `.swift` files, skipping `.build`, `Pods`, `Carthage`,
/// hidden folders, and what git ignores (inside a git work tree). A file named directly is always
/// taken, whatever its name.
public struct FileWalker {
    /// Folder names never entered.
    public static let skippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData", "node_modules"]

    public init() {}

    /// Whether a folder of this name is never entered: hidden folders and build products.
    public static func skips(folderNamed name: some StringProtocol) -> Bool {
        name.hasPrefix(".") || skippedFolders.contains(String(name))
    }

    /// Whether a relative file path lies in a folder the walk never enters (the same rules as the
    /// walk, for files named by git rather than found by walking).
    public static func isInSkippedFolder(_ relative: String) -> Bool {
        relative.split(separator: "/").dropLast().contains { skips(folderNamed: $0) }
    }

    /// A path that does not exist.
    public struct MissingPathError: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path): no such file or directory" }
    }

    /// What a walk found: the Swift files, and the folders it could not look into.
    public struct Walk: Sendable, Equatable {
        /// Sorted, without duplicates.
        public var files: [String]
        /// Folders that could not be listed (no permission, say), sorted, each with the reason:
        /// the files in them were not seen, so the run is incomplete and must say so.
        public var unreadableFolders: [UnreadableFolder]
    }

    /// A folder that could not be listed, and why.
    public struct UnreadableFolder: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// The Swift files under the paths, sorted and without duplicates: a file reached through
    /// several paths (a symbolic link beside its target) is listed once, by a path that is not a link.
    /// Folders that cannot be listed are left out silently: use `walk(_:)` to hear about them.
    /// - Throws: `MissingPathError` for a path that does not exist.
    public func swiftFiles(under paths: [String]) throws -> [String] {
        try walk(paths).files
    }

    /// The Swift files under the paths (as `swiftFiles(under:)`), and the folders that could not be
    /// listed.
    /// - Throws: `MissingPathError` for a path that does not exist.
    public func walk(_ paths: [String]) throws -> Walk {
        var unreadable: [UnreadableFolder] = []
        var candidates = try candidates(under: paths, unreadable: &unreadable)
        // Several paths may reach one folder by different spellings (`Sources` and a link to it).
        if paths.count > 1 { candidates = Self.withoutSpellingsOfOneFile(candidates) }
        unreadable.sort { $0.path < $1.path }
        return Walk(files: Self.withoutDuplicates(candidates), unreadableFolders: unreadable)
    }

    /// Candidates without the second path of a file reached twice (through a symbolic link).
    static func withoutDuplicates(_ candidates: [String]) -> [String] {
        // Only links can duplicate a file; resolving every path would be slow on large trees.
        let links = candidates.filter(Self.isLink)
        guard !links.isEmpty else { return candidates }
        let targets = Set(links.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        let targetNames = Set(targets.map { ($0 as NSString).lastPathComponent })
        var byRealPath: [String: String] = [:]
        for path in candidates {
            let isLink = links.contains(path)
            let mayBeTarget = isLink || targetNames.contains((path as NSString).lastPathComponent)
            let real = mayBeTarget ? URL(fileURLWithPath: path).resolvingSymlinksInPath().path : "=" + path
            if let kept = byRealPath[real], !Self.isLink(kept) || isLink { continue }
            byRealPath[real] = path
        }
        return byRealPath.values.sorted()
    }

    /// One path per file where paths differ only by how their folders are reached (a relative and
    /// an absolute spelling, a link to a folder): preferably one without a link, then a relative
    /// one. Folders are resolved once each, so this stays cheap.
    static func withoutSpellingsOfOneFile(_ paths: [String]) -> [String] {
        let here = FileManager.default.currentDirectoryPath
        var realFolders: [String: (real: String, direct: Bool)] = [:]
        var kept: [String: (rank: (Int, Int, String), path: String)] = [:]
        for path in paths {
            let folder = (path as NSString).deletingLastPathComponent
            let resolved = realFolders[folder] ?? {
                let absolute = DisplayPath.lexicallyNormalized(folder.hasPrefix("/") ? folder : here + "/" + folder)
                let real = RepositoryPath.real(absolute) ?? absolute
                return (real, real == absolute)
            }()
            realFolders[folder] = resolved
            let key = resolved.real + "/" + (path as NSString).lastPathComponent
            let rank = (resolved.direct ? 0 : 1, path.hasPrefix("/") ? 1 : 0, path)
            if let current = kept[key], current.rank <= rank { continue }
            kept[key] = (rank, path)
        }
        return kept.values.map(\.path).sorted()
    }

    /// Whether the path itself is a symbolic link (not following it).
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    private func candidates(under paths: [String], unreadable: inout [UnreadableFolder]) throws -> [String] {
        var result = Set<String>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MissingPathError(path: path)
            }
            if isDirectory.boolValue {
                // Spelled as the files named directly are, so a folder named twice is one folder.
                result.formUnion(filesInDirectory(Self.normalize(path), unreadable: &unreadable))
            } else {
                result.insert(Self.normalize(path))
            }
        }
        return result.sorted()
    }

    /// `./A/../B.swift` → `B.swift`: the shortest spelling of a path, still relative when it was.
    /// Absolute paths inside the current folder become relative too, so a file named both ways is
    /// one file. Symbolic links are not resolved (see `DisplayPath.lexicallyNormalized`).
    static func normalize(_ path: String) -> String {
        DisplayPath()(path)
    }

    private func filesInDirectory(_ directory: String, unreadable: inout [UnreadableFolder]) -> [String] {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        // Git is asked what it ignores while the walk starts; until it answers, ignored folders
        // may be entered, and what was found in them is dropped at the end.
        let asked = PendingIgnored(directory: base)
        let listing = list(base, ignored: { asked.ifKnown })
        let ignored = asked.value
        // Judged by the walk's own spelling of the folder (the ignore list's), shown tidied.
        unreadable += listing.unreadable.filter { !ignored.contains($0.walked + "/") }.map(\.folder)
        // The folder was named already: only the part below it needs tidying.
        let prefix = base == "." ? "" : base + "/"
        let tidy = prefix.hasPrefix("./") || prefix.contains("/../") || prefix.contains("/./")
        return listing.files.filter { !ignored.contains($0) }.map { tidy ? Self.normalize($0) : $0 }
    }

    /// What listing a folder's tree found: Swift files (unfiltered by what git ignores, unless
    /// `ignored` answered while listing) and folders that could not be read.
    struct Listing {
        var files: [String]
        var unreadable: [(walked: String, folder: UnreadableFolder)]
    }

    /// Lists a folder's tree on every core (listing a large tree is mostly waiting on the kernel).
    private func list(_ base: String, ignored: @escaping () -> GitIgnored?) -> Listing {
        let work = FolderQueue(base)
        let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            var files: [String] = []
            var problems: [(walked: String, folder: UnreadableFolder)] = []
            while let folder = work.next() {
                var found: [String] = []
                defer { work.finish(found) }
                guard let entries = Self.entries(of: folder) else {
                    let reason = String(cString: strerror(errno)).lowercased()
                    problems.append((folder, UnreadableFolder(path: folder == "." ? "." : Self.normalize(folder), reason: "folder cannot be read (\(reason))")))
                    continue
                }
                let ignored = ignored()
                for (name, kind) in entries where !name.hasPrefix(".") {
                    let path = folder == "." ? name : "\(folder)/\(name)"
                    switch kind {
                    case .folder:
                        // Links to folders are not followed (no cycles, no escaping the tree).
                        if Self.skips(folderNamed: name) || ignored?.contains(path + "/") == true { continue }
                        found.append(path)
                    case .file, .link:
                        if name.hasSuffix(".swift"), ignored?.contains(path) != true { files.append(path) }
                    case .folderLink:
                        continue
                    }
                }
            }
            work.collect(files, problems)
        }
        return Listing(files: work.files, unreadable: work.unreadable)
    }

    enum EntryKind { case file, folder, link, folderLink }

    /// The entries of a folder with their kinds, read with `readdir` (one `lstat` only where the
    /// file system does not say the kind); nil when the folder cannot be opened (`errno` says why).
    static func entries(of folder: String) -> [(String, EntryKind)]? {
        guard let stream = opendir(folder) else { return nil }
        defer { closedir(stream) }
        var result: [(String, EntryKind)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_REG): kind = .file
            case Int32(DT_LNK): kind = .link
            default:
                var info = stat()
                guard lstat("\(folder)/\(name)", &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: kind = .folder
                case S_IFLNK: kind = .link
                default: kind = .file
                }
            }
            if kind == .link {
                // A link to a file counts as a file; a link to a folder is told apart (never
                // entered); a link to nothing is left out.
                var info = stat()
                guard stat("\(folder)/\(name)", &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR { kind = .folderLink }
            }
            result.append((name, kind))
        }
        return result
    }

    /// Files (or folders) under a root whose name passes a test, by the walk's rules (hidden
    /// folders and build products skipped, links to folders not followed), sorted. When looking for
    /// folders, a folder that passes is listed and not entered; Xcode projects and workspaces are
    /// never entered.
    public func entries(under root: String, named accept: (String) -> Bool, folders: Bool = false) -> [String] {
        var result: [String] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let entries = Self.entries(of: folder) else { continue }
            for (name, kind) in entries where !name.hasPrefix(".") {
                let path = "\(folder)/\(name)"
                if kind == .folderLink {
                    // Not entered, but named: `App.xcodeproj` may be a link to the project.
                    if folders, accept(name) { result.append(path) }
                } else if kind == .folder {
                    if folders, accept(name) { result.append(path); continue }
                    if Self.skips(folderNamed: name) || name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") { continue }
                    pending.append(path)
                } else if !folders, accept(name) {
                    result.append(path)
                }
            }
        }
        return result.sorted()
    }

    /// The Swift files changed since a git revision (committed, staged, unstaged, renamed by their
    /// new path, and untracked), as paths relative to `root`, by the walk's rules: only `.swift`
    /// files that still exist, none in a skipped folder, only under `paths` (repo-relative; empty:
    /// everywhere). Nil when `root` is not in a git work tree or the revision is not a commit.
    public func swiftFiles(changedSince revision: String, root: String, under paths: [String] = []) -> [String]? {
        guard let top = Git.topLevel(of: root),
              Git.run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: root) != nil,
              let diff = Git.run(["diff", "--name-only", "-z", "--find-renames", "--diff-filter=ACMRT", revision, "--"], in: top),
              let untracked = Git.run(["ls-files", "--others", "--exclude-standard", "-z"], in: top) else { return nil }
        var result = Set<String>()
        for entry in (diff + [0] + untracked).split(separator: 0) where !entry.isEmpty {
            let path = (top as NSString).appendingPathComponent(String(decoding: entry, as: UTF8.self))
            guard let relative = RepositoryPath.relative(path, root: root), relative.hasSuffix(".swift"),
                  !Self.isInSkippedFolder(relative),
                  paths.isEmpty || paths.contains(where: { RepositoryPath.isWithin(relative, $0) }),
                  FileManager.default.fileExists(atPath: RepositoryPath.absolute(relative, root: root)) else { continue }
            result.insert(relative)
        }
        return result.sorted()
    }
}

/// What git ignores below a directory, asked once of git itself (so every rule of
/// `.gitignore`, `.git/info/exclude` and the global excludes file applies). Outside a git work
/// tree, or without git, nothing is ignored.
struct GitIgnored {
    private var paths: Set<String> = []

    init(directory: String) {
        guard let output = Git.run(["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--", "."],
                                   in: directory) else { return }
        let prefix = directory == "." ? "" : directory + "/"
        for entry in output.split(separator: 0) where !entry.isEmpty {
            paths.insert(prefix + String(decoding: entry, as: UTF8.self))
        }
    }

    /// Whether a path (with a trailing `/` for folders) is ignored, or lies in an ignored folder.
    func contains(_ path: String) -> Bool {
        guard !paths.isEmpty else { return false }
        if paths.contains(path) { return true }
        var candidate = Substring(path)
        while let slash = candidate.dropLast().lastIndex(of: "/") {
            candidate = candidate[...slash]
            if paths.contains(String(candidate)) { return true }
        }
        return false
    }
}

/// What git ignores, asked on another thread while the walk goes on.
final class PendingIgnored: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: GitIgnored?
    private let answered = DispatchGroup()

    init(directory: String) {
        answered.enter()
        // A thread of its own: the walk's threads may hold every worker of the shared pool.
        Thread { [self] in
            let found = GitIgnored(directory: directory)
            lock.lock()
            answer = found
            lock.unlock()
            answered.leave()
        }.start()
    }

    /// The answer, when git has given it already.
    var ifKnown: GitIgnored? {
        lock.lock()
        defer { lock.unlock() }
        return answer
    }

    /// The answer, waiting for it.
    var value: GitIgnored {
        answered.wait()
        return ifKnown!
    }
}

/// The folders still to list, shared by the threads of a walk: a thread takes one, lists it and
/// hands back the folders found in it; the walk ends when none is left and none is being listed.
final class FolderQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [String]
    private var listing = 0
    private(set) var files: [String] = []
    private(set) var unreadable: [(walked: String, folder: FileWalker.UnreadableFolder)] = []

    init(_ root: String) { pending = [root] }

    /// The next folder to list, waiting while others may still find some; nil when all are done.
    func next() -> String? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if listing == 0 { return nil }
            condition.wait()
        }
        listing += 1
        return pending.removeLast()
    }

    /// A folder is listed, with the folders found in it.
    func finish(_ found: [String]) {
        condition.lock()
        pending += found
        listing -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// A thread's results.
    func collect(_ found: [String], _ problems: [(walked: String, folder: FileWalker.UnreadableFolder)]) {
        condition.lock()
        files += found
        unreadable += problems
        condition.unlock()
    }
}
