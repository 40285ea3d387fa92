import BundledCodemods
@testable import CodemodKit
import SwiftTree
import Testing

/// SwiftLint-style `↓` markers in examples: where each use must be reported (issue 13).
@Suite struct ExampleMarkerTests {
    /// A find-only codemod whose uses are `NSLog` callees, and a rewriting one that renames them.
    func definition(match: [String] = [], fix: [(String, String)] = [], noMatch: [String] = []) throws -> CodemodDefinition {
        var loaded = try CodemodKitTests.definition("""
        id: no-nslog
        summary: Use Logger
        why: test
        match:
          query: ((simple_identifier) @callee (#eq? @callee "NSLog"))
        rewrite:
          replace: callee
          with: logger.log
        """)
        loaded.matchExamples = match.map { .init(code: $0, params: [:], line: 1) }
        loaded.noMatchExamples = noMatch.map { .init(code: $0, params: [:], line: 1) }
        loaded.fixExamples = fix.map { .init(before: $0.0, after: $0.1, params: [:], line: 1) }
        return loaded
    }

    func failures(_ definition: CodemodDefinition) -> [String] {
        ExampleRunner().run(definition).failures.map(\.message)
    }

    @Test func markersAreStrippedAndRemembered() {
        let marked = ExampleRunner.MarkedCode("a ↓b\n😀↓c↓")
        #expect(marked.code == "a b\n😀c")
        #expect(marked.markers == [2, 8, 9])
        #expect(ExampleRunner.MarkedCode("no markers").markers == [])
    }

    @Test func markersAtTheUsesPass() throws {
        let code = "↓NSLog(\"a\")\nif x { ↓NSLog(\"b\") }\n"
        #expect(failures(try definition(match: [code])) == [])
        #expect(failures(try definition(fix: [(code, "logger.log(\"a\")\nif x { logger.log(\"b\") }\n")])) == [])
    }

    @Test func aMarkerInTheWrongPlaceFails() throws {
        let code = "let a = 1\nif x { N↓SLog(\"b\") }\n"
        #expect(failures(try definition(match: [code])) == ["expected a use at 2:9, found at 2:8"])
        #expect(failures(try definition(fix: [(code, "let a = 1\nif x { logger.log(\"b\") }\n")])) == ["expected a use at 2:9, found at 2:8"])
    }

    @Test func aMissingOrExtraMarkerFails() throws {
        // Two uses, one marker: the other use is unexpected.
        #expect(failures(try definition(match: ["↓NSLog(\"a\")\nNSLog(\"b\")\n"])) == ["unexpected use at 2:1"])
        // One use, two markers: the second marker has no use.
        #expect(failures(try definition(match: ["↓NSLog(\"a\")\nprint(↓x)\n"])) == ["no use reported at 2:7"])
        // No use at all: the marker says where one was expected.
        #expect(failures(try definition(match: ["↓print(\"a\")\n"])) == ["no use reported at 1:1"])
        #expect(failures(try definition(fix: [("↓print(\"a\")\n", "print(\"a\")\n")])) == ["no use reported at 1:1"])
    }

    @Test func severalProblemsMakeOneFailurePerExample() throws {
        let code = "let s = \"😀\"; N↓SLog(s)\nNSLog(s)\nprint(↓s)\n"
        #expect(failures(try definition(match: [code])) == ["expected a use at 1:18, found at 1:17; expected a use at 3:7, found at 2:1"])
        let source = SourceText("ab\ncd\nef\n")
        #expect(ExampleRunner.positionProblems(marked: [0, 3, 6], found: [6, 3, 0], in: source) == [])
        #expect(ExampleRunner.positionProblems(marked: [0, 3, 7], found: [0, 4], in: source)
            == ["expected a use at 2:1, found at 2:2", "no use reported at 3:2"])
        #expect(ExampleRunner.positionProblems(marked: [0], found: [0, 0], in: source) == ["unexpected use at 1:1"])
    }

    @Test func withoutMarkersAnyUseWillDo() throws {
        #expect(failures(try definition(match: ["let a = 1; NSLog(\"a\")"])) == [])
        #expect(failures(try definition(match: ["print(\"a\")"])) == ["expected at least one match, found none"])
    }

    /// Columns count UTF-8 bytes, as `run` and `scan` report them: after `"😀"` (4 bytes, one
    /// character) a use is at byte column 17, character column 14.
    @Test func columnsCountBytesAfterAnEmoji() throws {
        let line = "let s = \"😀\"; "
        #expect(failures(try definition(match: [line + "↓NSLog(s)"])) == [])
        #expect(failures(try definition(match: [line + "N↓SLog(s)"])) == ["expected a use at 1:18, found at 1:17"])
        let tree = Parser().parse(line + "NSLog(s)")
        let use = try #require(try Codemod(try definition()).uses(in: tree).first)
        #expect(use.start.column == 17)
        #expect(use.start.characterColumn == 14)
    }

    @Test func markersBelongInMatchesAndBefores() throws {
        #expect(failures(try definition(noMatch: ["print(↓x)"])) == ["a no-match example has no use to mark: remove its ↓"])
        // 'after' is the text a rewrite must give, markers and all: a marker there cannot hold.
        let after = failures(try definition(fix: [("↓NSLog(\"a\")", "↓logger.log(\"a\")")]))
        #expect(after.count == 1)
        #expect(after.first?.hasPrefix("'before' did not become 'after'") == true)
    }

    @Test func everyBundledExampleWithAUseMarksIt() throws {
        // The bundled codemods mark their uses (their examples are run by BundledCodemodTests).
        let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions)
        for definition in catalog.definitions {
            for example in definition.matchExamples {
                #expect(example.code.contains(ExampleRunner.marker), "\(definition.id): \(example.code)")
            }
            for example in definition.fixExamples {
                #expect(example.before.contains(ExampleRunner.marker), "\(definition.id): \(example.before)")
            }
        }
    }
}
