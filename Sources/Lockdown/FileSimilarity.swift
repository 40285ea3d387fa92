import CodemodKit
import Foundation

/// How alike files that are gone were to files that are here, as git's rename detection judges
/// it: the share of lines they have in common (blank lines and lone brackets aside, indentation
/// ignored), against the longer of the two.
///
/// A gone file's content is its last version in git: `HEAD:path` when it was removed in the
/// working tree, otherwise the version before the commit that removed it. Outside git, or in a
/// shallow clone that lacks that commit, a pair gets no answer, and the comparison falls back on
/// the uses alone. Three git processes at most, however many files.
public struct FileSimilarity: Sendable {
    private let root: String

    /// - Parameter root: the folder the paths are relative to (the repository root).
    public init(root: String) {
        self.root = root
    }

    /// For each pair whose files can both be read, a number from 0 (nothing in common) to 1.
    public func similarities(of pairs: [FilePair]) -> [FilePair: Double] {
        guard !pairs.isEmpty else { return [:] }
        let old = lastVersions(of: Set(pairs.map(\.gone)))
        var new: [String: [Substring: Int]] = [:]
        var answers: [FilePair: Double] = [:]
        for pair in pairs {
            guard let before = old[pair.gone] else { continue }
            if new[pair.present] == nil {
                guard let bytes = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(pair.present)) else { continue }
                new[pair.present] = Self.lineCounts(Array(bytes))
            }
            let after = new[pair.present]!
            let shared = before.reduce(0) { $0 + min($1.value, after[$1.key] ?? 0) }
            let longer = max(before.values.reduce(0, +), after.values.reduce(0, +))
            if longer > 0 { answers[pair] = Double(shared) / Double(longer) }
        }
        return answers
    }

    /// The last committed content of each gone file, as line counts.
    private func lastVersions(of files: Set<String>) -> [String: [Substring: Int]] {
        let names = files.filter { !$0.contains("\n") }.sorted()
        var versions: [String: [Substring: Int]] = [:]
        // Removed in the working tree: HEAD still has them.
        for (file, bytes) in zip(names, blobs(names.map { "HEAD:./\($0)" })) {
            if let bytes { versions[file] = Self.lineCounts(bytes) }
        }
        // Removed by a commit: the newest commit that deleted each, and its parent's version.
        let missing = names.filter { versions[$0] == nil }
        var deletedBy: [String: String] = [:]
        for chunk in stride(from: 0, to: missing.count, by: 500).map({ Array(missing[$0..<min($0 + 500, missing.count)]) }) {
            guard let log = Git.run(["log", "--format=%x00%H", "--name-only", "--diff-filter=D", "--relative", "HEAD", "--"] + chunk, in: root) else { continue }
            var commit = ""
            for line in String(decoding: log, as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix("\0") {
                    commit = String(line.dropFirst())
                } else if deletedBy[String(line)] == nil {
                    deletedBy[String(line)] = commit
                }
            }
        }
        let deleted = missing.filter { deletedBy[$0] != nil }
        for (file, bytes) in zip(deleted, blobs(deleted.map { "\(deletedBy[$0]!)^:./\($0)" })) {
            if let bytes { versions[file] = Self.lineCounts(bytes) }
        }
        return versions
    }

    /// The objects that `git cat-file --batch` gives for each spec (nil where it has none).
    private func blobs(_ specs: [String]) -> [[UInt8]?] {
        guard !specs.isEmpty,
              let output = Git.run(["cat-file", "--batch"], in: root, input: Array(specs.map { $0 + "\n" }.joined().utf8))
        else { return specs.map { _ in nil } }
        var results: [[UInt8]?] = []
        var index = 0
        while results.count < specs.count, index < output.count {
            guard let end = output[index...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = String(decoding: output[index..<end], as: UTF8.self).split(separator: " ")
            index = end + 1
            guard header.count == 3, let size = Int(header[2]), index + size <= output.count else {
                results.append(nil)  // "<spec> missing" or "ambiguous"
                continue
            }
            results.append(Array(output[index..<index + size]))
            index += size + 1
        }
        return results + Array(repeating: nil, count: specs.count - results.count)
    }

    /// Each significant line (trimmed, not blank, not only brackets) with how often it occurs.
    static func lineCounts(_ bytes: [UInt8]) -> [Substring: Int] {
        var counts: [Substring: Int] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.contains(where: { !"{}()[];,".contains($0) }) else { continue }
            counts[Substring(trimmed), default: 0] += 1
        }
        return counts
    }
}
