import Testing
@testable import SwiftTree

@Suite struct StringLiteralTests {
    /// Each literal's value as swiftc reads it.
    @Test(arguments: [
        (#""FeedUI""#, "FeedUI"),
        (##"#"FeedUI"#"##, "FeedUI"),
        (##"#"Feed"UI"#"##, "Feed\"UI"),
        (###"##"Fe\#(x)ed"##"###, "Fe\\#(x)ed"),
        (#""Feed\u{55}I""#, "FeedUI"),
        (#""Feed\u{1F600}""#, "Feed😀"),
        (##"#"Feed\#u{55}I"#"##, "FeedUI"),
        (##"#"Feed\u{55}I"#"##, "Feed\\u{55}I"),
        (#""a\tb\"c\\d""#, "a\tb\"c\\d"),
        ("\"\"\"\n    Feed\n    UI\n    \"\"\"", "Feed\nUI"),
        ("\"\"\"\n  Feed \\\n  UI\n  \"\"\"", "Feed UI"),
    ] as [(String, String)])
    func decodes(_ literal: String, _ value: String) {
        #expect(StringLiteral.value(ofLiteral: literal) == value)
    }

    /// Interpolations and what does not compile have no value.
    @Test(arguments: [#""A\(x)B""#, #""bad \q escape""#, #""unterminated"#, ##"#"open""##, #""\u{110000}""#, "\"\"\"Feed\"\"\""])
    func refuses(_ literal: String) {
        #expect(StringLiteral.value(ofLiteral: literal) == nil)
    }

    @Test func readsParsedNodes() throws {
        let tree = Parser().parse(##"let a = #"FeedUI"#; let b = "Feed\u{55}I"; let c = 1"##)
        let values = tree.root.descendants.compactMap(StringLiteral.value(of:))
        #expect(values == ["FeedUI", "FeedUI"])
    }
}
