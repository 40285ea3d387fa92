import Foundation

/// Finds the Swift files under the paths a user names.
///
/// Directories are searched recursively for `.swift` files (hidden ones too, as swiftc compiles
/// them), skipping what is never a team's source: git's own folder, and build output and
/// dependency checkouts where their tools put them (`DependencyFolder`), which the walk names
/// (`Walk.skippedFolders`) so that nothing is left out silently; and what git ignores (inside a
/// git work tree). Links to folders inside the tree are followed (SwiftPM compiles through
/// them), each target once. A file named directly is always taken, whatever its name.
public struct FileWalker {
    /// The endings of the files the walk finds (`.swift`; Interface Builder's readers add
    /// `.storyboard` and `.xib`).
    public var endings: [String]

    public init(endings: [String] = [".swift"]) {
        self.endings = endings
    }

    /// Whether a relative file path lies in a folder the walk never enters (the same rules as the
    /// walk, for files named by git rather than found by walking): the folder and why, else nil.
    /// - Parameter root: the folder the path is relative to, to see what lies beside each folder.
    public static func skippedFolder(of relative: String, root: String) -> SkippedFolder? {
        var folder = ""
        for component in relative.split(separator: "/").dropLast() {
            let parent = folder.isEmpty ? root : RepositoryPath.absolute(folder, root: root)
            let path = folder.isEmpty ? String(component) : folder + "/" + component
            if let skip = DependencyFolder.skip(name: String(component), parent: parent) {
                return SkippedFolder(path: path, reason: skip.reason, isCheckout: skip.isCheckout)
            }
            folder = path
        }
        return nil
    }

    /// A folder never entered, and why (build output or a dependency checkout).
    public struct SkippedFolder: Sendable, Equatable {
        /// As the walk spells it (the repo-relative path, for a repository's root).
        public var path: String
        public var reason: String
        /// Build output or a dependency checkout (which a SwiftPM target compiles when its folder
        /// holds one), not a repository of its own nor a link leading out.
        public var isCheckout: Bool

        public init(path: String, reason: String, isCheckout: Bool = false) {
            self.path = path
            self.reason = reason
            self.isCheckout = isCheckout
        }
    }

    /// Files beside a file whose names differ from its name only in Unicode normalisation
    /// (`Café.swift` written NFC and NFD): two files on Linux, one name to Swift's strings, so
    /// the lock-down counts their uses together, and a check of one must look at both.
    public static func namesakes(of path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard name.utf8.contains(where: { $0 >= 0x80 }), let entries = entries(of: folder.isEmpty ? "." : folder) else { return [] }
        return entries.compactMap { entry, kind in
            guard kind == .file || kind == .link, entry == name, !entry.utf8.elementsEqual(name.utf8) else { return nil }
            return folder.isEmpty ? entry : folder + "/" + entry
        }
    }

