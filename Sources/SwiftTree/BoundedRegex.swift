import Foundation

/// A user's regular expression, matched with a time limit.
///
/// Backtracking engines (ICU's, behind `NSRegularExpression`) can take exponential time on a
/// pattern such as `(\w+\s?)+$` (15 s on a 37-letter identifier), and ICU sometimes gives up
/// silently, answering "no match". Every match here reports its progress to a callback that stops
/// it once it has run longer than its limit; the match then throws `RegexTimeout` instead of
/// answering, so a definition with such a pattern fails clearly instead of hanging or lying.
public final class BoundedRegex: @unchecked Sendable {
    /// How long one match may take on a short text, in seconds: thousands of times what a sound
    /// pattern needs on an identifier, and less than ICU takes before it silently gives up.
    public static let defaultTimeLimit = 0.25
    /// The time allowed per MiB of text on top of that (a sound `.*a.*b` takes about 0.6 s on 4 MiB).
    public static let timePerMebibyte = 1.0

    public let pattern: String
    /// The limit for a short text; longer texts get `timePerMebibyte` more per MiB.
    public let timeLimit: Double
    private let regex: NSRegularExpression

    /// - Throws: the compiler's error for a malformed pattern.
    public init(_ pattern: String, timeLimit: Double = BoundedRegex.defaultTimeLimit) throws {
        self.pattern = pattern
        self.timeLimit = timeLimit
        regex = try NSRegularExpression(pattern: pattern)
    }

    /// Whether the pattern matches somewhere in the text.
    /// - Throws: `RegexTimeout` when the match ran out of time.
    public func matches(_ text: String) throws -> Bool {
        let limit = timeLimit + Self.timePerMebibyte * Double(text.utf8.count) / Double(1 << 20)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limit * 1e9)
        var found = false
        var timedOut = false
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if DispatchTime.now().uptimeNanoseconds > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut { throw RegexTimeout(pattern: pattern, text: text, timeLimit: (limit * 100).rounded() / 100) }
        return found
    }
}

/// A regular expression that took too long on some text (catastrophic backtracking).
public struct RegexTimeout: Error, CustomStringConvertible {
    public var pattern: String
    /// The text it was matched against.
    public var text: String
    public var timeLimit: Double

    public var description: String {
        let sample = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "the regular expression \"\(pattern)\" took more than \(timeLimit) s on \"\(sample.debugDescription.dropFirst().dropLast())\" "
            + "(nested quantifiers such as (a+)+, (\\w+\\s?)+ or (a|aa)* backtrack exponentially); simplify it"
    }
}
