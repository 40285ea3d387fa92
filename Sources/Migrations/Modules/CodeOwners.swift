import Foundation
import Workspace

/// A CODEOWNERS file, matched the way GitHub matches it: the last matching pattern wins, a
/// pattern without owners leaves the path unowned, and patterns follow gitignore rules (`*`,
/// `**`, a leading `/` anchors to the root, a trailing `/` means a folder and everything in it,
/// a pattern without a slash matches at any depth). GitHub does not support `!` negation, so a
/// leading `!` is part of the pattern.
public struct CodeOwners: Sendable {
    public struct Rule: Sendable {
        public var pattern: String
        public var owners: [String]
        public var line: Int
        let glob: Glob
    }

    /// The places GitHub looks, in its order.
    public static let locations = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]

    public var rules: [Rule]
    /// Where the rules were read from (repo-relative), or nil when there is no CODEOWNERS file.
    public var path: String?
    /// Each owner as the file first spells it, by its lower-case name.
    private var spellings: [String: String] = [:]

    /// Reads the rules. An owner is one owner however its lines spell it (GitHub's names are not
    /// case-sensitive): every rule names it as the file first does, and names it once.
    public init(text: String, path: String? = nil) {
        self.path = path
        rules = []
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if let hash = Self.commentStart(line) { line = String(line[..<hash]).trimmingCharacters(in: .whitespaces) }
            guard !line.isEmpty else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            let pattern = fields[0].replacingOccurrences(of: "\\#", with: "#")
            guard let glob = try? Glob(pattern, syntax: .gitignore) else { continue }
            var owners: [String] = []
            for owner in fields.dropFirst() {
                let spelling = spellings[owner.lowercased()] ?? owner
                spellings[owner.lowercased()] = spelling
                if !owners.contains(spelling) { owners.append(spelling) }
            }
            rules.append(Rule(pattern: pattern, owners: owners, line: index + 1, glob: glob))
        }
    }

    /// Whether two names are one owner: GitHub's users and teams are not case-sensitive.
    public static func isSameOwner(_ one: String, _ other: String) -> Bool { one.lowercased() == other.lowercased() }

    /// An owner as this file first spells it (`@Acme/Feed` for `@acme/feed`), or as given when the
    /// file does not name it.
    public func spelling(of owner: String) -> String { spellings[owner.lowercased()] ?? owner }

    /// Reads the repository's CODEOWNERS (`.github/`, the root, or `docs/`), or an empty set.
    public static func load(root: String) -> CodeOwners {
        for location in locations {
            let path = (root as NSString).appendingPathComponent(location)
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                return CodeOwners(text: text, path: location)
            }
        }
        return CodeOwners(text: "")
    }

    /// The owners of a repo-relative path (empty when unowned).
    public func owners(of path: String) -> [String] {
        for rule in rules.reversed() where rule.glob.matches(path) {
            return rule.owners
        }
        return []
    }

    static func commentStart(_ line: String) -> String.Index? {
        var previous: Character?
        for index in line.indices {
            if line[index] == "#", previous != "\\" { return index }
            previous = line[index]
        }
        return nil
    }
}
