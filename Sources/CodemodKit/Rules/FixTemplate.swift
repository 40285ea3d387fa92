import Foundation
import SwiftTree

/// A fix or a transformation's text: Swift with `$A`, `$$A` and `$$$A` standing for what the
/// match bound (`$0` and `$viewModel` are Swift, kept as written).
struct TemplateText {
    enum Piece: Equatable {
        case text(String)
        case variable(String, dollars: Int)
    }

    let pieces: [Piece]

    init(_ source: String) {
        var pieces: [Piece] = []
        var text = ""
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            guard characters[index] == "$" else {
                text.append(characters[index])
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end] == "$", end - index < 3 { end += 1 }
            var nameEnd = end
            while nameEnd < characters.count, characters[nameEnd].isASCII,
                  characters[nameEnd] == "_" || characters[nameEnd].isUppercase || characters[nameEnd].isNumber {
                nameEnd += 1
            }
            let name = String(characters[end..<nameEnd])
            let continues = nameEnd < characters.count && (characters[nameEnd].isLetter || characters[nameEnd].isNumber)
            if MetaVariable.isName(Substring(name)), !continues {
                if !text.isEmpty { pieces.append(.text(text)); text = "" }
                pieces.append(.variable(name, dollars: end - index))
                index = nameEnd
            } else {
                text += String(characters[index..<end])
                index = end
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The names used.
    var names: [String] {
        pieces.compactMap { if case let .variable(name, _) = $0 { return name } else { return nil } }
    }

    /// Fills the template. Multi-line values are re-indented to where they land: their lines
    /// after the first lose the indentation of the line the captured code started on and gain
    /// that of the line they are put in. Lines of the template after the first gain `indentation`
    /// (the indentation of the line the fix replaces code on).
    /// - Parameters:
    ///   - value: a name's text, the indentation of the line its code started on, and how loosely
    ///     its code binds (`OperatorPrecedence.loosest`; nil: not an operator expression), or nil
    ///     when the name is unbound.
    ///   - unit: the file's indentation unit, when it indents with tabs (spaces of the template
    ///     become tabs).
    func render(indentation: String, tabs: Bool, templateUnit: Int,
                value: (String) -> (text: String, indentation: String, looseness: Int?)?) -> String {
        var output = ""
        func currentLineIndentation() -> String {
            let lines = Self.lines(output)
            // The first line goes where the replaced code starts, on a line indented `indentation`.
            guard lines.count > 1, let line = lines.last else { return indentation }
            return String(line.prefix { $0 == " " || $0 == "\t" })
        }
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case let .text(text):
                // A line that starts with a variable is indented too.
                var variableFollows = false
                if index + 1 < pieces.count, case .variable = pieces[index + 1] { variableFollows = true }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                // A multi-line string the template writes keeps its spaces: tabs would change it.
                let inStrings = tabs ? Self.linesInsideMultiLineStrings(text) : []
                for (number, line) in lines.enumerated() {
                    if number > 0 {
                        output += "\n"
                        if !line.isEmpty || (variableFollows && number == lines.count - 1) {
                            output += indentation + (inStrings.contains(number) ? String(line) : Self.indent(line, tabs: tabs, unit: templateUnit))
                        }
                    } else {
                        output += line
                    }
                }
            case let .variable(name, _):
                guard let (value, written, looseness) = value(name) else { continue }
                // A multi-line capture ends where its code ends: the line break and blanks some
                // nodes (`statements`) take with them would leave a blank line (ast-grep leaves one).
                var text = value.unicodeScalars.contains("\n") ? String(value.reversed().drop { $0.isWhitespace }.reversed()) : value
                // `!$A` with `a || b` is `!(a || b)`, not `!a || b`.
                if let looseness, OperatorContext(before: output, after: Self.textAfter(index, in: pieces)).needsParentheses(looseness) {
                    text = "(" + text + ")"
                }
                let lines = Self.lines(text)
                guard lines.count > 1 else { output += text; continue }
                let target = currentLineIndentation()
                let inStrings = Self.linesInsideMultiLineStrings(text)
                // A capture that starts with a comment ending the line of an opening brace
                // (`{ // hop to main`): its other lines are indented as the block's body, not as
                // that line.
                var original = written
                if lines[0].hasPrefix("//") {
                    let body = lines.indices.dropFirst().filter { !inStrings.contains($0) }.map { lines[$0] }
                        .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
                        .map { String($0.prefix { $0 == " " || $0 == "\t" }) }
                    if let least = body.min(by: { $0.count < $1.count }), least.count > original.count, least.hasPrefix(original) { original = least }
                }
                output += lines[0]
                for (index, line) in lines.enumerated().dropFirst() {
                    output += "\n"
                    // A multi-line string's lines are its content: moving them (or its closing
                    // delimiter) would change the string.
                    if inStrings.contains(index) { output += line; continue }
                    let stripped = line.hasSuffix("\r") ? line.dropLast() : line
                    // A line of blanks is left empty when it ends the value (the indentation before
                    // a closing brace, captured with a block) or is shorter than the code's
                    // indentation; one inside, as deep, is re-indented like the others: in a
                    // multi-line string literal its blanks are part of the string.
                    if stripped.allSatisfy({ $0 == " " || $0 == "\t" }), index == lines.count - 1 || !line.hasPrefix(original) {
                        output += line.hasSuffix("\r") ? "\r" : ""
                        continue
                    }
                    let body = line.hasPrefix(original) ? line.dropFirst(original.count) : Substring(line.drop { $0 == " " || $0 == "\t" })
                    output += target + body
                }
            }
        }
        return output
    }

