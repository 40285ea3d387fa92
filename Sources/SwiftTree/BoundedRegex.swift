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

    /// How long all slow matches of one pattern may take together in a run, in seconds: a pattern
    /// that backtracks just under the limit on each of thousands of names is stopped too.
    public static let slowTimeBudget = 2.0
    /// A match slower than this (plus half of `timePerMebibyte` per MiB of text) is slow.
    static let slowMatch = 0.001

    public let pattern: String
    /// The limit for a short text; longer texts get `timePerMebibyte` more per MiB.
    public let timeLimit: Double
    private let regex: NSRegularExpression
    /// The time slow matches took beyond the slow mark, over the run (all threads).
    private var slowTime = 0.0
    private let lock = NSLock()

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
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = started + UInt64(limit * 1e9)
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
        let mebibytes = Double(text.utf8.count) / Double(1 << 20)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let excess = elapsed - Self.slowMatch - Self.timePerMebibyte * mebibytes / 2
        if excess > 0 {
            lock.lock()
            slowTime += excess
            let spent = slowTime
            lock.unlock()
            if spent > Self.slowTimeBudget {
                throw RegexTimeout(pattern: pattern, text: text, timeLimit: Self.slowTimeBudget, overall: true)
            }
        }
        return found
    }
}

/// A regular expression that took too long on some text (catastrophic backtracking).
public struct RegexTimeout: Error, CustomStringConvertible {
    public var pattern: String
    /// The text it was matched against.
    public var text: String
    public var timeLimit: Double
    /// Whether the limit was the run's budget for slow matches, not one match's.
    public var overall = false

    public init(pattern: String, text: String, timeLimit: Double, overall: Bool = false) {
        self.pattern = pattern
        self.text = text
        self.timeLimit = timeLimit
        self.overall = overall
    }

    public var description: String {
        let sample = text.count > 40 ? String(text.prefix(40)) + "…" : text
        let what = overall ? "its slow matches took more than \(timeLimit) s in all, the last on" : "took more than \(timeLimit) s on"
        return "the regular expression \"\(pattern)\" \(what) \"\(sample.debugDescription.dropFirst().dropLast())\" "
            + "(the engine backtracks: nested quantifiers such as (a+)+, (\\w+\\s?)+ or (a|aa)* take exponential time, and several .* on a long text quadratic time); simplify it, or match it against smaller nodes (a `kind`)"
    }
}
