import Foundation

/// A path pattern as in `.swiftmod.yml`: `*` matches within a folder name, `**` any number of
/// folders, `?` one character; patterns are matched against paths relative to the repo root.
public struct Glob: Sendable, CustomStringConvertible {
    public let pattern: String
    private let regex: NSRegularExpression

    public init(_ pattern: String) throws {
        self.pattern = pattern
        var expression = "^"
        var characters = Array(pattern)
        if characters.first == "/" { characters.removeFirst() }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                if index + 1 < characters.count, characters[index + 1] == "*" {
                    // `**/` is any number of folders (also none); a trailing `**` is anything.
                    if index + 2 < characters.count, characters[index + 2] == "/" {
                        expression += "(?:.*/)?"
                        index += 2
                    } else {
                        expression += ".*"
                        index += 1
                    }
                } else {
                    expression += "[^/]*"
                }
            case "?":
                expression += "[^/]"
            default:
                expression += NSRegularExpression.escapedPattern(for: String(character))
            }
            index += 1
        }
        // A pattern naming a folder covers what is inside it.
        expression += pattern.hasSuffix("/") ? ".*$" : "(?:/.*)?$"
        regex = try NSRegularExpression(pattern: expression)
    }

    /// Whether a repo-relative path matches.
    public func matches(_ path: String) -> Bool {
        regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    public var description: String { pattern }
}
