import CodemodKit
import Foundation
import Workspace
import Migrations

/// What version control knows about the files a baseline names: what became of files that are
/// gone, how alike a gone file was to a present one, and which lines of a file are new since the
/// baseline was recorded. `Comparison` asks; `GitFileHistory` answers from git.
public protocol FileHistory {
    /// For each gone file whose end history knows: renamed (followed through later renames to a
    /// file that exists now) or removed. Files history does not know (removed in the work tree
    /// with the new file not added, or before a shallow clone's first commit) are left out.
    func fates(of gone: [String]) -> [String: FileFate]
    /// How alike gone files' last versions are to present files (0...1), with a type renamed
    /// along with its file (`Feed.swift` holding `Feed` → `Timeline.swift`) counted as the same
    /// name. Pairs without an answer are unknown (no last version here).
    func similarities(of pairs: [FilePair]) -> [FilePair: Double]
    /// For present files (with the files they were renamed from): the lines (1-based) that were
    /// not there when the baseline was recorded. Files without an answer are unknown.
    func newLines(in files: [String: [String]]) -> [String: Set<Int>]
}

/// What became of a file that is gone.
public enum FileFate: Equatable, Sendable {
    /// Renamed or moved to this file, which exists now.
    case renamed(String)
    /// Removed without a rename git could see (at most 50% alike to any new file); it may still
    /// live on, edited beyond git's measure, so its last version can be compared.
    case removed
}

/// A file that is gone and a file that is here: perhaps the same file, renamed or moved.
public struct FilePair: Hashable, Sendable {
    public var gone: String
    public var present: String

    public init(gone: String, present: String) {
        self.gone = gone
        self.present = present
    }
}

/// A file's name without folder and extension: `Sources/Feed.swift` → `Feed`.
func fileStem(_ path: String) -> String {
    ((path as NSString).lastPathComponent as NSString).deletingPathExtension
}

/// `FileHistory` from git, for a repository root (or a folder inside one).
///
/// - Fates: renames in the work tree and index (`git diff -M HEAD`), and for files removed by a
///   commit, git's own rename detection on that commit against its first parent (`git diff -M`,
///   50% alike), followed through later renames: where `git log --follow` would say.
/// - Similarity: a gone file's last version (in `HEAD`, or before the commit that removed it)
///   against a present file: the share of lines (trimmed, weighted by length, blank lines and lone
///   brackets aside) they have in common, against the longer of the two, with the old file name
///   read as the new one (the type renamed with its file).
/// - New lines: a line diff against the last commit that changed the baseline file, when it is
///   committed.
///
/// A few git processes per question, however many files.
public final class GitFileHistory: FileHistory {
    private let root: String
    private let baselinePath: String?
    /// Where each gone file's last version is (`HEAD:./path`, `COMMIT^:./path`), once fates are known.
    private var lastVersions: [String: (spec: String, path: String)] = [:]

    /// Whether the repository is a shallow clone (history cut short).
    public var isShallow: Bool {
        Git.run(["rev-parse", "--is-shallow-repository"], in: root).map { String(decoding: $0, as: UTF8.self).hasPrefix("true") } ?? false
    }

    /// Whether the root is inside a git work tree at all.
    public var isRepository: Bool {
        Git.run(["rev-parse", "--is-inside-work-tree"], in: root).map { String(decoding: $0, as: UTF8.self).hasPrefix("true") } ?? false
    }

    /// - Parameters:
    ///   - root: the folder repo-relative paths are relative to.
    ///   - baselinePath: the baseline file (absolute, or relative to root), for `newLines`.
    public init(root: String, baselinePath: String? = nil) {
        self.root = root
        self.baselinePath = baselinePath
    }

