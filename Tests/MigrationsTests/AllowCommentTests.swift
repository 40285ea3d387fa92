import Foundation
import Testing
@testable import Migrations
import TestSupport

/// Allow comments in every layout: found through the syntax tree's comment nodes, so that a
/// comment is never missed for a string beside it, and every broken form is reported.
@Suite struct AllowCommentTests {
    /// A file's findings as `kind@line`, and the number of uses allowed.
    func scan(_ source: String) throws -> ([String], Int, [String]) {
        let repo = try Repository()
        try repo.write("A.swift", source)
        let result = try repo.scan()
        return (result.findings.map { "\($0.kind.rawValue)@\($0.line)" }, result.allowed, result.findings.map(\.text))
    }

    @Test(arguments: [
        // A comment after a string that holds the marker: the comment allows the use.
        ("let a = UIWebView(); let s = \"// swiftmod:allow webview -- no\" // swiftmod:allow webview -- legacy\n", [String](), 1),
        // A URL in a string before the comment.
        ("let a = UIWebView(frame: f, url: \"http://x\") // swiftmod:allow webview -- legacy\n", [], 1),
        // A block comment is not allowed, and says so; the use stays.
        ("/* swiftmod:allow webview -- legacy */\nlet a = UIWebView()\n", ["unusedAllow@1", "use@2"], 0),
        ("let a = UIWebView() /* swiftmod:allow webview -- legacy */\n", ["use@1", "unusedAllow@1"], 0),
        // Two markers in one comment: one comment, one allow; reported.
        ("let a = UIWebView(); let b = UIWebView() // swiftmod:allow webview -- a // swiftmod:allow webview -- b\n",
         ["use@1", "use@1", "unusedAllow@1"], 0),
        // A marker without an id, with or without a reason.
        ("// swiftmod:allow\nlet a = UIWebView()\n", ["unusedAllow@1", "use@2"], 0),
        ("// swiftmod:allow -- legacy\nlet a = UIWebView()\n", ["unusedAllow@1", "use@2"], 0),
        ("// swiftmod:allowwebview -- legacy\nlet a = UIWebView()\n", ["unusedAllow@1", "use@2"], 0),
        // A marker in the middle of a comment.
        ("let a = UIWebView() // legacy, swiftmod:allow webview -- x\n", ["use@1", "unusedAllow@1"], 0),
        // Markers in strings alone are no comments.
        ("let s = \"// swiftmod:allow webview\"\nlet t = \"\"\"\n/* swiftmod:allow */\n// swiftmod:allow\n\"\"\"\n", [], 0),
        // The usual forms still work.
        ("// swiftmod:allow webview -- legacy\nlet a = UIWebView()\n", [], 1),
        ("/// swiftmod:allow webview -- legacy\nlet a = UIWebView()\n", [], 1),
        ("let a = UIWebView() // swiftmod:allow webview\n", ["allowWithoutReason@1"], 1),
    ])
    func everyLayout(source: String, expected: [String], allowed: Int) throws {
        let (findings, count, texts) = try scan(source)
        #expect(findings == expected, "\(source): \(texts)")
        #expect(count == allowed, "\(source)")
    }

    @Test func brokenCommentsSayWhatIsWrong() throws {
        #expect(AllowComment.form(of: "/* swiftmod:allow webview -- x */", kind: "multiline_comment") == .broken("a block comment (/* */) cannot allow a use; only a line comment can"))
        #expect(AllowComment.form(of: "// swiftmod:allow webview -- legacy SDK", kind: "comment") == .allow(id: "webview", reason: "legacy SDK"))
        #expect(AllowComment.form(of: "//swiftmod:allow webview --", kind: "comment") == .allow(id: "webview", reason: nil))
        let (_, _, texts) = try scan("/* swiftmod:allow webview -- legacy */\nlet a = UIWebView()\n")
        #expect(texts.first?.contains("block comment") == true)
    }
}
