import CodemodKit
import SwiftTree

/// Reads a Swift file's top-level `import` declarations and its `swiftmod:allow` line comments
/// without building a syntax tree: a lexer that knows comments (nested), string literals (raw,
/// multi-line, with interpolations), regular expression literals written `#/…/#`, backticked
/// names and brackets, so that `import` in a comment, a string or a body is no import.
///
/// Every module rule needs the imports of every module's files, so this runs over the whole
/// repository on each check: it reads bytes once and never parses (a tree-sitter parse costs
/// ~50x more). Attributes (`@testable`, `@_exported`, `@_implementationOnly`, `@_spi(X)`) and `#if`
/// around an import do not matter; `import struct A.B` imports `A`.
public enum ImportScanner {
    /// Where something sits on its line: 1-based columns in UTF-8 bytes, Unicode characters and
    /// UTF-16 code units (what compilers, GitHub and SARIF count).
    public struct Columns: Sendable, Equatable {
        public var byte: Int
        public var character: Int
        public var utf16: Int

        public init(byte: Int, character: Int, utf16: Int) {
            self.byte = byte
            self.character = character
            self.utf16 = utf16
        }

        /// The columns of a location of a parsed file.
        public init(_ location: SourceLocation, in source: SourceText) {
            let lineStart = source.lineStarts[location.line - 1]
            self.init(byte: location.column, character: location.characterColumn,
                      utf16: source.text(in: lineStart..<location.offset).utf16.count + 1)
        }
    }

    /// One `import` declaration.
    public struct Import: Sendable, Equatable {
        /// The imported module (backticks removed).
        public var module: String
        /// The declaration as written, blanks folded, without attributes: `import struct A.B`.
        public var text: String
        public var line: Int
        /// Where the module's name starts and the import path ends.
        public var start: Columns
        public var end: Columns
    }

    /// A line comment holding `swiftmod:allow`.
    public struct Comment: Sendable, Equatable {
        public var line: Int
        /// Where the comment starts, and where it ends on its line.
        public var start: Columns
        public var end: Columns
        public var text: String
    }

    /// What a file holds.
    public struct Result: Sendable, Equatable {
        public var imports: [Import] = []
        public var allowComments: [Comment] = []
    }

    private enum Frame {
        case string(hashes: Int, multiline: Bool)
        /// Code inside `\( … )`, with how many parentheses are open in it.
        case interpolation(parentheses: Int)
    }

    static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
    static let marker = Array("swiftmod:allow".utf8)

