/// Markdown code spans in a migration's texts (its summary, why and replacement), read by
/// CommonMark's rule, so that code is shown exactly as written, backticks included: a summary
/// "Replace ``guard let `self` = self`` with `guard let self`" holds the code
/// ``guard let `self` = self``, not the code `guard let ` followed by the word self.
///
/// The rule (CommonMark 0.31, "Code spans"):
/// - A *backtick string* is a run of backticks not preceded or followed by another backtick.
/// - A backtick string of length N opens a code span that the next backtick string of exactly
///   length N closes; runs of other lengths in between belong to the code.
/// - In the code, each line ending (`\r\n`, `\r` or `\n`) becomes a space; then, when the code
///   begins and ends with a space and is not only spaces, one space is removed from each end.
/// - A backtick string that nothing closes is literal text, and the search for spans goes on
///   right after it.
///
/// Only code spans are read: the rest is text as written (no emphasis, links or backslash
/// escapes; a `\` before a backtick is text and does not stop the backtick from opening a span).
public enum CodeSpans {
    /// A piece of a text: plain text, or the content of a code span.
    public enum Piece: Sendable, Equatable {
        /// Text outside code spans, unchanged (unmatched backticks included).
        case text(String)
        /// The code of a span, without its fences, normalised by the rule above.
        case code(String)
    }

    /// The text split into plain text and code spans, in order. Adjacent text is merged, so two
    /// `.text` pieces never follow each other; a text without spans is one `.text` piece (or none
    /// when it is empty).
    public static func pieces(of text: String) -> [Piece] {
        // Unicode scalars, as CommonMark reads code points (a backtick followed by a combining
        // mark is one Swift Character but still a backtick).
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var plain = String.UnicodeScalarView()
        var index = 0
        func flushPlain() {
            if !plain.isEmpty { pieces.append(.text(String(plain))) }
            plain = String.UnicodeScalarView()
        }
        while index < scalars.count {
            guard scalars[index] == "`" else {
                plain.append(scalars[index])
                index += 1
                continue
            }
            let fence = backtickRun(in: scalars, at: index)
            let contentStart = index + fence
            if let close = closingRun(of: fence, in: scalars, from: contentStart) {
                flushPlain()
                pieces.append(.code(normalised(scalars[contentStart..<close])))
                index = close + fence
            } else {
                // Nothing closes it: the whole run is text (a shorter part of it opens nothing).
                plain.append(contentsOf: scalars[index..<contentStart])
                index = contentStart
            }
        }
        flushPlain()
        return pieces
    }

    /// Markdown for a code span showing `code` exactly: fenced by one backtick more than its
    /// longest run of backticks, and padded with a space on each side when it starts or ends with
    /// a backtick, or starts and ends with a space (which a reader would otherwise strip).
    ///
    /// A line ending in the code becomes a space (as a Markdown reader would show it anyway; kept,
    /// it could start a new block such as a heading). Empty code gives an empty string, since
    /// Markdown has no empty code span.
    public static func markdown(code: String) -> String {
        let content = lineEndingsAsSpaces(code.unicodeScalars)
        guard let first = content.first, let last = content.last else { return "" }
        var longestRun = 0, run = 0
        for scalar in content {
            run = scalar == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: longestRun + 1)
        let padded = first == "`" || last == "`"
            || (first == " " && last == " " && !content.allSatisfy { $0 == " " })
        return padded ? "\(fence) \(String(content)) \(fence)" : "\(fence)\(String(content))\(fence)"
    }

    /// The length of the run of backticks starting at `start`.
    static func backtickRun(in scalars: [Unicode.Scalar], at start: Int) -> Int {
        var end = start
        while end < scalars.count, scalars[end] == "`" { end += 1 }
        return end - start
    }

    /// Where the next run of exactly `length` backticks at or after `start` begins, if any.
    static func closingRun(of length: Int, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            guard scalars[index] == "`" else { index += 1; continue }
            let run = backtickRun(in: scalars, at: index)
            if run == length { return index }
            index += run
        }
        return nil
    }

    /// A span's content with line endings as spaces, and one space stripped from each end when
    /// both ends have one and it is not only spaces.
    static func normalised(_ content: ArraySlice<Unicode.Scalar>) -> String {
        let spaced = lineEndingsAsSpaces(content)
        guard spaced.first == " ", spaced.last == " ", !spaced.allSatisfy({ $0 == " " }) else {
            return String(spaced)
        }
        return String(String.UnicodeScalarView(spaced.dropFirst().dropLast()))
    }

    /// The scalars with each line ending (`\r\n`, `\r` or `\n`) replaced by one space.
    static func lineEndingsAsSpaces(_ scalars: some Sequence<Unicode.Scalar>) -> String.UnicodeScalarView {
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in scalars {
            switch scalar {
            case "\n" where previous == "\r": break  // the end of a `\r\n`, already a space
            case "\r", "\n": result.append(" ")
            default: result.append(scalar)
            }
            previous = scalar
        }
        return result
    }
}
