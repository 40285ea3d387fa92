import Foundation

/// Remembers what git ignores under a folder, and everything that answer depends on, so that an
/// unchanged tree needs no `git ls-files --ignored` (which walks the whole tree itself).
///
/// Git's answer depends only on the names in the tree, the ignore rules and which files are
/// tracked. So it is remembered with the stamps (see `FileStamp`) of every folder listed (a
/// folder's times change whenever an entry comes, goes or is renamed), every `.gitignore` in the
/// tree and above it, git's index, `info/exclude` and configuration files, and the user's global
/// ignore and configuration files. When all stamps are the same, so is the answer; otherwise git is
/// asked again. Outside a plain git work tree (no `.git` folder above: a worktree, a submodule, no
/// git) nothing is remembered. An answer whose stamps are within a second of being written is not
/// kept (a change within that second might not show in the stamps, as git's "racily clean").
enum IgnoreCache {
    static let format = "swiftmod-ignored-1"

    /// Tests only: the clock `save` judges recent stamps by, and how many walks used a remembered answer.
    nonisolated(unsafe) static var clockForTests: Double?
    nonisolated(unsafe) static var answersReused = 0

    /// The remembered answer for a walk from `base`, with the stamps it depends on; nil when there is
    /// none (or it is damaged).
    static func load(_ path: String, base: String) -> (ignored: GitIgnored, stamps: [String: FileStamp?])? {
        guard let payload = CacheFile.read(path, format: format, key: key(base)) else { return nil }
        var reader = ByteReader(payload)
        do {
            var ignored = Set<String>()
            for _ in 0..<max(0, try reader.readInt()) { ignored.insert(try reader.readString()) }
            var stamps: [String: FileStamp?] = [:]
            for _ in 0..<max(0, try reader.readInt()) {
                let name = try reader.readString()
                stamps[name] = .some(try reader.readBool() ? try FileStamp(from: &reader) : nil)
            }
            guard reader.isAtEnd else { return nil }
            return (GitIgnored(paths: ignored), stamps)
        } catch {
            return nil
        }
    }

    /// Remembers an answer, unless a stamp is too recent to vouch for what it stamps.
    static func save(_ path: String, base: String, ignored: GitIgnored, stamps: [String: FileStamp?],
                     now: Double = clockForTests ?? Date().timeIntervalSince1970) {
        let racyFrom = now.rounded(.down) - 1
        guard !stamps.values.contains(where: { ($0?.modified ?? 0) >= racyFrom || ($0?.changed ?? 0) >= racyFrom }) else {
            // Not trusted next time: the old file must not be either.
            unlink(path)
            return
        }
        var writer = ByteWriter()
        writer.write(ignored.paths.count)
        for entry in ignored.paths.sorted() { writer.write(entry) }
        writer.write(stamps.count)
        for name in stamps.keys.sorted() {
            writer.write(name)
            let stamp = stamps[name]!
            writer.write(stamp != nil)
            stamp?.write(to: &writer)
        }
        CacheFile.write(path, format: format, key: key(base), payload: writer.bytes)
    }

    /// What the walk's paths are spelled from: the base as given, and where it really is.
    static func key(_ base: String) -> String {
        ContentHash.hex(Array("\(base)\n\(RepositoryPath.real(base) ?? base)".utf8))
    }

    /// The stamps of the rule files outside the listed tree: `.gitignore` of each folder from the
    /// base up to the work tree's top, and git's and the user's files; nil when no `.git` folder is
    /// found above the base (then nothing is remembered).
    static func ruleStamps(above base: String) -> [String: FileStamp?]? {
        guard var folder = RepositoryPath.real(base) else { return nil }
        var stamps: [String: FileStamp?] = [:]
        var gitFolder: String?
        while true {
            if folder != RepositoryPath.real(base) {
                stamps["^" + folder + "/.gitignore"] = .some(FileStamp(ofPath: folder + "/.gitignore"))
            }
            var info = stat()
            let dotGit = (folder == "/" ? "" : folder) + "/.git"
            if lstat(dotGit, &info) == 0 {
                // A `.git` file (a worktree, a submodule) points elsewhere: not followed.
                guard info.st_mode & S_IFMT == S_IFDIR else { return nil }
                gitFolder = dotGit
                break
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
        }
        guard let gitFolder else { return nil }
        var files = ["\(gitFolder)/index", "\(gitFolder)/info/exclude", "\(gitFolder)/config", "/etc/gitconfig"]
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        files += [home + "/.gitconfig", xdg + "/git/config", xdg + "/git/ignore"]
        for file in files { stamps["^" + file] = .some(FileStamp(ofPath: file)) }
        // A global ignore file named in the configuration.
        if let excludes = Git.run(["config", "--get", "core.excludesFile"], in: base) {
            var named = String(decoding: excludes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if named.hasPrefix("~/") { named = home + named.dropFirst() }
            stamps["^excludes " + named] = .some(FileStamp(ofPath: named))
        }
        return stamps
    }
}

extension FileStamp {
    /// The stamp of a path (not following a last symbolic link), or nil when there is nothing.
    init?(ofPath path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}
