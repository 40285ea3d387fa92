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
                // Skip the class.
                index += 1
                if index < characters.count, characters[index] == "]" { index += 1 }
                while index < characters.count, characters[index] != "]" {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
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
                    endRun()  // \d, \w, \b, \1: not plain text
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
}
