import Foundation
import SwiftTree

/// A `transform:` entry: a new variable made from a captured one (ast-grep's `replace`,
/// `substring`, `convert` and `rewrite`).
public struct RuleTransformation {
    public var name: String
    /// The variable read, without `$` signs.
    public var source: String
    public var operation: Operation

    public enum Operation {
        /// Replaces every match of a regular expression (`$1` in `by` is its first group).
        case replace(regex: NSRegularExpression, by: String)
        /// Characters from `start` to `end` (Python's slice: negative counts from the end).
        case substring(start: Int?, end: Int?)
        /// Changes the case of the words, split where `separators` say.
        case convert(to: StringCase, separatedBy: Set<Separator>?)
        /// Rewrites the captured code with rewriters, joining several nodes with `joinBy`.
        case rewrite(rewriters: [String], joinBy: String?)
    }

    public enum StringCase: String, CaseIterable {
        case lowerCase, upperCase, capitalize, camelCase, snakeCase, kebabCase, pascalCase
    }

    public enum Separator: String, CaseIterable {
        case caseChange, dash, dot, slash, space, underscore
    }

    /// The variables this transformation reads.
    var reads: String { source }

    /// Applies the transformation to a plain text (a captured node's text or an earlier
    /// transformation's result).
    func apply(toText text: String) -> String {
        switch operation {
        case let .replace(regex, by):
            return Self.replacing(regex, in: text, by: by)
        case let .substring(start, end):
            let scalars = Array(text.unicodeScalars)
            func resolve(_ index: Int?, _ fallback: Int) -> Int {
                guard let index else { return fallback }
                return index < 0 ? max(0, scalars.count + index) : min(index, scalars.count)
            }
            let from = resolve(start, 0), to = resolve(end, scalars.count)
            guard from < to else { return "" }
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[from..<to])
            return String(result)
        case let .convert(to, separators):
            return Self.convert(text, to: to, separators: separators ?? Set(Separator.allCases))
        case .rewrite:
            return text
        }
    }

    /// Every match replaced as Rust's regex crate (ast-grep's) reads `by`: `$1` or `${1}` is a
    /// group, `$name` or `${name}` a named group (the longest run of letters, digits and `_`),
    /// `$$` a `$`; an unknown group is empty; a backslash is itself.
    static func replacing(_ regex: NSRegularExpression, in text: String, by template: String) -> String {
        let whole = text as NSString
        var result = ""
        var cursor = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            result += whole.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
            result += expand(template, match, in: whole)
            cursor = match.range.location + match.range.length
        }
        return result + whole.substring(from: cursor)
    }

    private static func expand(_ template: String, _ match: NSTextCheckingResult, in text: NSString) -> String {
        func group(_ name: String) -> String {
            let range = Int(name).map { $0 < match.numberOfRanges ? match.range(at: $0) : NSRange(location: NSNotFound, length: 0) }
                ?? match.range(withName: name)
            return range.location == NSNotFound ? "" : text.substring(with: range)
        }
        var output = ""
        let characters = Array(template)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            guard character == "$", index < characters.count else { output.append(character); continue }
            if characters[index] == "$" { output.append("$"); index += 1; continue }
            if characters[index] == "{", let close = characters[index...].firstIndex(of: "}") {
                output += group(String(characters[(index + 1)..<close]))
                index = close + 1
                continue
            }
            let name = characters[index...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else { output.append("$"); continue }
            output += group(String(name))
            index += name.count
        }
        return output
    }

    static func convert(_ text: String, to target: StringCase, separators: Set<Separator>) -> String {
        switch target {
        case .lowerCase: return text.lowercased()
        case .upperCase: return text.uppercased()
        case .capitalize: return text.prefix(1).uppercased() + text.dropFirst()
        default: break
        }
        let words = split(text, separators)
        switch target {
        case .camelCase:
            // As ast-grep: a word keeps the case of its other letters (HTTPServerURL → httpServerURL).
            return words.enumerated().map { $0 == 0 ? $1.lowercased() : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
        case .pascalCase:
            return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        case .snakeCase: return words.map { $0.lowercased() }.joined(separator: "_")
        case .kebabCase: return words.map { $0.lowercased() }.joined(separator: "-")
        default: return text
        }
    }

    /// Words of an identifier: split at the separators chosen, and at case changes (`fooBar`,
    /// `HTTPServer` → HTTP, Server) when `caseChange` is among them.
    static func split(_ text: String, _ separators: Set<Separator>) -> [String] {
        let marks: [Character: Separator] = ["-": .dash, ".": .dot, "/": .slash, " ": .space, "_": .underscore]
        var words: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if let separator = marks[character], separators.contains(separator) {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if separators.contains(.caseChange), !current.isEmpty, character.isUppercase {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