    public func fates(of gone: [String]) -> [String: FileFate] {
        // Nothing gone (an unchanged tree): git need not be asked.
        guard !gone.isEmpty else { return [:] }
        let exists = { (file: String) in FileManager.default.fileExists(atPath: (self.root as NSString).appendingPathComponent(file)) }
        // Renamed or deleted in the work tree or the index: HEAD still has them.
        var step: [String: String?] = [:]
        var inHEAD = Set<String>()
        for change in Self.nameStatus(Git.run(["diff", "-M", "-l0", "-z", "--name-status", "--relative", "HEAD"], in: root))
        where change.status == "D" || change.status == "R" {
            inHEAD.insert(change.old)
            if change.status == "R" { step[change.old] = change.new }
        }
        // Removed by commits: what git's rename detection says of each, through later renames.
        var removedAt: [String: String] = [:]
        var pending = gone.filter { !inHEAD.contains($0) }
        for _ in 0..<8 where !pending.isEmpty {
            let found = committedFates(of: pending)
            for (file, fate) in found {
                step[file] = fate.renamedTo
                removedAt[file] = fate.commit
            }
            pending = found.values.compactMap(\.renamedTo).filter { !exists($0) && step[$0] == nil && !inHEAD.contains($0) }
        }
        var fates: [String: FileFate] = [:]
        for file in gone {
            // Follow the renames to the end: a file that exists, one removed, or one history lost.
            var end = file
            var seen: Set<String> = [file]
            while let next = step[end] ?? nil, !seen.contains(next) {
                seen.insert(next)
                end = next
                if exists(next) { break }
            }
            if exists(end) {
                fates[file] = .renamed(end)
            } else if inHEAD.contains(end) {
                lastVersions[file] = ("HEAD:./\(end)", end)  // removed in the work tree: unknown, comparable
            } else if let commit = removedAt[end], step[end] != nil {
                lastVersions[file] = ("\(commit)^:./\(end)", end)
                fates[file] = .removed
            }
        }
        return fates
    }

    /// For files removed by a commit (on the first-parent line, merges included): that commit and
    /// what it renamed each file to (nil: removed). Files whose removing commit has no parent here
    /// (a shallow clone) are left out.
    private func committedFates(of files: [String]) -> [String: (commit: String, renamedTo: String?)] {
        var removedBy: [String: String] = [:]
        for chunk in stride(from: 0, to: files.count, by: 500).map({ Array(files[$0..<min($0 + 500, files.count)]) }) {
            guard let log = Git.run(["log", "--first-parent", "--diff-merges=first-parent", "--format=%x01%H", "--name-only", "-z",
                                     "--diff-filter=D", "--relative", "HEAD", "--"] + chunk, in: root) else { continue }
            var commit = ""
            for field in log.split(separator: 0) {
                var name = String(decoding: field, as: UTF8.self)
                if name.hasPrefix("\n") { name.removeFirst() }
                if name.hasPrefix("\u{1}") {
                    commit = String(name.dropFirst())
                } else if !name.isEmpty, removedBy[name] == nil {
                    removedBy[name] = commit
                }
            }
        }
        var fates: [String: (String, String?)] = [:]
        for (commit, removed) in Dictionary(grouping: removedBy.keys, by: { removedBy[$0]! }) {
            guard let output = Git.run(["diff", "-M", "-l0", "-z", "--name-status", "--relative", "\(commit)^", commit], in: root) else { continue }
            let renames = Dictionary(Self.nameStatus(output).filter { $0.status == "R" }.map { ($0.old, $0.new) }, uniquingKeysWith: { first, _ in first })
            for file in removed { fates[file] = (commit, renames[file]) }
        }
        return fates
    }

    /// `git diff --name-status -z` output as changes (status letter, old path, new path).
    static func nameStatus(_ output: [UInt8]?) -> [(status: Character, old: String, new: String)] {
        guard let output else { return [] }
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var changes: [(Character, String, String)] = []
        var index = 0
        while index < fields.count, let status = fields[index].first {
            if status == "R" || status == "C", index + 2 < fields.count {
                changes.append((status, fields[index + 1], fields[index + 2]))
                index += 3
            } else if index + 1 < fields.count {
                changes.append((status, fields[index + 1], fields[index + 1]))
                index += 2
            } else {
                break
            }
        }
        return changes
    }

