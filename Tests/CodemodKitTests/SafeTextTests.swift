import Foundation
import Testing
@testable import CodemodKit
import Workspace

/// Strings from outside stay data in every output.
@Suite struct SafeTextTests {
    @Test func theEscapedCharactersAreThoseOfUnicodesCategories() {
        // The table of ranges agrees with Unicode's own properties, for every scalar.
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            let expected = category == .control || category == .lineSeparator || category == .paragraphSeparator
                || (category == .format && ((0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)))
            if SafeText.needsEscape(scalar) != expected { Issue.record("U+\(String(value, radix: 16))") }
        }
    }

    @Test(arguments: [
        ("plain/Path.swift", "plain/Path.swift"), ("ünïcødé 名前 🙂.swift", "ünïcødé 名前 🙂.swift"),
        ("a\nb", "a\\nb"), ("a\r\nb", "a\\r\\nb"), ("tab\there", "tab\\there"), ("\u{1B}[31mred", "\\u{1B}[31mred"),
        ("line\u{2028}sep", "line\\u{2028}sep"), ("rtl\u{202E}txt", "rtl\\u{202E}txt"), ("nel\u{85}x", "nel\\u{85}x"),
    ])
    func oneLine(input: String, expected: String) {
        #expect(SafeText.oneLine(input) == expected)
    }

    @Test(arguments: [
        ("https://wiki.example.com/x", true), ("http://x", true), ("mailto:team@example.com", true),
        ("docs/webview.md", true), ("#section", true), ("../a:b", true), ("?q=a:b", true), ("HTTPS://x", true),
        ("javascript:alert(1)", false), ("JavaScript:alert(1)", false), (" javascript:alert(1)", false),
        ("java\tscript:alert(1)", false), ("java\nscript:x", false), ("data:text/html,<script>", false),
        ("vbscript:x", false), ("file:///etc/passwd", false),
    ])
    func links(link: String, safe: Bool) {
        #expect(SafeText.isSafeLink(link) == safe, "\(link)")
    }

    @Test(arguments: [
        ("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
        ("Sources", "Sources"), ("a=b", "a=b"), ("", ""),
    ])
    func spreadsheetCells(cell: String, expected: String) {
        #expect(SafeText.spreadsheetCell(cell) == expected)
    }
}