    /// The Swift files, repo-relative, that are links (to a file, or inside a link to a folder)
    /// whose target is one of some repo-relative paths: what else a change to those paths changes.
    /// Links are those git knows (tracked, or untracked and not ignored); empty outside git.
    public static func linkedPaths(to targets: [String], root: String) -> [String] {
        guard !targets.isEmpty, let top = Git.topLevel(of: root),
              let tracked = Git.run(["ls-files", "-s", "-z"], in: top),
              let untracked = Git.untrackedFiles(top: top) else { return [] }
        var links: [String] = []
        for entry in tracked.split(separator: 0) where entry.starts(with: Array("120000 ".utf8)) {
            guard let tab = entry.firstIndex(of: 0x09) else { continue }
            links.append(String(decoding: entry[(tab + 1)...], as: UTF8.self))
        }
        for name in untracked {
            if isLink((top as NSString).appendingPathComponent(name)) { links.append(name) }
        }
        guard !links.isEmpty, let realRoot = RepositoryPath.real(root) else { return [] }
        let wanted = Set(targets.map { PathKey($0) })
        var result: [String] = []
        for link in links {
            let absolute = (top as NSString).appendingPathComponent(link)
            guard let relativeLink = RepositoryPath.relative(absolute, root: root),
                  let real = RepositoryPath.real(absolute), real.hasPrefix(realRoot + "/") else { continue }
            let target = String(real.dropFirst(realRoot.count + 1))
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                if relativeLink.hasSuffix(".swift"), wanted.contains(PathKey(target)) { result.append(relativeLink) }
                continue
            }
            for name in targets where name.hasSuffix(".swift") && RepositoryPath.isWithin(name, target) && name != target {
                result.append(relativeLink + "/" + name.dropFirst(target.count + 1))
            }
        }
        return result
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
        /// Folders not entered on purpose (build output, dependency checkouts, links that lead
        /// out of the tree), sorted, each with why; none that git ignores.
        public var skippedFolders: [SkippedFolder] = []
        /// Files found that the walk's `keep` test left out, sorted.
        public var leftOut: [String] = []
        /// Second paths of files in `files` (a link beside its target), sorted: where else a
        /// compiler meets the same file (a link inside a module to a file outside it).
        public var aliases: [String] = []
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
    /// - Parameter keep: which files found to keep (a configuration's `include:`/`exclude:`), asked
    ///   before duplicates are dropped, so that of a file reached twice (a link beside its target)
    ///   the path kept is one the test keeps: a link into an excluded folder is still a file.
    public func walk(_ paths: [String], keep: ((String) -> Bool)? = nil) throws -> Walk {
        var unreadable: [UnreadableFolder] = []
        var skipped: [SkippedFolder] = []
        var linked = Set<String>()
        var fileLinks = Set<PathKey>()
        var candidates = try candidates(under: paths, unreadable: &unreadable, skipped: &skipped, linked: &linked, fileLinks: &fileLinks)
        var leftOut: [String] = []
        if let keep {
            var kept: [String] = []
            for path in candidates { if keep(path) { kept.append(path) } else { leftOut.append(path) } }
            candidates = kept
        }
        // Several paths may reach one folder by different spellings (`Sources` and a link to it).
        if paths.count > 1 { candidates = Self.withoutSpellingsOfOneFile(candidates) }
        unreadable.sort { $0.path < $1.path }
        skipped.sort { $0.path < $1.path }
        let files = Self.withoutDuplicates(candidates, linkedFolders: linked, fileLinks: fileLinks)
        let kept = Set(files.map { PathKey($0) })
        return Walk(files: files, unreadableFolders: unreadable, skippedFolders: skipped, leftOut: leftOut,
                    aliases: files.count == candidates.count ? [] : candidates.filter { !kept.contains(PathKey($0)) })
    }

