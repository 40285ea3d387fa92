@testable import CodemodKit
import SwiftTree
import Testing
import Workspace

@Suite struct UnifiedDiffTests {
    func diff(_ text: String, _ edits: [Edit]) throws -> String {
        let source = SourceText(text)
        return UnifiedDiff().render(path: "A.swift", source: source, edits: try EditSet(edits, in: source))
    }

    @Test func oneChangeWithContext() throws {
        let text = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let offset = Array(text.utf8).indices.first { text.utf8.dropFirst($0).starts(with: "line 5".utf8) }!
        let result = try diff(text, [Edit(range: offset..<(offset + 6), replacement: "LINE FIVE")])
        #expect(result == """
        --- a/A.swift
        +++ b/A.swift
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +LINE FIVE
         line 6
         line 7
         line 8

        """)
    }

    @Test func distantChangesMakeTwoHunksWithShiftedNumbers() throws {
        let text = (1...20).map { "l\($0)" }.joined(separator: "\n") + "\n"
        let second = Array(text.utf8).indices.first { text.utf8.dropFirst($0).starts(with: "l2\n".utf8) }!
        let eighteenth = Array(text.utf8).indices.first { text.utf8.dropFirst($0).starts(with: "l18".utf8) }!
        let result = try diff(text, [Edit(range: second..<(second + 3), replacement: "l2a\nl2b\n"),
                                     Edit(range: eighteenth..<(eighteenth + 4), replacement: "")])
        #expect(result.contains("@@ -1,5 +1,6 @@"))  // l3 is context, not a change
        #expect(result.contains("@@ -15,6 +16,5 @@"))
    }

    @Test func missingFinalNewlineIsMarked() throws {
        let result = try diff("a\nb", [Edit(range: 2..<3, replacement: "c")])
        #expect(result.hasSuffix("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"))
    }

    @Test func crlfLinesKeepTheirCarriageReturns() throws {
        let result = try diff("a\r\nb\r\n", [Edit(range: 3..<4, replacement: "c")])
        #expect(result.hasSuffix(" a\r\n-b\r\n+c\r\n"))
        #expect(!result.contains("No newline"))
    }

    @Test func noChangeNoDiff() throws {
        #expect(try diff("abc\n", [Edit(range: 0..<1, replacement: "a")]) == "")
    }
}
