import Foundation
@testable import CodemodKit
import SwiftTree
import Testing
import Workspace
import TestSupport

@Suite struct RunnerTests {
    /// Renames the identifier `target` to `renamed`.
    static let rename = try! Codemod(definition("""
    id: rename-target
    summary: s
    why: w
    match:
      query: ((simple_identifier) @id (#eq? @id "target"))
      requires: target
    rewrite:
      replace: id
      with: renamed
    """))

    func run(_ codemod: Codemod, _ path: String, write: Bool = true) -> FileOutcome {
        CodemodRunner(codemod: codemod, options: RunOptions(write: write, jobs: 1)).process(path, with: Parser())
    }

    @Test func writesKeepLineEndingsBOMAndPermissions() throws {
        let folder = try TemporaryFolder()
        let crlf = try folder.write("CRLF.swift", "let target = 1\r\nprint(target)\r\n")
        let bom = try folder.write("BOM.swift", bytes: [0xEF, 0xBB, 0xBF] + Array("let target = \"😀\"".utf8))
        chmod(crlf, 0o640)
        chmod(bom, 0o755)
        #expect(run(Self.rename, crlf).status == .written)
        #expect(run(Self.rename, bom).status == .written)
        #expect(try folder.read("CRLF.swift") == Array("let renamed = 1\r\nprint(renamed)\r\n".utf8))
        #expect(try folder.read("BOM.swift") == [0xEF, 0xBB, 0xBF] + Array("let renamed = \"😀\"".utf8))
        var info = stat()
        stat(crlf, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        stat(bom, &info)
        #expect(info.st_mode & 0o777 == 0o755)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["BOM.swift", "CRLF.swift"])
    }

    @Test func multiLineReplacementsFollowTheFileLineEndings() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\r\n")
        let codemod = try Codemod(definition("""
        id: split
        summary: s
        why: w
        match:
          query: ((simple_identifier) @id (#eq? @id "target"))
        rewrite:
          replace: id
          with: "/* two\\nlines */ renamed"
        """))
        #expect(run(codemod, path).status == .written)
        #expect(try folder.read("A.swift") == Array("let /* two\r\nlines */ renamed = 1\r\n".utf8))
    }

    @Test func dryRunWritesNothing() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let outcome = run(Self.rename, path, write: false)
        #expect(outcome.status == .changed)
        #expect(outcome.diff.contains("+let renamed = 1"))
        #expect(outcome.changes == [Change(line: 1, column: 5, endLine: 1, endColumn: 11, original: "target", replacement: "renamed")])
        #expect(try folder.read("A.swift") == Array("let target = 1\n".utf8))
    }

    @Test func readOnlyFilesAreRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        chmod(path, 0o444)
        defer { chmod(path, 0o644) }
        let outcome = run(Self.rename, path)
        guard case let .failed(message) = outcome.status else {
            Issue.record("expected a failure, got \(outcome.status)")
            return
        }
        #expect(message.contains("read-only"))
        #expect(try folder.read("A.swift") == Array("let target = 1\n".utf8))
    }

    @Test func writesGoThroughSymbolicLinks() throws {
        let folder = try TemporaryFolder()
        let real = try folder.write("real/A.swift", "let target = 1\n")
        let link = (folder.path as NSString).appendingPathComponent("Link.swift")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(run(Self.rename, link).status == .written)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try folder.read("real/A.swift") == Array("let renamed = 1\n".utf8))
    }

    @Test func safetyNetRefusesARewriteThatBreaksTheFile() throws {
        let folder = try TemporaryFolder()
        let original = "func f() {\n    let target = 1\n}\n"
        let path = try folder.write("A.swift", original)
        let breaking = try Codemod(definition("""
        id: breaking
        summary: s
        why: w
        match:
          query: ((simple_identifier) @id (#eq? @id "target"))
        rewrite:
          replace: id
          with: "target {"
        """))
        let outcome = run(breaking, path)
        guard case let .refused(message) = outcome.status else {
            Issue.record("expected a refusal, got \(outcome.status)")
            return
        }
        #expect(message.contains("syntax error"))
        #expect(try folder.read("A.swift") == Array(original.utf8))
    }

    @Test func overlappingEditsAreAnEngineError() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let overlapping = try Codemod(definition("""
        id: overlapping
        summary: s
        why: w
        match:
          query: |
            (property_declaration name: (pattern (simple_identifier) @id)) @decl
        rewrite:
          - replace: decl
            with: "let x = 2"
          - replace: id
            with: y
        """))
        guard case let .failed(message) = run(overlapping, path).status else {
            Issue.record("expected an engine error")
            return
        }
        #expect(message.contains("overlapping edits"))
        #expect(try folder.read("A.swift") == Array("let target = 1\n".utf8))
    }

    @Test func usesInErrorRegionsAreFoundButNotRewritten() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let a = target\nlet broken = (target +\n")
        let outcome = run(Self.rename, path, write: false)
        #expect(outcome.uses.count == 2)
        #expect(outcome.uses.map(\.inErrorRegion) == [false, true])
        #expect(outcome.skippedInErrorRegions == 1)
        #expect(outcome.changes.map(\.line) == [1])
    }

    @Test func badFilesFailWithClearMessages() throws {
        let folder = try TemporaryFolder()
        let latin1 = try folder.write("Latin1.swift", bytes: Array("let target = \"caf".utf8) + [0xE9, 0x22, 0x0A])
        guard case let .failed(message) = run(Self.rename, latin1).status else {
            Issue.record("expected a failure")
            return
        }
        #expect(message.contains("Latin1.swift"))
        #expect(message.contains("not valid UTF-8"))
        #expect(try folder.read("Latin1.swift").count == 20)
    }

    @Test func prefilterSkipsFilesWithoutTheLiteral() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let other = 1\n")
        #expect(!Self.rename.mightMatch(Array("let other = 1\n".utf8)))
        #expect(run(Self.rename, path).status == .unchanged)
    }

    @Test func parallelRunKeepsOrderAndCounts() throws {
        let folder = try TemporaryFolder()
        var paths: [String] = []
        for index in 0..<60 {
            paths.append(try folder.write("F\(index).swift", index % 3 == 0 ? "let target = \(index)\n" : "let x = \(index)\n"))
        }
        var seen: [String] = []
        let summary = CodemodRunner(codemod: Self.rename, options: RunOptions(write: false, jobs: 4)).run(paths) {
            seen.append($0.path)
        }
        #expect(seen == paths)
        #expect(summary.filesScanned == 60)
        #expect(summary.filesChanged == 20)
        #expect(summary.edits == 20)
    }
}