    /// Candidates without the second path of a file reached twice (through a symbolic link to
    /// the file or to a folder on its path).
    /// - Parameter linkedFolders: the links to folders the walk followed, as it spells them.
    /// - Parameter fileLinks: the candidates that are links (known from the kinds of the folders'
    ///   entries, not asked of each file).
    static func withoutDuplicates(_ candidates: [String], linkedFolders: Set<String>, fileLinks: Set<PathKey>) -> [String] {
        // Only links can duplicate a file; resolving every path would be slow on large trees.
        let links = Set(candidates.filter { path in
            if !fileLinks.isEmpty, fileLinks.contains(PathKey(path)) { return true }
            // Reached through a link to a folder the walk followed?
            guard !linkedFolders.isEmpty else { return false }
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
                folder = folder[..<slash]
                if linkedFolders.contains(String(folder)) { return true }
            }
            return false
        }.map(PathKey.init))
        guard !links.isEmpty else { return candidates }
        let targets = Set(links.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path })
        let targetNames = Set(targets.map { ($0 as NSString).lastPathComponent })
        var byRealPath: [PathKey: String] = [:]
        for path in candidates {
            let isLink = links.contains(PathKey(path))
            let mayBeTarget = isLink || targetNames.contains((path as NSString).lastPathComponent)
            let real = PathKey(mayBeTarget ? URL(fileURLWithPath: path).resolvingSymlinksInPath().path : "=" + path)
            if let kept = byRealPath[real], !links.contains(PathKey(kept)) || isLink { continue }
            byRealPath[real] = path
        }
        return byRealPath.values.sorted(by: PathKey.byBytes)
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

    private func candidates(under paths: [String], unreadable: inout [UnreadableFolder],
                            skipped: inout [SkippedFolder], linked: inout Set<String>, fileLinks: inout Set<PathKey>) throws -> [String] {
        // By bytes: two names that differ only in Unicode normalisation (`Café.swift` written
        // NFC and NFD) are two files, though Swift's strings call them equal.
        var result = Set<PathKey>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MissingPathError(path: path)
            }
            if isDirectory.boolValue {
                // Spelled as the files named directly are, so a folder named twice is one folder.
                result.formUnion(filesInDirectory(Self.normalize(path), unreadable: &unreadable, skipped: &skipped, linked: &linked,
                                                  fileLinks: &fileLinks).map(PathKey.init))
            } else {
                let file = Self.normalize(path)
                result.insert(PathKey(file))
                if Self.isLink(file) { fileLinks.insert(PathKey(file)) }
            }
        }
        return result.map(\.path).sorted(by: PathKey.byBytes)
    }

    /// `./A/../B.swift` → `B.swift`: the shortest spelling of a path, still relative when it was.
    /// Absolute paths inside the current folder become relative too, so a file named both ways is
    /// one file. Symbolic links are not resolved (see `DisplayPath.lexicallyNormalized`).
    static func normalize(_ path: String) -> String {
        DisplayPath()(path)
    }

    private func filesInDirectory(_ directory: String, unreadable: inout [UnreadableFolder],
                                  skipped: inout [SkippedFolder], linked: inout Set<String>, fileLinks: inout Set<PathKey>) -> [String] {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        // Git is asked what it ignores while the walk starts; until it answers, ignored folders
        // may be entered, and what was found in them is dropped at the end.
        let asked = PendingIgnored(directory: base)
        let listing = list(base, ignored: { asked.ifKnown })
        let ignored = asked.value
        // Judged by the walk's own spelling of the folder (the ignore list's), shown tidied.
        unreadable += listing.unreadable.filter { !ignored.contains($0.walked + "/") }.map(\.folder)
        skipped += listing.skipped.filter { !ignored.contains($0.path + "/") }.map { folder in
            SkippedFolder(path: Self.normalize(folder.path), reason: folder.reason, isCheckout: folder.isCheckout)
        }
        // The folder was named already: only the part below it needs tidying.
        let prefix = base == "." ? "" : base + "/"
        let tidy = prefix.hasPrefix("./") || prefix.contains("/../") || prefix.contains("/./")
        linked.formUnion(listing.linkedFolders.map { tidy ? Self.normalize($0) : $0 })
        fileLinks.formUnion(listing.fileLinks.filter { !ignored.contains($0) }.map { PathKey(tidy ? Self.normalize($0) : $0) })
        return listing.files.filter { !ignored.contains($0) }.map { tidy ? Self.normalize($0) : $0 }
    }

    /// What listing a folder's tree found: Swift files (unfiltered by what git ignores, unless
    /// `ignored` answered while listing) and folders that could not be read.
    struct Listing {
        var files: [String]
        var unreadable: [(walked: String, folder: UnreadableFolder)]
        /// As the walk spells them.
        var skipped: [SkippedFolder]
        /// Links to folders that were followed, as the walk spells them.
        var linkedFolders: [String]
        /// The files of `files` that are links (to files).
        var fileLinks: [String]
    }

    /// Lists a folder's tree on every core (listing a large tree is mostly waiting on the kernel).
    private func list(_ base: String, ignored: @escaping () -> GitIgnored?) -> Listing {
        let work = FolderQueue(base)
        let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Links to folders are followed when they lead to a folder inside the walk's tree, each
        // target once (so a link to an ancestor, or two links to each other, end).
        let realBase = RepositoryPath.real(base.hasPrefix("/") ? base : FileManager.default.currentDirectoryPath + "/" + base)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            var files: [String] = []
            var links: [String] = []
            var problems: [(walked: String, folder: UnreadableFolder)] = []
            var skipped: [SkippedFolder] = []
            while let folder = work.next() {
                var found: [String] = []
                defer { work.finish(found) }
                guard let entries = Self.entries(of: folder) else {
                    let reason = String(cString: strerror(errno)).lowercased()
                    problems.append((folder, UnreadableFolder(path: folder == "." ? "." : Self.normalize(folder), reason: "folder cannot be read (\(reason))")))
                    continue
                }
                let ignored = ignored()
                for (name, kind) in entries where name != ".git" {
                    let path = folder == "." ? name : "\(folder)/\(name)"
                    switch kind {
                    case .folder:
                        if ignored?.contains(path + "/") == true { continue }
                        if let skip = DependencyFolder.skip(name: name, parent: folder) {
                            skipped.append(SkippedFolder(path: path, reason: skip.reason, isCheckout: skip.isCheckout))
                            continue
                        }
                        found.append(path)
                    case .file, .link:
                        if endings.contains(where: { name.hasSuffix($0) }), ignored?.contains(path) != true {
                            files.append(path)
                            if kind == .link { links.append(path) }
                        }
                    case .folderLink:
                        if ignored?.contains(path + "/") == true || ignored?.contains(path) == true { continue }
                        guard let realBase, let target = RepositoryPath.real(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path),
                              target == realBase || target.hasPrefix(realBase == "/" ? "/" : realBase + "/") else {
                            skipped.append(SkippedFolder(path: path, reason: "a link to a folder outside the tree; not followed"))
                            continue
                        }
                        // A link to a folder above it (or to the tree's top) leads back into
                        // what is being walked anyway: every file there is judged at its own path.
                        let here = RepositoryPath.real(folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder) ?? folder
                        if here == target || here.hasPrefix(target == "/" ? "/" : target + "/") { continue }
                        if work.follow(target, at: path) { found.append(path) }
                    }
                }
            }
            work.collect(files, links, problems, skipped)
        }
        return Listing(files: work.files, unreadable: work.unreadable, skipped: work.skipped, linkedFolders: work.followedLinks,
                       fileLinks: work.fileLinks)
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

    /// Files (or folders) under a root whose name passes a test, by the walk's rules (build
    /// output and dependency checkouts skipped), links to folders not followed, sorted. When looking for
    /// folders, a folder that passes is listed and not entered; Xcode projects and workspaces are
    /// never entered.
    public func entries(under root: String, named accept: (String) -> Bool, folders: Bool = false) -> [String] {
        var result: [String] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let entries = Self.entries(of: folder) else { continue }
            for (name, kind) in entries where name != ".git" {
                let path = "\(folder)/\(name)"
                if kind == .folderLink {
                    // Not entered, but named: `App.xcodeproj` may be a link to the project.
                    if folders, accept(name) { result.append(path) }
                } else if kind == .folder {
                    if folders, accept(name) { result.append(path); continue }
                    if DependencyFolder.reason(name: name, parent: folder) != nil || name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") { continue }
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
        changes(since: revision, root: root, under: paths)?.files
    }

    /// The Swift files changed since a git revision (see `swiftFiles(changedSince:root:under:)`),
    /// and the folders that left changed files out (build output, dependency checkouts).
    public struct Changes: Sendable, Equatable {
        public var files: [String]
        public var skipped: [SkippedFolder]
        /// The changed files in them, each with its folder.
        public var inSkipped: [(file: String, folder: SkippedFolder)] = []

        public static func == (lhs: Changes, rhs: Changes) -> Bool {
            lhs.files == rhs.files && lhs.skipped == rhs.skipped && lhs.inSkipped.map(\.file) == rhs.inSkipped.map(\.file)
        }
    }

    /// The Swift files changed since a git revision, as `swiftFiles(changedSince:root:under:)`, and
    /// the skipped folders that held changed Swift files.
    public func changes(since revision: String, root: String, under paths: [String] = []) -> Changes? {
        guard let top = Git.topLevel(of: root),
              Git.run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: root) != nil,
              let diff = Git.run(["diff", "--name-only", "-z", "--find-renames", "--diff-filter=ACMRT", revision, "--"], in: top),
              let untracked = Git.untrackedFiles(top: top) else { return nil }
        var result = Set<PathKey>()
        var skipped: [SkippedFolder] = []
        var inSkipped: [(file: String, folder: SkippedFolder)] = []
        let changed = diff.split(separator: 0).filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
        let names = (changed + untracked).map { (top as NSString).appendingPathComponent($0) }
        // A change to a link's target (an excluded file, a file of another name, a folder's
        // content) is a change to the Swift file the link is.
        let linked = Self.linkedPaths(to: names.compactMap { RepositoryPath.relative($0, root: root) }, root: root)
        for path in names + linked.map({ RepositoryPath.absolute($0, root: root) }) {
            guard let relative = RepositoryPath.relative(path, root: root), relative.hasSuffix(".swift"),
                  paths.isEmpty || paths.contains(where: { RepositoryPath.isWithin(relative, $0) }),
                  FileManager.default.fileExists(atPath: RepositoryPath.absolute(relative, root: root)) else { continue }
            if let folder = Self.skippedFolder(of: relative, root: root) {
                if !skipped.contains(folder) { skipped.append(folder) }
                inSkipped.append((relative, folder))
                continue
            }
            result.insert(PathKey(relative))
        }
        return Changes(files: result.map(\.path).sorted(by: PathKey.byBytes), skipped: skipped.sorted { $0.path < $1.path },
                       inSkipped: inSkipped)
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
    /// The files found that are links.
    private(set) var fileLinks: [String] = []
    private(set) var unreadable: [(walked: String, folder: FileWalker.UnreadableFolder)] = []
    private(set) var skipped: [FileWalker.SkippedFolder] = []
    private var followed = Set<String>()
    /// The links followed, as the walk spells them.
    private(set) var followedLinks: [String] = []

    init(_ root: String) { pending = [root] }

    /// Whether a link (at `path`) to the folder at the real path `target` is to be followed: the
    /// first time only.
    func follow(_ target: String, at path: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard followed.insert(target).inserted else { return false }
        followedLinks.append(path)
        return true
    }

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
    func collect(_ found: [String], _ links: [String], _ problems: [(walked: String, folder: FileWalker.UnreadableFolder)],
                 _ skippedFolders: [FileWalker.SkippedFolder]) {
        condition.lock()
        files += found
        fileLinks += links
        unreadable += problems
        skipped += skippedFolders
        condition.unlock()
    }
}

/// A path compared by its bytes: Swift's strings compare by canonical equivalence, so `Café.swift`
/// written NFC and NFD would be one file, though the file system holds two.
public struct PathKey: Hashable, Sendable {
    public let path: String
    private let bytes: [UInt8]

    public init(_ path: String) {
        self.path = path
        bytes = Array(path.utf8)
    }

    public static func == (lhs: PathKey, rhs: PathKey) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Sorted as strings, ties (names equal but for normalisation) by bytes.
    static func byBytes(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs ? Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8)) : lhs < rhs
    }

    /// Whether two paths are spelled with the same bytes, not merely the same characters (as
    /// `==` says of strings), without making keys of them.
    public static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        guard !left.isEmpty else { return true }
        let compared = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
        return compared.flatMap { $0 } ?? left.elementsEqual(right)
    }
}

