/// The text every match of a regular expression contains, when one can be read off it simply:
/// the longest run of plain characters (`\(` is a plain `(`) outside groups, classes and
/// alternations, not made optional by a quantifier. Nil when the expression has an alternation,
/// flags, or no such run of at least three characters.
enum RegexLiteral {
    static func required(in pattern: String) -> String? {
        let characters = Array(pattern)
        var runs: [String] = []
        var current = ""
        var depth = 0
        var index = 0
        func endRun() { if !current.isEmpty { runs.append(current) }; current = "" }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "|": return nil
            case "(":
                // A group may be optional or repeated: what is inside does not count.
                if index + 1 < characters.count, characters[index + 1] == "?", index + 2 < characters.count,
                   !":=!<".contains(characters[index + 2]) { return nil }  // flags such as (?i)
                endRun(); depth += 1
            case ")": endRun(); depth -= 1
            case "[":
                endRun()
                index = Self.indexAfterClass(characters, from: index)
                continue
            case "*", "?", "{":
                // The character before is optional (or counted): drop it from the run.
                if !current.isEmpty { current.removeLast() }
                endRun()
                if character == "{" { while index < characters.count, characters[index] != "}" { index += 1 } }
            case "+":
                endRun()
            case ".", "^", "$":
                endRun()
            case "\\":
                index += 1
                guard index < characters.count else { return nil }
                let escaped = characters[index]
                if escaped.isLetter || escaped.isNumber {
                    // \d, \w, \b, \1, \x41, \u{2603}, \p{L}, \101: not plain text, and neither are the
                    // digits, letters or braces that belong to the escape.
                    endRun()
                    index += 1
                    while index < characters.count, characters[index].isLetter || characters[index].isNumber { index += 1 }
                    if index < characters.count, characters[index] == "{" {
                        while index < characters.count, characters[index] != "}" { index += 1 }
                        index += 1
                    }
                    continue
                } else if depth == 0 {
                    current.append(escaped)
                }
            default:
                if depth == 0 { current.append(character) } else { endRun() }
            }
            index += 1
        }
        endRun()
        return runs.filter { $0.count >= 3 }.max { $0.count < $1.count }
    }

    /// The index after the character class that opens at `start`, classes nested in it included
    /// (`[[a-z]&&[^q]]`); a `]` first in a class is a plain `]`.
    private static func indexAfterClass(_ characters: [Character], from start: Int) -> Int {
        var index = start + 1
        var depth = 1
        func skipLeadingBracket() {
            if index < characters.count, characters[index] == "^" { index += 1 }
            if index < characters.count, characters[index] == "]" { index += 1 }
        }
        skipLeadingBracket()
        while index < characters.count, depth > 0 {
            switch characters[index] {
            case "\\": index += 2; continue
            case "[": depth += 1; index += 1; skipLeadingBracket(); continue
            case "]": depth -= 1
            default: break
            }
            index += 1
        }
        return index
    }

    /// What is wrong with an expression the engine refused, as well as a simple reading can
    /// say (the engine's own message names no place).
    static func problem(in pattern: String) -> String {
        let characters = Array(pattern)
        var groups: [Int] = []
        var index = 0
        var previousAtom = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else { return "it ends with a lone backslash (write \\\\ for a backslash)" }
                index += 1
                previousAtom = true
            case "[":
                let end = indexAfterClass(characters, from: index)
                guard end <= characters.count, end > index + 1, characters[end - 1] == "]" else {
                    return "the class '[' at character \(index + 1) is never closed (write \\[ for a bracket)"
                }
                index = end
                previousAtom = true
                continue
            case "(":
                groups.append(index)
                previousAtom = false
            case ")":
                guard groups.popLast() != nil else { return "the ')' at character \(index + 1) closes no group (write \\) for a parenthesis)" }
                previousAtom = true
            case "*", "+", "?":
                let lazy = character == "?" && index > 0 && "*+?}".contains(characters[index - 1])
                if !previousAtom && !lazy { return "the '\(character)' at character \(index + 1) repeats nothing (write \\\(character) for the character)" }
                previousAtom = lazy ? false : previousAtom
            case "|": previousAtom = false
            default: previousAtom = true
            }
            index += 1
        }
        if let open = groups.first { return "the group '(' at character \(open + 1) is never closed (write \\( for a parenthesis)" }
        return "the syntax is not one the engine reads (ICU's, which is close to Rust's regex crate that ast-grep uses)"
    }
}
