import Foundation
@testable import CodemodKit
import SwiftTree
import Testing
import Workspace
import TestSupport

/// What keeps a rewrite from losing anything: files changed while being rewritten, error regions
/// that grow, temporary files of interrupted runs, names that need quoting.
@Suite struct WriteSafetyTests {
    func run(_ path: String, write: Bool = true, beforeReplacing: (@Sendable (String) -> Void)? = nil) -> FileOutcome {
        var options = RunOptions(write: write, jobs: 1)
        options.beforeReplacing = beforeReplacing
        return CodemodRunner(codemod: RunnerTests.rename, options: options).process(path, with: Parser())
    }

    func leftovers(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".swiftmod-") }
    }

    // MARK: Concurrent edits




    @Test func aFileChangedWhileBeingRewrittenIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let outcome = run(path) { path in
            // Someone saves the file between the runner's read and its write.
            try? Data("let target = 1\nlet mine = 2\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        guard case let .refused(message) = outcome.status else {
            Issue.record("expected a refusal, got \(outcome.status)")
            return
        }
        #expect(message.hasSuffix("A.swift: changed while being rewritten; run again"))
        #expect(try folder.read("A.swift") == Array("let target = 1\nlet mine = 2\n".utf8))
        #expect(outcome.sitesNotConverted.count == 1)
        var summary = RunSummary()
        summary.add(outcome)
        #expect(summary.filesRefused == 1)
    }

    @Test func twoRewritesOfOneFileNeverLoseEitherEdit() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let other = try Codemod(definition("""
        id: one-to-two
        summary: s
        why: w
        match:
          query: ((integer_literal) @n (#eq? @n "1"))
        rewrite:
          replace: n
          with: "2"
        """))
        // A second `run --write` rewrites the file while the first is between read and write.
        let outcome = run(path) { path in
            _ = CodemodRunner(codemod: other, options: RunOptions(write: true, jobs: 1)).process(path, with: Parser())
        }
        #expect(outcome.status == .refused("\(path): changed while being rewritten; run again"))
        #expect(try folder.read("A.swift") == Array("let target = 2\n".utf8))
        // Run again: now both edits are in.
        #expect(run(path).status == .written)
        #expect(try folder.read("A.swift") == Array("let renamed = 2\n".utf8))
    }

    // MARK: The safety net

    /// Three small damaged regions, and a use in code that parses.
    static let damaged = "func f() {\n    print(target)\n}\nlet a = 1 +\nfunc g() {}\nlet b = 2 +\nfunc h() {}\nlet c = 3 +\nfunc i() {}\n"

    @Test func aRewriteThatMergesDamagedRegionsIntoOneIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", Self.damaged)
        // An unterminated multi-line string swallows the rest of the file: one region where there were three.
        let swallowing = try Codemod(definition("""
        id: swallowing
        summary: s
        why: w
        match:
          query: ((simple_identifier) @id (#eq? @id "target"))
        rewrite:
          replace: id
          with: "\\"\\"\\""
        """))
        #expect(Parser().parse(Self.damaged).errorRegions.count == 3)
        let outcome = CodemodRunner(codemod: swallowing, options: RunOptions(write: true, jobs: 1)).process(path, with: Parser())
        guard case let .refused(message) = outcome.status else {
            Issue.record("expected a refusal, got \(outcome.status)")
            return
        }
        #expect(message.contains("syntax error at line 1"))
        #expect(try folder.read("A.swift") == Array(Self.damaged.utf8))
    }

    @Test func unchangedDamagedRegionsMayMoveWithTheEdits() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", Self.damaged)
        #expect(run(path).status == .written)
        #expect(try folder.read("A.swift") == Array(Self.damaged.replacingOccurrences(of: "target", with: "renamed").utf8))
    }

    @Test func regionsAreMappedThroughTheEdits() throws {
        let source = SourceText("0123456789abcdef")
        let edits = try EditSet([Edit(range: 2..<4, replacement: "xxxx"), Edit(range: 10..<10, replacement: "+")], in: source)
        // A region 6..<10 moves by two; the insertion at its end is outside it.
        #expect(ErrorRegionCheck.firstNewRegion(before: [6..<10], after: [8..<12], edits: edits) == nil)
        #expect(ErrorRegionCheck.firstNewRegion(before: [6..<10], after: [8..<13], edits: edits) == 8..<13)
        #expect(ErrorRegionCheck.firstNewRegion(before: [6..<10], after: [0..<1], edits: edits) == 0..<1)
        // A region the edit crosses may hold all of its replacement.
        #expect(ErrorRegionCheck.firstNewRegion(before: [3..<5], after: [2..<7], edits: edits) == nil)
        // A zero-width MISSING token at the end of a region is inside it.
        #expect(ErrorRegionCheck.firstNewRegion(before: [6..<10], after: [12..<12], edits: edits) == nil)
        #expect(ErrorRegionCheck.firstNewRegion(before: [], after: [5..<5], edits: edits) == 5..<5)
    }




    // MARK: Names in diffs

    @Test func namesAreQuotedAsGitQuotesThem() {
        #expect(UnifiedDiff.headerName("a/A.swift") == "a/A.swift")
        #expect(UnifiedDiff.headerName("a/a\tb.swift") == "\"a/a\\tb.swift\"")
        #expect(UnifiedDiff.headerName("a/n\nl\r.swift") == "\"a/n\\nl\\r.swift\"")
        #expect(UnifiedDiff.headerName("a/q\"b\\.swift") == "\"a/q\\\"b\\\\.swift\"")
        #expect(UnifiedDiff.headerName("a/\u{1}\u{7F}é.swift") == "\"a/\\001\\177é.swift\"")
        #expect(UnifiedDiff.headerName("a/with space.swift") == "a/with space.swift\t")
    }

}