    public func similarities(of pairs: [FilePair]) -> [FilePair: Double] {
        guard !pairs.isEmpty else { return [:] }
        let gone = Array(Set(pairs.map(\.gone))).sorted()
        let versions = gone.map { lastVersions[$0] ?? ("HEAD:./\($0)", $0) }
        var old: [String: (text: String, path: String)] = [:]
        for (file, (bytes, version)) in zip(gone, zip(blobs(versions.map(\.spec)), versions)) {
            if let bytes { old[file] = (String(decoding: bytes, as: UTF8.self), version.path) }
        }
        var new: [String: [Substring: Int]] = [:]
        var answers: [FilePair: Double] = [:]
        for pair in pairs {
            guard let before = old[pair.gone] else { continue }
            if new[pair.present] == nil {
                guard let bytes = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(pair.present)) else { continue }
                new[pair.present] = Self.lineWeights(String(decoding: bytes, as: UTF8.self))
            }
            let after = new[pair.present]!
            let was = Self.lineWeights(Self.renaming(fileStem(before.path), to: fileStem(pair.present), in: before.text))
            let shared = was.reduce(0) { $0 + min($1.value, after[$1.key] ?? 0) }
            let longer = max(was.values.reduce(0, +), after.values.reduce(0, +))
            if longer > 0 { answers[pair] = Double(shared) / Double(longer) }
        }
        return answers
    }

    /// The text with `old` read as `new` wherever it stands, also inside longer identifiers and
    /// in lowerCamelCase (`FeedViewControllerChanged`, `feedViewController`): a type renamed with
    /// its file renames those too. Names shorter than four characters are left as they are.
    static func renaming(_ old: String, to new: String, in text: String) -> String {
        guard old != new, old.count >= 4, !new.isEmpty, old.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return text }
        func lowerCamel(_ name: String) -> String { name.prefix(1).lowercased() + name.dropFirst() }
        return text.replacingOccurrences(of: old, with: new).replacingOccurrences(of: lowerCamel(old), with: lowerCamel(new))
    }

    public func newLines(in files: [String: [String]]) -> [String: Set<Int>] {
        guard !files.isEmpty, let baselinePath,
              let log = Git.run(["log", "-1", "--format=%H", "--", baselinePath], in: root) else { return [:] }
        let commit = String(decoding: log, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !commit.isEmpty else { return [:] }
        // Each file as it was then (under its own name, or the first name it had before).
        let names = files.keys.sorted()
        let candidates = names.map { [$0] + (files[$0] ?? []) }
        let found = blobs(candidates.flatMap { $0.map { "\(commit):./\($0)" } })
        var answers: [String: Set<Int>] = [:]
        var offset = 0
        for (name, paths) in zip(names, candidates) {
            let versions = found[offset..<offset + paths.count]
            offset += paths.count
            guard let bytes = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(name)) else { continue }
            let then = versions.compactMap { $0 }.first ?? []
            answers[name] = Self.addedLines(from: then, to: Array(bytes))
        }
        return answers
    }

    /// The lines of `new` (1-based) that are not in `old`: a longest common subsequence of the
    /// trimmed lines, so that of several identical lines the one inserted is the one reported.
    static func addedLines(from old: [UInt8], to new: [UInt8]) -> Set<Int> {
        func lines(_ bytes: [UInt8]) -> [Substring] {
            String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .map { Substring($0.trimmingCharacters(in: .whitespaces)) }
        }
        let a = lines(old), b = lines(new)
        // Common head and tail first; the LCS table only covers the middle.
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let x = Array(a[head..<a.count - tail]), y = Array(b[head..<b.count - tail])
        guard !y.isEmpty else { return [] }
        guard !x.isEmpty, x.count * y.count <= 4_000_000 else { return Set((head..<head + y.count).map { $0 + 1 }) }
        var table = [[Int32]](repeating: [Int32](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                table[i][j] = x[i] == y[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var added = Set<Int>()
        var i = 0, j = 0
        while j < y.count {
            if i < x.count, x[i] == y[j] {
                i += 1
                j += 1
            } else if i < x.count, table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                added.insert(head + j + 1)
                j += 1
            }
        }
        return added
    }

    /// The objects that `git cat-file --batch` gives for each spec (nil where it has none).
    private func blobs(_ specs: [String]) -> [[UInt8]?] {
        let usable = specs.map { !$0.contains("\n") }
        guard usable.contains(true),
              let output = Git.run(["cat-file", "--batch"], in: root,
                                   input: Array(zip(specs, usable).map { $1 ? $0 + "\n" : "-\n" }.joined().utf8))
        else { return specs.map { _ in nil } }
        var results: [[UInt8]?] = []
        var index = 0
        while results.count < specs.count, index < output.count {
            guard let end = output[index...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = String(decoding: output[index..<end], as: UTF8.self).split(separator: " ")
            index = end + 1
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), index + size <= output.count else {
                results.append(nil)  // "<spec> missing", "ambiguous", or not a file
                continue
            }
            results.append(Array(output[index..<index + size]))
            index += size + 1
        }
        return results + Array(repeating: nil, count: specs.count - results.count)
    }

    /// Each significant line (trimmed, not blank, not only brackets) with its weight: its length
    /// times how often it occurs, so that long lines count for more than `}` or `import UIKit`.
    static func lineWeights(_ text: String) -> [Substring: Int] {
        var weights: [Substring: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.contains(where: { !"{}()[];,".contains($0) }) else { continue }
            weights[Substring(trimmed), default: 0] += trimmed.utf8.count
        }
        return weights
    }
}