extension Dictionary where Key == String {
    /// Values by path, but for paths equal but for Unicode normalisation (`Café.swift` written
    /// NFC and NFD: two files, one key of a dictionary of strings), which are left out: neither
    /// may be taken for the other.
    public init(byPath pairs: some Sequence<(String, Value)>) {
        self.init()
        var twins = Set<String>()
        for (path, value) in pairs where updateValue(value, forKey: path) != nil { twins.insert(path) }
        for twin in twins { self[twin] = nil }
    }
}

/// Folders that are never a team's source: build output and dependency checkouts where the
/// package managers put them. Folders of the same names elsewhere (a module named `Pods`, a
/// committed `Carthage` folder without a `Cartfile`) are walked like any other.
public enum DependencyFolder {
    /// Why a folder named `name` inside `parent` is never walked, or nil when it is walked.
    public static func reason(name: String, parent: String) -> String? {
        skip(name: name, parent: parent)?.reason
    }

    /// Why a folder named `name` inside `parent` is never walked, and whether it is build output
    /// or a dependency checkout (else a repository of its own); nil when it is walked.
    public static func skip(name: String, parent: String) -> (reason: String, isCheckout: Bool)? {
        if let reason = checkout(name: name, parent: parent) { return (reason, true) }
        // A git submodule or a repository of its own: its lock-down is its repository's (a
        // `--changed-since` check sees none of its files, so a full check must not either).
        let folder = (parent as NSString).appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(".git"))
            ? ("a git submodule or a repository of its own (its own lock-down judges it)", false) : nil
    }

    /// Why a folder is build output or a dependency checkout where its tool puts it, else nil.
    static func checkout(name: String, parent: String) -> String? {
        func beside(_ file: String) -> Bool {
            FileManager.default.fileExists(atPath: (parent as NSString).appendingPathComponent(file))
        }
        // What the tool itself writes inside the folder: a folder merely named like one is a team's.
        func holds(_ files: [String]) -> Bool {
            let folder = (parent as NSString).appendingPathComponent(name)
            return files.contains { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }
        }
        switch name {
        case ".build" where beside("Package.swift") && holds(["workspace-state.json", "checkouts", "repositories", "debug", "release"]):
            return "SwiftPM's build folder (beside Package.swift)"
        case "Pods" where beside("Podfile") && holds(["Manifest.lock"]):
            return "CocoaPods' dependency checkouts (beside Podfile)"
        case "Carthage" where beside("Cartfile") && holds(["Checkouts", "Build"]):
            return "Carthage's dependency checkouts and builds (beside Cartfile)"
        case "node_modules" where beside("package.json") && holds([".package-lock.json", ".yarn-integrity", ".modules.yaml", ".yarn-state.yml"]):
            return "npm's dependency checkouts (beside package.json)"
        case "DerivedData" where holds(["ModuleCache.noindex", "Build/Intermediates.noindex", "Logs/Build"]):
            return "Xcode's build output (DerivedData)"
        default:
            return nil
        }
    }
}