    /// Scans a file's bytes (UTF-8, without a byte order mark).
    public static func scan(_ bytes: [UInt8]) -> Result {
        var result = Result()
        let count = bytes.count
        var index = 0
        var line = 1
        var lineStart = 0
        var stack: [Frame] = []
        // Parentheses and square brackets open: there `import` is an argument label
        // (`f(import x: T)`), never a declaration. Braces do not count: swiftc accepts an import
        // declaration nowhere but at the top level, so one in braces is still what a module
        // imports as far as the lock-down goes, and a brace this lexer misreads (one in a bare
        // regex literal such as `/{/`) cannot hide the imports after it.
        var depth = 0

        // Columns are counted on from the last place asked on the line, so that a long line of
        // imports costs its length once, not once per import.
        var counted = (offset: 0, columns: Columns(byte: 1, character: 1, utf16: 1))
        func columns(_ offset: Int) -> Columns {
            if counted.offset < lineStart || counted.offset > offset {
                counted = (lineStart, Columns(byte: 1, character: 1, utf16: 1))
            }
            let piece = String(decoding: bytes[counted.offset..<offset], as: UTF8.self)
            let result = Columns(byte: offset - lineStart + 1, character: counted.columns.character + piece.count,
                                 utf16: counted.columns.utf16 + piece.utf16.count)
            counted = (offset, result)
            return result
        }
        func newline(at offset: Int) {
            line += 1
            lineStart = offset + 1
        }
        /// Whether a line ends at `offset`: `\n`, or a lone `\r` (old Mac line endings end comments
        /// and strings, though lines are counted by `\n` as everywhere in swiftmod).
        func endsLine(_ offset: Int) -> Bool {
            bytes[offset] == 0x0A || (bytes[offset] == 0x0D && (offset + 1 == count || bytes[offset + 1] != 0x0A))
        }
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte >= 0x80
        }
        /// Skips blanks (newlines too: `import` and its module may be on separate lines).
        func skipBlanks(_ from: Int) -> Int {
            var at = from
            while at < count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x00: at += 1
                case 0x0A: newline(at: at); at += 1
                case 0x2F where at + 1 < count && bytes[at + 1] == 0x2F:
                    while at < count, !endsLine(at) { at += 1 }
                case 0x2F where at + 1 < count && bytes[at + 1] == 0x2A:
                    at = skipBlockComment(at)
                default: return at
                }
            }
            return at
        }
        /// Past a block comment starting at `from` (nested, as Swift's are).
        func skipBlockComment(_ from: Int) -> Int {
            var nesting = 1
            var at = from + 2
            while at < count, nesting > 0 {
                if bytes[at] == 0x0A { newline(at: at) }
                if bytes[at] == 0x2F, at + 1 < count, bytes[at + 1] == 0x2A { nesting += 1; at += 2; continue }
                if bytes[at] == 0x2A, at + 1 < count, bytes[at + 1] == 0x2F { nesting -= 1; at += 2; continue }
                at += 1
            }
            return at
        }
        /// An identifier (or a backticked one) at `from`: its text without backticks, and its end.
        func identifier(_ from: Int) -> (String, Int)? {
            guard from < count else { return nil }
            if bytes[from] == 0x60 {
                var end = from + 1
                while end < count, bytes[end] != 0x60, bytes[end] != 0x0A { end += 1 }
                guard end < count, bytes[end] == 0x60, end > from + 1 else { return nil }
                return (String(decoding: bytes[(from + 1)..<end], as: UTF8.self), end + 1)
            }
            guard isIdentifierByte(bytes[from]), !(bytes[from] >= 0x30 && bytes[from] <= 0x39) else { return nil }
            var end = from
            while end < count, isIdentifierByte(bytes[end]) { end += 1 }
            return (String(decoding: bytes[from..<end], as: UTF8.self), end)
        }
        /// How many `#` follow `from`.
        func hashes(_ from: Int) -> Int {
            var at = from
            while at < count, bytes[at] == 0x23 { at += 1 }
            return at - from
        }
        /// Whether `"""` (multi) or `"` starts at `from`; returns where the string's body starts.
        func openString(_ from: Int, hashes: Int) -> Int {
            // `"""` opens a multi-line string only when the line ends after it (`#"""#` is a
            // one-line raw string holding `"`).
            var after = from + 3
            while after < count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            let multiline = from + 2 < count && bytes[from + 1] == 0x22 && bytes[from + 2] == 0x22
                && (after == count || bytes[after] == 0x0A || bytes[after] == 0x0D)
            stack.append(.string(hashes: hashes, multiline: multiline))
            return from + (multiline ? 3 : 1)
        }

        while index < count {
            let byte = bytes[index]
            if case let .string(hashCount, multiline)? = stack.last {
                switch byte {
                case 0x0A, 0x0D:
                    if byte == 0x0A { newline(at: index) }
                    // A single-line string does not go past its line (unterminated: back to code).
                    if !multiline, endsLine(index) { stack.removeLast() }
                    index += 1
                case 0x5C: // backslash: an escape when followed by the string's hashes
                    let after = index + 1 + min(hashes(index + 1), hashCount)
                    guard hashes(index + 1) >= hashCount else { index += 1; continue }
                    if after < count, bytes[after] == 0x28 {
                        stack.append(.interpolation(parentheses: 0))
                        index = after + 1
                    } else {
                        if after < count, bytes[after] == 0x0A { newline(at: after) }
                        index = after + 1
                    }
                case 0x22:
                    let quotes = multiline ? 3 : 1
                    var closes = index + quotes <= count
                    if closes { for offset in 0..<quotes where bytes[index + offset] != 0x22 { closes = false } }
                    if closes, hashes(index + quotes) >= hashCount {
                        stack.removeLast()
                        index += quotes + hashCount
                    } else {
                        index += 1
                    }
                default:
                    index += 1
                }
                continue
            }
            // Code: the top level, or inside an interpolation.
            switch byte {
            case 0x0A:
                newline(at: index)
                index += 1
            case 0x2F where index + 1 < count && bytes[index + 1] == 0x2F: // line comment
                var end = index
                while end < count, !endsLine(end) { end += 1 }
                let text = bytes[index..<end]
                if ByteSearch.contains(Array(text), marker) {
                    var trimmed = end
                    while trimmed > index, bytes[trimmed - 1] == 0x0D { trimmed -= 1 }
                    result.allowComments.append(Comment(line: line, start: columns(index), end: columns(trimmed),
                                                        text: String(decoding: bytes[index..<trimmed], as: UTF8.self)))
                }
                index = end
            case 0x2F where index + 1 < count && bytes[index + 1] == 0x2A: // block comment, nested
                index = skipBlockComment(index)
            case 0x23: // `#`: a raw string, an extended regular expression, or a directive
                let hashCount = hashes(index)
                let after = index + hashCount
                if after < count, bytes[after] == 0x22 {
                    index = openString(after, hashes: hashCount)
                } else if after < count, bytes[after] == 0x2F {
                    // `#/…/#`: ends at `/` followed by as many hashes.
                    var end = after + 1
                    while end < count {
                        if bytes[end] == 0x0A { newline(at: end) }
                        if bytes[end] == 0x2F, hashes(end + 1) >= hashCount { end += 1 + hashCount; break }
                        end += 1
                    }
                    index = end
                } else {
                    index = after
                }
            case 0x22:
                index = openString(index, hashes: 0)
            case 0x28:
                if case let .interpolation(open)? = stack.last {
                    stack[stack.count - 1] = .interpolation(parentheses: open + 1)
                } else {
                    depth += 1
                }
                index += 1
            case 0x29:
                if case let .interpolation(open)? = stack.last {
                    if open == 0 { stack.removeLast() } else { stack[stack.count - 1] = .interpolation(parentheses: open - 1) }
                } else {
                    depth = max(0, depth - 1)
                }
                index += 1
            case 0x5B:
                if stack.isEmpty { depth += 1 }
                index += 1
            case 0x5D:
                if stack.isEmpty { depth = max(0, depth - 1) }
                index += 1
            case 0x60:
                index = identifier(index)?.1 ?? index + 1
            default:
                guard isIdentifierByte(byte) else { index += 1; continue }
                let wordStart = index
                var end = index
                while end < count, isIdentifierByte(bytes[end]) { end += 1 }
                index = end
                // `import`, as a keyword: at the top level, not a member (`x.import`) nor `$import`.
                guard stack.isEmpty, depth == 0, end - wordStart == 6, bytes[wordStart..<end].elementsEqual("import".utf8),
                      wordStart == 0 || (bytes[wordStart - 1] != 0x2E && bytes[wordStart - 1] != 0x24) else { continue }
                let keywordLine = (line, lineStart)
                var at = skipBlanks(end)
                var text = "import"
                if let (word, wordEnd) = identifier(at), importKinds.contains(word), bytes[at] != 0x60 {
                    text += " " + word
                    at = skipBlanks(wordEnd)
                }
                guard let (module, moduleEnd) = identifier(at) else {
                    // Not a declaration after all; go on after the keyword.
                    (line, lineStart) = keywordLine
                    continue
                }
                let start = columns(at)
                var pathEnd = moduleEnd
                var path = String(decoding: bytes[at..<moduleEnd], as: UTF8.self)
                while pathEnd < count, bytes[pathEnd] == 0x2E, let (_, next) = identifier(pathEnd + 1) {
                    path += String(decoding: bytes[pathEnd..<next], as: UTF8.self)
                    pathEnd = next
                }
                result.imports.append(Import(module: module, text: text + " " + path, line: line, start: start, end: columns(pathEnd)))
                index = pathEnd
            }
        }
        return result
    }
}
