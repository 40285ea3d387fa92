import Testing
@testable import Tracker

/// Markdown code spans in migration texts, by CommonMark's rule, and the HTML that shows them.
@Suite struct CodeSpansTests {
    typealias Piece = CodeSpans.Piece

    @Test func aDoubleBacktickSpanKeepsTheBackticksItHolds() {
        #expect(CodeSpans.pieces(of: "Replace ``guard let `self` = self`` with `guard let self`") == [
            .text("Replace "), .code("guard let `self` = self"), .text(" with "), .code("guard let self"),
        ])
        #expect(CodeSpans.pieces(of: "`` `self` ``") == [.code("`self`")])
        #expect(CodeSpans.pieces(of: "`` a ` b `` c") == [.code("a ` b"), .text(" c")])
        #expect(CodeSpans.pieces(of: "``a ` b `` c") == [.code("a ` b "), .text(" c")])  // one end only: kept
        // Runs of other lengths inside a span are code.
        #expect(CodeSpans.pieces(of: "` `` `") == [.code("``")])
        #expect(CodeSpans.pieces(of: "```a `` b```") == [.code("a `` b")])
    }

    @Test func oneSpaceIsStrippedFromEachEndOnlyWhenBothEndsHaveOne() {
        #expect(CodeSpans.pieces(of: "` a `") == [.code("a")])
        #expect(CodeSpans.pieces(of: "`  a  `") == [.code(" a ")])
        #expect(CodeSpans.pieces(of: "` a`") == [.code(" a")])
        #expect(CodeSpans.pieces(of: "`a `") == [.code("a ")])
        // Only spaces: kept as they are.
        #expect(CodeSpans.pieces(of: "` `") == [.code(" ")])
        #expect(CodeSpans.pieces(of: "`   `") == [.code("   ")])
        // A no-break space is not a space for this rule.
        #expect(CodeSpans.pieces(of: "`\u{A0}a\u{A0}`") == [.code("\u{A0}a\u{A0}")])
    }

    @Test func lineEndingsInCodeBecomeSpaces() {
        #expect(CodeSpans.pieces(of: "`guard let self\nelse { return }`") == [.code("guard let self else { return }")])
        #expect(CodeSpans.pieces(of: "`a\r\nb\rc`") == [.code("a b c")])
        // A line ending at each end becomes a space, and those two are stripped.
        #expect(CodeSpans.pieces(of: "``\nfoo\n``") == [.code("foo")])
        // Outside code, line endings are text.
        #expect(CodeSpans.pieces(of: "a\nb") == [.text("a\nb")])
    }

    @Test func unmatchedBackticksAreText() {
        #expect(CodeSpans.pieces(of: "a ` b") == [.text("a ` b")])
        #expect(CodeSpans.pieces(of: "```a``") == [.text("```a``")])
        // An opener nothing closes is text; a later run can still open a span.
        #expect(CodeSpans.pieces(of: "`a``b``") == [.text("`a"), .code("b")])
        #expect(CodeSpans.pieces(of: "``a`b`") == [.text("``a"), .code("b")])
        // A backslash does not escape anything inside a span.
        #expect(CodeSpans.pieces(of: "`a\\`b`") == [.code("a\\"), .text("b`")])
        #expect(CodeSpans.pieces(of: "") == [])
        #expect(CodeSpans.pieces(of: "no code here") == [.text("no code here")])
    }

    @Test func emojiAndCombiningMarksAreKept() {
        #expect(CodeSpans.pieces(of: "Say `\"🎉\"` to `👩‍💻.count`") == [
            .text("Say "), .code("\"🎉\""), .text(" to "), .code("👩‍💻.count"),
        ])
        // A backtick followed by a combining mark is one Swift character but still a backtick.
        #expect(CodeSpans.pieces(of: "`e\u{301}`\u{301}") == [.code("e\u{301}"), .text("\u{301}")])
    }

    @Test func htmlShowsTheCodeEscapedAndAsWritten() {
        #expect(ProgressHTML.rich("Replace ``guard let `self` = self`` with `guard let self`")
            == "Replace <code>guard let `self` = self</code> with <code>guard let self</code>")
        #expect(ProgressHTML.rich("Use `Array<T> & \"x\"` in <b>views</b> & more")
            == "Use <code>Array&lt;T&gt; &amp; &quot;x&quot;</code> in &lt;b&gt;views&lt;/b&gt; &amp; more")
        #expect(ProgressHTML.rich("an unmatched ` <tick>") == "an unmatched ` &lt;tick&gt;")
        // Code cannot close the element early.
        #expect(ProgressHTML.rich("`</code><script>`") == "<code>&lt;/code&gt;&lt;script&gt;</code>")
    }

    @Test func markdownFencesCodeLongerThanAnyRunInside() {
        #expect(CodeSpans.markdown(code: "guard let self") == "`guard let self`")
        #expect(CodeSpans.markdown(code: "guard let `self` = self") == "``guard let `self` = self``")
        #expect(CodeSpans.markdown(code: "a `` b ``` c") == "````a `` b ``` c````")
        // Code starting or ending with a backtick, or with a space at both ends, is padded.
        #expect(CodeSpans.markdown(code: "`self`") == "`` `self` ``")
        #expect(CodeSpans.markdown(code: " a ") == "`  a  `")
        #expect(CodeSpans.markdown(code: " a") == "` a`")
        #expect(CodeSpans.markdown(code: "  ") == "`  `")
        #expect(CodeSpans.markdown(code: "a\nb") == "`a b`")
        #expect(CodeSpans.markdown(code: "") == "")
    }

    @Test(arguments: [
        "guard let `self` = self", "`self`", "``", "`", " ", "  x  ", " x", "x ", "a ` b", "```swift",
        "Array<T> & \"x\"", "👩‍💻 `🎉`", "\\`",
    ])
    func markdownReadsBackAsTheSameCode(code: String) {
        #expect(CodeSpans.pieces(of: CodeSpans.markdown(code: code)) == [.code(code)])
        // Also between words.
        #expect(CodeSpans.pieces(of: "a " + CodeSpans.markdown(code: code) + " b") == [.text("a "), .code(code), .text(" b")])
    }
}