    /// The lines (by index, as `lines` splits them) that start inside a multi-line string literal
    /// (`"""` or `#"""`), read lexically: comments, one-line strings and interpolations are skipped.
    static func linesInsideMultiLineStrings(_ text: String) -> Set<Int> {
        let scalars = Array(text.unicodeScalars)
        var result = Set<Int>()
        var line = 0
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func quotes(_ offset: Int) -> Int {
            var count = 0
            while at(offset + count) == "\"" { count += 1 }
            return count
        }
        func advance() { if scalars[index] == "\n" { line += 1 }; index += 1 }
        /// Skips a string literal whose opening (hashes and quotes) starts at `index`.
        func skipString(multiLine: Bool, hashes: Int) {
            index += hashes + (multiLine ? 3 : 1)
            while index < scalars.count {
                if scalars[index] == "\n" {
                    guard multiLine else { return }  // an unterminated one-line string
                    line += 1
                    index += 1
                    result.insert(line)
                    continue
                }
                if scalars[index] == "\\", (0..<hashes).allSatisfy({ at(1 + $0) == "#" }) {
                    index += 1 + hashes
                    if at(0) == "(" { skipInterpolation() } else if index < scalars.count { advance() }
                    continue
                }
                let closing = multiLine ? 3 : 1
                if quotes(0) >= closing, (0..<hashes).allSatisfy({ at(closing + $0) == "#" }) {
                    index += closing + hashes
                    return
                }
                advance()
            }
        }
        /// Skips `( … )` after a backslash, with what is nested in it.
        func skipInterpolation() {
            var depth = 0
            while index < scalars.count {
                switch scalars[index] {
                case "(": depth += 1; index += 1
                case ")":
                    depth -= 1
                    index += 1
                    if depth == 0 { return }
                case "\"": skipString(multiLine: quotes(0) >= 3, hashes: 0)
                default: advance()
                }
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "/", at(1) == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", at(1) == "*" {
                var depth = 0
                repeat {
                    if at(0) == "/", at(1) == "*" { depth += 1; index += 2 } else if at(0) == "*", at(1) == "/" { depth -= 1; index += 2 } else { advance() }
                } while depth > 0 && index < scalars.count
            } else if scalar == "#" || scalar == "\"" {
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                if at(hashes) == "\"" {
                    index += hashes
                    let multiLine = quotes(0) >= 3
                    index -= hashes
                    skipString(multiLine: multiLine, hashes: hashes)
                } else {
                    index += max(hashes, 1)
                }
            } else {
                advance()
            }
        }
        return result
    }

    /// The template text that follows the piece at an index (up to the next variable).
    static func textAfter(_ index: Int, in pieces: [Piece]) -> Substring {
        guard index + 1 < pieces.count, case let .text(text) = pieces[index + 1] else { return "" }
        return Substring(text)
    }

