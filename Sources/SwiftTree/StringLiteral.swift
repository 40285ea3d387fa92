/// The value of a Swift string literal as the compiler reads it: raw strings (`#"…"#`), escapes
/// (`\n`, `\u{55}`, `\#n` in a raw string), multi-line strings (indentation of the closing
/// delimiter removed, `\` at a line's end joining lines). Nil for a literal with an
/// interpolation, or one that does not compile (an unknown escape, no closing delimiter).
public enum StringLiteral {
    /// The node kinds of string literals.
    public static let kinds: Set<String> = ["line_string_literal", "raw_string_literal", "multi_line_string_literal"]

    /// The value of a string literal node; nil for other nodes and as above.
    public static func value(of node: Node) -> String? {
        guard kinds.contains(node.kind) else { return nil }
        return value(ofLiteral: node.text)
    }

    /// The value of a string literal written as `text` (delimiters included).
    public static func value(ofLiteral text: String) -> String? {
        var characters = Substring(text)
        let hashes = characters.prefix(while: { $0 == "#" }).count
        characters = characters.dropFirst(hashes)
        let closingHashes = String(repeating: "#", count: hashes)
        let multiline = characters.hasPrefix("\"\"\"")
        let quote = multiline ? "\"\"\"" : "\""
        guard characters.hasPrefix(quote), characters.hasSuffix(quote + closingHashes),
              characters.count >= quote.count * 2 + hashes else { return nil }
        var body = Array(characters.dropFirst(quote.count).dropLast(quote.count + hashes))
        if multiline {
            // The opening delimiter ends its line; the closing one's indentation is removed from
            // every line, and the line break before it is not part of the value.
            guard let first = body.first, first == "\n" || first == "\r\n" else { return nil }
            body.removeFirst()
            let lastBreak = body.lastIndex(where: { $0 == "\n" || $0 == "\r\n" })
            let indentation = lastBreak.map { Array(body[($0 + 1)...]) } ?? body
            guard indentation.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
            body = lastBreak.map { Array(body[..<$0]) } ?? []
            var lines: [[Character]] = [[]]
            for character in body {
                if character == "\n" || character == "\r\n" { lines.append([]) } else { lines[lines.count - 1].append(character) }
            }
            body = lines.map { line in
                line.starts(with: indentation) ? Array(line.dropFirst(indentation.count)) : line
            }.joined(separator: ["\n"]).map { $0 }
        }
        var result = ""
        var index = 0
        let escape: [Character] = ["\\"] + Array(closingHashes)
        while index < body.count {
            guard body[index...].starts(with: escape) else {
                result.append(body[index])
                index += 1
                continue
            }
            index += escape.count
            guard index < body.count else { return nil }
            let character = body[index]
            index += 1
            switch character {
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "t": result.append("\t")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "\"": result.append("\"")
            case "'": result.append("'")
            case "u":
                guard index < body.count, body[index] == "{",
                      let close = body[index...].firstIndex(of: "}"),
                      close - index - 1 >= 1, close - index - 1 <= 8,
                      let scalarValue = UInt32(String(body[(index + 1)..<close]), radix: 16),
                      let scalar = Unicode.Scalar(scalarValue) else { return nil }
                result.unicodeScalars.append(scalar)
                index = close + 1
            case "\n", "\r\n", " ", "\t":
                // A line continuation: blanks up to the line's end, and the break, are dropped.
                guard multiline else { return nil }
                var at = index - 1
                while at < body.count, body[at] == " " || body[at] == "\t" { at += 1 }
                guard at < body.count, body[at] == "\n" || body[at] == "\r\n" else { return nil }
                index = at + 1
            default:
                // `\(` is an interpolation; anything else does not compile.
                return nil
            }
        }
        return result
    }
}
