import Foundation
import Testing

/// A migration's texts hold Markdown code spans; every report format shows the code as written:
/// the HTML as `<code>` by CommonMark's rule (backticks inside a span kept), the text and JSON
/// reports with the Markdown unchanged.
@Suite struct ReportCodeSpansCLITests {
    static let summary = #"Use `` Cache<T> where T: `Hashable` `` & "keys" — not `LegacyCache` 🚀 (a ` alone is text)"#

    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", """
        migrations:
          - codemod: backtick-self
          - id: cache
            codemod: swap-type
            params: { from: LegacyCache, to: Cache }
            summary: '\(Self.summary)'

        """)
        try repo.write("Sources/Feed.swift", """
        final class Feed {
            let cache = LegacyCache()
            func load() {
                fetch { [weak self] in
                    guard let `self` = self else { return }
                    self.show()
                }
            }
        }

        """)
        return repo
    }

    /// The text of the first element with a class inside a migration's section.
    func element(_ html: String, section id: String, class name: String) throws -> String {
        let start = try #require(html.range(of: "id=\"\(id)\" data-migration=\"\(id)\""))  // the section, not an overview cell
        let rest = html[start.upperBound...]
        let open = try #require(rest.range(of: "class=\"\(name)\">"))
        let close = try #require(rest[open.upperBound...].range(of: "</p>"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theBundledBacktickSelfTextsShowTheirCodeAsWritten() throws {
        let repo = try repository()
        let result = try CLI.swiftmod(["report", "--format", "html", "--output", "progress.html"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try repo.text("progress.html")
        #expect(try element(page, section: "backtick-self", class: "summary")
            == "Replace <code>guard let `self` = self</code> with <code>guard let self</code> (or a named binding such as <code>this</code>)")
        #expect(try element(page, section: "backtick-self", class: "why")
            .hasPrefix("Rebinding self with backticks (<code>guard let `self` = self else { return }</code>) began"))
        #expect(try element(page, section: "backtick-self", class: "links")
            .hasPrefix("Instead: <code>guard let self else { return }</code> (or, with <code>--param binding=this</code>, <code>guard let this = self</code> with its uses renamed)."))
        // A configured summary: HTML's special characters escaped, inside code and out, emoji kept.
        #expect(try element(page, section: "cache", class: "summary")
            == "Use <code>Cache&lt;T&gt; where T: `Hashable`</code> &amp; &quot;keys&quot; — not <code>LegacyCache</code> 🚀 (a ` alone is text)")

        // As a browser reads the page: the code element holds the backticks.
        let dom = try Browser.require().dumpDOM(repo.url("progress.html").path)
        #expect(dom.contains("<code>guard let `self` = self</code> with <code>guard let self</code>"))
        #expect(dom.contains("<code>Cache&lt;T&gt; where T: `Hashable`</code>"))
    }

    @Test func textAndJSONKeepTheMarkdownAsWritten() throws {
        let repo = try repository()
        let text = try CLI.swiftmod(["report"], in: repo.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\n  Replace ``guard let `self` = self`` with `guard let self` (or a named binding such as `this`)\n"))
        #expect(text.stdout.contains("\n  \(Self.summary)\n"))

        let json = try CLI.swiftmod(["report", "--format", "json"], in: repo.path)
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let migrations = try #require(report["migrations"] as? [[String: Any]])
        let bySummary = Dictionary(uniqueKeysWithValues: migrations.map { ($0["id"] as? String ?? "", $0["summary"] as? String ?? "") })
        #expect(bySummary["backtick-self"] == "Replace ``guard let `self` = self`` with `guard let self` (or a named binding such as `this`)")
        #expect(bySummary["cache"] == Self.summary)
    }
}
