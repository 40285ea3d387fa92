import Foundation
import Testing
@testable import SwiftTree

@Suite struct SourceTextTests {
    @Test func columnsCountBytesAndCharacters() throws {
        // 👋🏽 is 8 UTF-8 bytes and one character; 日本 is 6 bytes and two characters.
        let text = SourceText("let s = \"👋🏽日本\"; let x = 1\n")
        let offset = Array(text.bytes).firstIndex(of: UInt8(ascii: "x"))!
        let location = text.location(ofByte: offset)
        #expect(location.line == 1)
        #expect(location.column == offset + 1)
        // Before x: `let s = "` (9) + 👋🏽 (8 bytes, 1 character) + 日本 (6 bytes, 2) + `"; let ` (7).
        #expect(location.column == 9 + 8 + 6 + 7 + 1)
        #expect(location.characterColumn == 9 + 1 + 2 + 7 + 1)
    }

    @Test func nodePositionsAfterEmojiAndCJK() throws {
        let tree = Parser().parse("// 🎉 カタカナ\nlet 名前 = \"🇯🇵\"; let y = 2\n")
        let y = try #require(tree.root.descendants.first { $0.kind == "simple_identifier" && $0.text == "y" })
        #expect(y.start.line == 2)
        // Before y: `let ` (4) + 名前 (6 bytes, 2 characters) + ` = "` (4) + 🇯🇵 (8 bytes, 1) + `"; let ` (7).
        #expect(y.start.column == 4 + 6 + 4 + 8 + 7 + 1)
        #expect(y.start.characterColumn == 4 + 2 + 4 + 1 + 7 + 1)
        let name = try #require(tree.root.descendants.first { $0.kind == "simple_identifier" && $0.text == "名前" })
        #expect(name.start.characterColumn == 5)
        #expect(name.end.characterColumn == 7)
        #expect(name.end.column == 11)
    }

    @Test func crlfLines() throws {
        let text = SourceText("import Foundation\r\n\r\nlet a = 1\r\nlet b = 2")
        #expect(text.lineCount == 4)
        #expect(text.text(ofLine: 1) == "import Foundation")
        #expect(text.text(ofLine: 2) == "")
        #expect(text.text(ofLine: 4) == "let b = 2")
        #expect(text.dominantLineEnding == "\r\n")
        let tree = Parser().parse(text)
        #expect(!tree.hasErrors)
        let b = try #require(tree.root.descendants.first { $0.text == "b" && $0.kind == "simple_identifier" })
        #expect(b.start.line == 4)
        #expect(b.start.column == 5)
        #expect(SourceText("a\nb\n").dominantLineEnding == "\n")
    }

    @Test func byteOrderMarkIsRemembered() throws {
        let text = try SourceText(utf8: [0xEF, 0xBB, 0xBF] + Array("let a = 1\n".utf8))
        #expect(text.hasByteOrderMark)
        #expect(text.string == "let a = 1\n")
        #expect(!Parser().parse(text).hasErrors)
    }

    @Test func invalidUTF8IsRejectedWithItsPosition() {
        #expect(throws: SourceText.DecodingError.invalidUTF8(offset: 12, line: 2)) {
            try SourceText(utf8: Array("let a = 1\nx\"".utf8) + [0xFF, 0x22])
        }
        // Overlong encodings and surrogates are not UTF-8 either.
        #expect(throws: SourceText.DecodingError.self) { try SourceText(utf8: [0xC0, 0xAF]) }
        #expect(throws: SourceText.DecodingError.self) { try SourceText(utf8: [0xED, 0xA0, 0x80]) }
        #expect(throws: SourceText.DecodingError.self) { try SourceText(utf8: [0xE2, 0x82]) }
        #expect((try? SourceText(utf8: Array("ok 😀 €".utf8))) != nil)
    }
}
