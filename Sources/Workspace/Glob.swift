import Foundation

/// A path pattern matched against repo-relative paths: `*` matches within a folder name, `**` any
/// number of folders, `?` one character. The one pattern compiler of swiftmod, in two dialects:
/// - `.anchored` (`.swiftmod.yml`): the pattern is matched from the repository root; a pattern
///   naming a folder covers what is inside it.
/// - `.gitignore` (CODEOWNERS): a pattern without a slash (other than a trailing one) matches at
///   any depth, a leading `/` anchors it to the root, a trailing `/` matches only folders (and what
///   is inside them), `dir/*` only the files directly in `dir`, and `*` or `**` alone everything.
///
/// Patterns compile to a few tokens matched on the path's bytes (no regular expression engine:
/// a configuration's globs are tried on every file of every scan).
public struct Glob: Sendable, CustomStringConvertible {
    public enum Syntax: Sendable { case anchored, gitignore }

    /// One piece of a compiled pattern.
    enum Token: Equatable {
        /// This byte.
        case byte(UInt8)
        /// One character, not `/`.
        case oneCharacter
        /// Any run of characters without `/` (`*`).
        case withinFolder
        /// Anything at all (`**` not followed by `/`).
        case anything
        /// Nothing, or anything that ends with `/` (`**/`, and the unanchored start).
        case anyFolders
        /// Nothing, or `/` and anything after it (what is inside a named folder), at the end.
        case insideFolder
    }

    public let pattern: String
    let tokens: [Token]

    public init(_ pattern: String, syntax: Syntax = .anchored) throws {
        self.pattern = pattern
        tokens = Self.compile(pattern, syntax: syntax)
    }

    /// Whether a repo-relative path matches.
    public func matches(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { text in
            // Positions already tried, so that many stars cannot make the match slow.
            var failed = Set<Int>()
            return Self.match(tokens[...], text, 0, &failed)
        }
    }

    public var description: String { pattern }

    static func match(_ tokens: ArraySlice<Token>, _ text: UnsafeBufferPointer<UInt8>, _ position: Int, _ failed: inout Set<Int>) -> Bool {
        var position = position
        var tokens = tokens
        while let token = tokens.first {
            let key = tokens.startIndex &* 65_536 &+ position
            switch token {
            case let .byte(byte):
                guard position < text.count, text[position] == byte else { return false }
                position += 1
                tokens = tokens.dropFirst()
                continue
            case .oneCharacter:
                guard position < text.count, text[position] != UInt8(ascii: "/") else { return false }
                position += 1
                // One character: its continuation bytes too.
                while position < text.count, text[position] & 0xC0 == 0x80 { position += 1 }
                tokens = tokens.dropFirst()
                continue
            case .insideFolder where tokens.count == 1:
                return position == text.count || text[position] == UInt8(ascii: "/")
            default:
                break
            }
            if failed.contains(key) { return false }
            let rest = tokens.dropFirst()
            var end = position
            while true {
                // Try the rest after this many bytes of the wildcard.
                let fits: Bool
                switch token {
                case .anyFolders: fits = end == position || text[end - 1] == UInt8(ascii: "/")
                default: fits = true
                }
                if fits, match(rest, text, end, &failed) { return true }
                guard end < text.count else { break }
                if token == .withinFolder, text[end] == UInt8(ascii: "/") { break }
                end += 1
            }
            failed.insert(key)
            return false
        }
        return position == text.count
    }

    static func compile(_ pattern: String, syntax: Syntax) -> [Token] {
        var body = pattern
        var tokens: [Token] = []
        var ending: [Token]
        switch syntax {
        case .anchored:
            if body.hasPrefix("/") { body.removeFirst() }
            // A pattern naming a folder covers what is inside it.
            ending = pattern.hasSuffix("/") ? [.anything] : [.insideFolder]
        case .gitignore:
            let folderOnly = body.hasSuffix("/")
            if folderOnly { body.removeLast() }
            let anchored = body.hasPrefix("/") || body.dropLast().contains("/")
            if body.hasPrefix("/") { body.removeFirst() }
            if body == "*" || body == "**" || body.isEmpty { return [.anything] }
            if !anchored { tokens.append(.anyFolders) }
            // A name matches a file of that name or a folder of that name (and what is inside it);
            // `docs/*` matches the files directly in docs; `dir/` only folders.
            ending = folderOnly ? [.byte(UInt8(ascii: "/")), .anything] : body.hasSuffix("/*") ? [] : [.insideFolder]
        }
        let characters = Array(body.utf8)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == UInt8(ascii: "*") {
                if index + 1 < characters.count, characters[index + 1] == UInt8(ascii: "*") {
                    // `**/` is any number of folders (also none); `**` elsewhere is anything.
                    if index + 2 < characters.count, characters[index + 2] == UInt8(ascii: "/") {
                        tokens.append(.anyFolders)
                        index += 3
                    } else {
                        tokens.append(.anything)
                        index += 2
                    }
                    continue
                }
                tokens.append(.withinFolder)
            } else if character == UInt8(ascii: "?") {
                tokens.append(.oneCharacter)
            } else {
                tokens.append(.byte(character))
            }
            index += 1
        }
        return tokens + ending
    }
}
