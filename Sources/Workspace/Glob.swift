import Foundation

/// A path pattern matched against repo-relative paths: `*` matches within a folder name, `**` any
/// number of folders, `?` one character. The one pattern compiler of swiftmod, in two dialects:
/// - `.anchored` (`.swiftmod.yml`): the pattern is matched from the repository root; a pattern
///   naming a folder covers what is inside it.
/// - `.gitignore` (CODEOWNERS): a pattern without a slash (other than a trailing one) matches at
///   any depth, a leading `/` anchors it to the root, a trailing `/` matches only folders (and what
///   is inside them), `dir/*` only the files directly in `dir`, and `*` or `**` alone everything.
public struct Glob: Sendable, CustomStringConvertible {
    public enum Syntax: Sendable { case anchored, gitignore }

    public let pattern: String
    private let regex: NSRegularExpression

    public init(_ pattern: String, syntax: Syntax = .anchored) throws {
        self.pattern = pattern
        regex = try NSRegularExpression(pattern: Self.expression(for: pattern, syntax: syntax))
    }

    /// Whether a repo-relative path matches.
    public func matches(_ path: String) -> Bool {
        regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    public var description: String { pattern }

    /// The regular expression of a pattern.
    static func expression(for pattern: String, syntax: Syntax) -> String {
        var body = pattern
        switch syntax {
        case .anchored:
            if body.hasPrefix("/") { body.removeFirst() }
            // A pattern naming a folder covers what is inside it.
            return "^" + translate(body) + (pattern.hasSuffix("/") ? ".*$" : "(?:/.*)?$")
        case .gitignore:
            let folderOnly = body.hasSuffix("/")
            if folderOnly { body.removeLast() }
            let anchored = body.hasPrefix("/") || body.dropLast().contains("/")
            if body.hasPrefix("/") { body.removeFirst() }
            if body == "*" || body == "**" || body.isEmpty { return "^.*$" }
            // A name matches a file of that name or a folder of that name (and what is inside it);
            // `docs/*` matches the files directly in docs; `dir/` only folders.
            let suffix = folderOnly ? "/.*$" : (body.hasSuffix("/*") ? "$" : "(?:/.*)?$")
            return (anchored ? "^" : "^(?:.*/)?") + translate(body) + suffix
        }
    }

    /// `*`, `**`, `**/` and `?` as regular expressions; everything else literally.
    private static func translate(_ body: String) -> String {
        var expression = ""
        let characters = Array(body)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                if index + 1 < characters.count, characters[index + 1] == "*" {
                    // `**/` is any number of folders (also none); `**` elsewhere is anything.
                    if index + 2 < characters.count, characters[index + 2] == "/" {
                        expression += "(?:.*/)?"
                        index += 3
                    } else {
                        expression += ".*"
                        index += 2
                    }
                    continue
                }
                expression += "[^/]*"
            case "?":
                expression += "[^/]"
            default:
                expression += NSRegularExpression.escapedPattern(for: String(character))
            }
            index += 1
        }
        return expression
    }
}