    /// The template's text with `$` for each variable, without surrounding blanks: its shape.
    var shape: String {
        pieces.map { if case let .text(text) = $0 { return text } else { return "$" } }.joined()
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lines of a text, split at every LF (a CRLF line keeps its CR: Swift reads "\r\n" as
    /// one Character, which a split at "\n" would not cut).
    static func lines(_ text: String) -> [Substring] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// A template line's leading spaces as tabs, one per `unit` spaces, when the file uses tabs.
    static func indent(_ line: Substring, tabs: Bool, unit: Int) -> String {
        guard tabs, unit > 0 else { return String(line) }
        let spaces = line.prefix { $0 == " " }.count
        return String(repeating: "\t", count: spaces / unit) + String(repeating: " ", count: spaces % unit) + line.dropFirst(spaces)
    }

    /// The smallest indentation (in spaces) of the template's lines after the first; 4 if none.
    var indentationUnit: Int {
        let text = pieces.map { if case let .text(text) = $0 { return text } else { return "$" } }.joined()
        let widths = text.split(separator: "\n").dropFirst().map { $0.prefix { $0 == " " }.count }.filter { $0 > 0 }
        return widths.min() ?? 4
    }
}

/// How a source file indents: the leading whitespace of lines.
enum Indentation {
    /// The leading blanks of the line holding an offset.
    static func ofLine(at offset: Int, in source: SourceText) -> String {
        let bytes = source.bytes
        var start = min(offset, bytes.count)
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Whether most indented lines of a file start with a tab.
    static func usesTabs(_ source: SourceText) -> Bool {
        var tabs = 0, spaces = 0
        var atLineStart = true
        for byte in source.bytes {
            if atLineStart {
                if byte == 0x09 { tabs += 1 } else if byte == 0x20 { spaces += 1 }
            }
            atLineStart = byte == 0x0A
        }
        return tabs > spaces
    }
}

/// The operators a fix puts around a variable (`!$A`, `$A.count`, `x == $A`): whether the code
/// captured needs parentheses there to keep its meaning.
struct OperatorContext {
    /// The precedence of the operator before the variable (190 for a prefix operator), if any.
    var before: Int?
    /// The precedence of a binary operator after the variable, if any.
    var after: Int?
    /// Whether a postfix (`.`, `?`, `!`, `(`, `[`) follows the variable.
    var postfix = false
    /// Whether that postfix is `!` or `?` (which would join an optional chain).
    var unwraps = false

    private static let operatorCharacters = Set("-+*/%<>=!&|^~?.")

    /// The precedences of the operators before and after a place, as numbers.
    init(before: Int?, after: Int?) {
        self.before = before
        self.after = after
    }

    init(before text: String, after next: Substring) {
        // Before: `op $A` or `x op$A` is binary; `op$A` at the start or after a bracket is prefix.
        let head = text.reversed().drop { $0 == " " || $0 == "\t" }
        let spaced = head.count < text.count
        let op = String(head.prefix { Self.operatorCharacters.contains($0) }.reversed())
        if !op.isEmpty {
            let beforeOperator = head.dropFirst(op.count).first
            let binary = spaced || beforeOperator.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ")" || $0 == "]" } ?? false
            // An operator this does not know (a custom one) is taken to bind tighter than any.
            before = binary ? OperatorPrecedence.of(operator: op) ?? Self.unknown : Self.prefix
        }
        // After: a postfix token right after the variable binds tighter than any; ` op ` or
        // `op` between operands (`$A*2`) is binary; `is`, `as` and the ternary's `?` too.
        let tail = next.drop { $0 == " " || $0 == "\t" }
        let spacedAfter = tail.count < next.count
        if let first = next.first, ".([".contains(first) || ((first == "?" || first == "!") && !Self.isBinaryOperator(next)) {
            postfix = true
            unwraps = first == "?" || first == "!"
        } else if spacedAfter, tail.hasPrefix("is ") || tail.hasPrefix("as ") || tail.hasPrefix("as?") || tail.hasPrefix("as!") {
            after = 132
        } else {
            let op = String(tail.prefix { Self.operatorCharacters.contains($0) })
            let following = tail.dropFirst(op.count).first
            if !op.isEmpty, let following, (following == " ") == spacedAfter || !spacedAfter {
                after = op == "?" ? 100 : OperatorPrecedence.of(operator: op) ?? Self.unknown
            }
        }
    }

    /// The precedence taken for a prefix operator, and for an operator this does not know.
    static let prefix = 190, unknown = 999

    /// Whether text after a variable starts with a binary operator that begins with `?` or `!`
    /// (`??`, `!=`, `!==`), not a postfix `?`/`!`.
    private static func isBinaryOperator(_ text: Substring) -> Bool {
        let op = text.prefix { operatorCharacters.contains($0) }
        return ["??", "!=", "!=="].contains(String(op))
    }

    /// Whether code binding this loosely (`OperatorPrecedence.loosest`) needs parentheses here.
    /// An equal precedence does too where the group does not associate that way: on the right of
    /// a left-associative operator (`a - (b - c)`), on the left of `??` (right-associative), and
    /// on either side of a comparison (`(x > 0) == flag`; comparisons do not chain).
    func needsParentheses(_ looseness: Int) -> Bool {
        if postfix { return looseness == 250 ? unwraps : true }
        // Prefix operators side by side (`!!flag`, `--a`) do not compile.
        if before == Self.prefix, looseness == 200 { return true }
        // A closure or an optional chain only needs them before a postfix.
        if looseness >= 250 { return false }
        if let before, looseness < before || (looseness == before && before != 131) { return true }
        if let after, looseness < after || looseness == 0 || (looseness == after && [100, 130, 131].contains(after)) { return true }
        return false
    }
}
