import Foundation

/// Makes strings that come from outside (file names, module names, owners, configuration text)
/// safe for the program that reads swiftmod's output, whatever they contain.
///
/// A string is data, never structure: it must not start a new line (a fake diagnostic or CI
/// annotation), move the terminal's cursor, or turn into a spreadsheet formula or a link that runs
/// code.
public enum SafeText {
    /// The text on one line: line breaks, tabs and other control characters (also Unicode line
    /// separators and the bidirectional overrides that can hide text) become visible escapes
    /// (`\n`, `\r`, `\t`, `\u{1B}`). Ordinary text, including non-ASCII letters, is unchanged.
    public static func oneLine(_ text: String) -> String {
        // Printable ASCII (most names) needs no look at Unicode properties.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else { result.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// The text on one line (see `oneLine(_:)`), cut to `limit` characters with "…".
    public static func oneLine(_ text: String, limit: Int) -> String {
        let line = oneLine(text)
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }

    /// Whether a character must not reach a line-oriented consumer as it is.
    /// (Unicode's control characters are U+0000–U+001F and U+007F–U+009F; its only line and
    /// paragraph separators are U+2028 and U+2029: no look-up of character properties is needed.)
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether a link may be a live link (`href`, SARIF's `helpUri`): `http`, `https` and `mailto`
    /// links, and relative ones (no scheme). Anything else (`javascript:`, `data:`, `file:`, ...) is
    /// shown as text. Browsers drop control characters and blanks from a URL before reading its
    /// scheme (`java\tscript:`), and so does this check.
    public static func isSafeLink(_ link: String, schemes: Set<String> = ["http", "https", "mailto"]) -> Bool {
        let cleaned = String(String.UnicodeScalarView(link.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
        guard let colon = cleaned.firstIndex(of: ":") else { return true }
        let head = cleaned[..<colon]
        // A colon after a slash, `?` or `#` belongs to a relative path, query or fragment.
        if head.contains(where: { "/?#".contains($0) }) { return true }
        return schemes.contains(head.lowercased())
    }

    /// A spreadsheet cell that is read as text: a value starting with `=`, `+`, `-`, `@`, a tab or
    /// a carriage return would be a formula in Excel, LibreOffice or Google Sheets, so it gets a
    /// leading `'` (OWASP's advice for CSV injection).
    public static func spreadsheetCell(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }
}
