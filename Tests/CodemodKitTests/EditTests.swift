@testable import CodemodKit
import SwiftTree
import Testing
import Workspace

@Suite struct EditTests {
    @Test func appliesInSourceOrder() throws {
        let source = SourceText("let a = 1; let b = 2")
        let edits = try EditSet([Edit(range: 15..<16, replacement: "bee"), Edit(range: 4..<5, replacement: "ay")], in: source)
        #expect(String(decoding: edits.apply(to: source), as: UTF8.self) == "let ay = 1; let bee = 2")
    }

    @Test func identicalEditsCollapse() throws {
        let source = SourceText("abc")
        let edits = try EditSet([Edit(range: 0..<1, replacement: "x"), Edit(range: 0..<1, replacement: "x")], in: source)
        #expect(edits.count == 1)
    }

    @Test func overlappingEditsAreAnError() {
        let source = SourceText("let value = 1\n")
        #expect(throws: OverlappingEditsError.self) {
            try EditSet([Edit(range: 4..<9, replacement: "a"), Edit(range: 6..<11, replacement: "b")], in: source)
        }
        #expect(throws: OverlappingEditsError.self) {
            try EditSet([Edit(range: 4..<4, replacement: "a"), Edit(range: 4..<4, replacement: "b")], in: source)
        }
        do {
            _ = try EditSet([Edit(range: 4..<9, replacement: "a"), Edit(range: 6..<11, replacement: "b")], in: source)
        } catch {
            #expect("\(error)".contains("overlapping edits at 1:5 and 1:7"))
        }
    }

    @Test(arguments: [
        ("@IBOutlet weak var x", "weak", "@IBOutlet var x"),
        ("    weak @IBOutlet var x", "weak", "    @IBOutlet var x"),
        ("@IBOutlet weak\n    var x", "weak", "@IBOutlet\n    var x"),
        ("a\n    weak\nvar x", "weak", "a\nvar x"),
        ("a\r\n    weak\r\nvar x", "weak", "a\r\nvar x"),
        ("@IBOutlet\tweak\tvar", "weak", "@IBOutlet\tvar"),
    ])
    func tidyRemoval(input: String, token: String, expected: String) throws {
        let source = SourceText(input)
        let start = try #require(input.utf8.split(separator: 0).first.map { Array($0) }.flatMap { bytes -> Int? in
            let needle = Array(token.utf8)
            return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
        })
        let range = TidyRemoval.range(removing: start..<(start + token.utf8.count), in: source)
        let edits = try EditSet([.removal(range)], in: source)
        #expect(String(decoding: edits.apply(to: source), as: UTF8.self) == expected)
    }

    @Test func templatesFillHoles() {
        let template = Template("guard let {{binding}} = {{ value }} else { {{x}} }")
        #expect(template.holes == ["binding", "value", "x"])
        #expect(template.render { ["binding": "this", "value": "self"][$0] } == "guard let this = self else { {{x}} }")
    }

    @Test func byteSearch() {
        #expect(ByteSearch.contains(Array("hello @IBOutlet world".utf8), Array("IBOutlet".utf8)))
        #expect(!ByteSearch.contains(Array("hello @IBOutle".utf8), Array("IBOutlet".utf8)))
        #expect(ByteSearch.contains(Array("aab".utf8), Array("ab".utf8)))
        #expect(!ByteSearch.contains([], Array("a".utf8)))
        // The rarest byte is looked for, not the first: a match at either end of the range, and none past it.
        #expect(ByteSearch.rarestByteOffset(Array("removeFromSuperview".utf8)) == 6)
        #expect(ByteSearch.occurrences(of: Array("aF".utf8), in: Array("aFaaF".utf8)) == [0, 3])
        #expect(ByteSearch.occurrences(of: Array("aF".utf8), in: Array("aFaaF".utf8), within: 1..<4) == [])
        #expect(ByteSearch.occurrences(of: Array("aF".utf8), in: Array("aFaaF".utf8), within: 1..<5) == [3])
    }

    /// Against a search that tries every offset: random haystacks and needles over a few bytes
    /// (so that they overlap, repeat and nearly match), in random ranges.
    @Test func byteSearchFindsWhatTryingEveryOffsetFinds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aaeF@ \n".utf8)
        func naive(_ needle: [UInt8], _ haystack: [UInt8], _ range: Range<Int>) -> [Int] {
            var found: [Int] = []
            var index = range.lowerBound
            while index + needle.count <= range.upperBound {
                if Array(haystack[index..<(index + needle.count)]) == needle {
                    found.append(index)
                    index += needle.count
                } else {
                    index += 1
                }
            }
            return found
        }
        for _ in 0..<3000 {
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let lower = Int.random(in: 0...haystack.count, using: &generator)
            let range = lower..<Int.random(in: lower...haystack.count, using: &generator)
            let expected = naive(needle, haystack, range)
            #expect(ByteSearch.occurrences(of: needle, in: haystack, within: range) == expected, "\(needle) in \(haystack) within \(range)")
            #expect(ByteSearch.contains(haystack, needle, within: range) == !expected.isEmpty)
        }
    }
}

@Suite struct TreeMemoTests {
    @Test func computesOnceAndRemembersNil() {
        let memo = TreeMemo()
        var calls = 0
        let first: Int? = memo.value("k") { calls += 1; return nil }
        let second: Int? = memo.value("k") { calls += 1; return 5 }
        #expect(first == nil && second == nil && calls == 1)
        #expect(memo.value("other") { 7 } == 7)
    }
}
