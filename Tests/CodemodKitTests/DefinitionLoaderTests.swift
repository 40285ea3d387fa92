import BundledCodemods
@testable import CodemodKit
import SwiftTree
import Testing
import Workspace
import TestSupport

@Suite struct DefinitionLoaderTests {
    let valid = """
    id: no-force-cast
    summary: Find force casts
    why: They crash.
    params:
      type: { default: Any, pattern: "[A-Za-z_][A-Za-z0-9_.]*" }
    match:
      query: |
        (as_expression (as_operator) @op (#eq? @op "as!")) @cast
      use: cast
    examples:
      match: ["let x = y as! Foo"]
      no-match: ["let x = y as? Foo"]
    """

    func error(_ yaml: String) -> LocatedError? {
        do {
            _ = try definition(yaml)
            return nil
        } catch let error as LocatedError {
            return error
        } catch {
            return LocatedError(file: "?", line: nil, field: nil, message: "unexpected \(error)")
        }
    }

    @Test func loadsAFindOnlyDefinition() throws {
        let loaded = try definition(valid)
        #expect(loaded.id == "no-force-cast")
        #expect(!loaded.rewrites)
        #expect(loaded.params.first?.defaultValue == "Any")
        #expect(ExampleRunner().run(loaded).failures.isEmpty)
    }

    @Test func brokenYAMLNamesTheLine() throws {
        let found = try #require(error("id: x\nsummary: [unclosed\nwhy: y\n"))
        #expect(found.file == "test.yml")
        #expect(found.line != nil)
        #expect(found.description.contains("invalid YAML"))
    }

    @Test func missingFieldIsNamed() throws {
        let found = try #require(error("id: x\nwhy: w\nmatch:\n  query: (identifier) @x\n"))
        #expect(found.field == "summary")
        #expect(found.message == "is required")
    }

    /// `why` is optional (issue 24): a codemod without one simply shows none.
    @Test func whyIsOptional() throws {
        #expect(error("id: x\nsummary: s\nmatch:\n  query: (simple_identifier) @x\n") == nil)
    }

    @Test func unknownFieldIsNamedWithItsLine() throws {
        let found = try #require(error(valid.replacingOccurrences(of: "  use: cast", with: "  use: cast\n  usee: cast")))
        #expect(found.field == "match.usee")
        #expect(found.line == 10)
    }

    @Test func queryErrorsPointIntoTheFile() throws {
        let yaml = valid.replacingOccurrences(of: "(as_expression (as_operator)", with: "(as_expression (no_such_kind)")
        let found = try #require(error(yaml))
        #expect(found.field == "match.query")
        #expect(found.line == 8)
        #expect(found.message.contains("invalid node type"))
    }

    @Test func rewriteMustNameCaptures() throws {
        let found = try #require(error(valid + "\nrewrite:\n  replace: nothing\n  with: x\n"))
        #expect(found.field == "rewrite.replace")
        let hole = try #require(error(valid + "\nrewrite:\n  replace: op\n  with: \"{{nope}}\"\n"))
        #expect(hole.field == "rewrite.with")
        let action = try #require(error(valid + "\nrewrite:\n  action: teleport\n"))
        #expect(action.field == "rewrite.action")
        #expect(action.message.contains("unknown built-in action"))
    }

    @Test func useCaptureAndIdAreChecked() throws {
        #expect(error(valid.replacingOccurrences(of: "use: cast", with: "use: castt"))?.field == "match.use")
        #expect(error(valid.replacingOccurrences(of: "id: no-force-cast", with: "id: No Force"))?.field == "id")
        #expect(error(valid.replacingOccurrences(of: "pattern: \"[A-Za-z_][A-Za-z0-9_.]*\"", with: "pattern: \"[\""))?.field == "params.type.pattern")
    }

    @Test func parametersAreValidated() throws {
        let loaded = try definition(valid)
        #expect(throws: ParameterError.self) { try Codemod(loaded, params: ["typo": "x"]) }
        #expect(throws: ParameterError.self) { try Codemod(loaded, params: ["type": "not valid!"]) }
        #expect(throws: Never.self) { try Codemod(loaded, params: ["type": "Foundation.Data"]) }
    }

    static let castNote = #"type: { not-matches: "^Any$", note: "`{{cast}}` stays: a cast to {{type}} cannot fail" }"#

    /// A definition whose `@type` constraint leaves `as! Any` alone, with a note naming the cast,
    /// under the given constraints (one a line, in order).
    func withNote(_ constraints: [String] = ["cast: { not-inside: [comment] }", DefinitionLoaderTests.castNote]) -> String {
        valid.replacingOccurrences(of: "(as_expression (as_operator) @op (#eq? @op \"as!\")) @cast",
                                   with: "(as_expression (as_operator) @op (user_type) @type (#eq? @op \"as!\")) @cast")
            .replacingOccurrences(of: "  use: cast", with: "  use: cast\n  constraints:\n"
                                  + constraints.map { "    \($0)\n" }.joined())
    }

    @Test func constraintWithANoteLeavesTheMatchAndSaysWhy() throws {
        let codemod = try Codemod(try definition(withNote()))
        let tree = Parser().parse("let a = x as! Foo\nlet b = y as! Any\n")
        #expect(try codemod.uses(in: tree).map(\.text) == ["x as! Foo"])
        let notes = try codemod.transform(tree).notes
        #expect(notes.map(\.message) == ["`y as! Any` stays: a cast to Any cannot fail"])
        #expect(notes.first?.location.line == 2)
    }

    @Test func aPlainConstraintWinsOverANote() throws {
        // Both constraints fail, the one with the note listed first: the plain one decides that
        // this is no match at all, and nothing is said about it.
        let yaml = withNote([Self.castNote, "cast: { at-most: { as_operator: 0 } }"])
        let codemod = try Codemod(try definition(yaml))
        let transformation = try codemod.transform(Parser().parse("let b = y as! Any\n"))
        #expect(transformation.uses.isEmpty)
        #expect(transformation.notes.isEmpty)
    }

    @Test func noteHolesAndPlacesAreChecked() throws {
        let hole = try #require(error(withNote().replacingOccurrences(of: "{{type}} cannot", with: "{{kind}} cannot")))
        #expect(hole.field == "match.constraints.type.note")
        #expect(hole.message.contains("'{{kind}}' is neither a capture nor a parameter"))
        // Only a no-match example can expect a note.
        let misplaced = withNote().replacingOccurrences(of: "  match: [\"let x = y as! Foo\"]",
                                                      with: "  match: [{ code: \"let x = y as! Foo\", note: stays }]")
        #expect(error(misplaced)?.field == "examples.match[0].note")
    }

    @Test func aNoMatchExampleCanExpectItsNote() throws {
        var loaded = try definition(withNote().replacingOccurrences(
            of: "  no-match: [\"let x = y as? Foo\"]",
            with: "  no-match: [{ code: \"let x = y as! Any\", note: \"a cast to Any cannot fail\" }]"))
        #expect(ExampleRunner().run(loaded).failures == [])
        loaded.noMatchExamples[0].note = "a cast to Any might fail"
        let failures = ExampleRunner().run(loaded).failures
        #expect(failures.map(\.message) == ["expected a note containing 'a cast to Any might fail', found none"])
    }

    @Test func loadingAFolderNamesTheBadFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.yml", valid)
        try folder.write("bad.yml", "id: bad\nsummary: s\nwhy: w\nmatch: 3\n")
        do {
            _ = try DefinitionLoader().loadDirectory(folder.path)
            Issue.record("expected an error")
        } catch let error as LocatedError {
            #expect(error.file.hasSuffix("bad.yml"))
            #expect(error.field == "match")
            #expect(error.line == 4)
        }
    }
}

@Suite struct ExtendsTests {
    let base = """
    id: rename
    summary: Rename a type
    why: Because.
    params:
      from: { pattern: "[A-Z][A-Za-z]*" }
      to: { pattern: "[A-Z][A-Za-z]*" }
    match:
      query: ((type_identifier) @t (#eq? @t "{{from}}"))
    rewrite:
      replace: t
      with: "{{to}}"
    """

    @Test func paramsOnlyDefinitionTakesTheBaseMatchAndRewrite() throws {
        let catalog = try CodemodCatalog(bundled: [
            ("<bundled>/rename.yml", base),
            ("<bundled>/dates.yml", """
            id: dates
            extends: rename
            with: { from: NSDate, to: Date }
            summary: NSDate becomes Date
            why: Value semantics.
            examples:
              fix:
                - before: "let d: NSDate"
                  after: "let d: Date"
            """),
        ])
        let dates = try #require(catalog.definitions.first { $0.id == "dates" })
        #expect(dates.extends == "rename")
        #expect(dates.rewrites)
        #expect(dates.params.first { $0.name == "from" }?.defaultValue == "NSDate")
        #expect(ExampleRunner().run(dates).failures.isEmpty)
        let codemod = try Codemod(dates)
        #expect(try rewritten("let x: NSDate = y as! NSDate\n", with: codemod) == "let x: Date = y as! Date\n")
    }

    @Test func unknownBaseOrParameterIsAnError() throws {
        let unknownBase = "id: x\nextends: nothing\nsummary: s\nwhy: w\n"
        #expect(throws: LocatedError.self) { try CodemodCatalog(bundled: [("<bundled>/x.yml", unknownBase)]) }
        let badParam = "id: x\nextends: rename\nwith: { frm: A }\nsummary: s\nwhy: w\n"
        do {
            _ = try CodemodCatalog(bundled: [("<bundled>/rename.yml", base), ("<bundled>/x.yml", badParam)])
            Issue.record("expected an error")
        } catch let error as LocatedError {
            #expect(error.field == "with.frm")
            #expect(error.message.contains("has no parameter 'frm'"))
        }
        let withMatch = "id: x\nextends: rename\nsummary: s\nwhy: w\nmatch:\n  query: (identifier) @i\n"
        #expect(throws: LocatedError.self) { try definition(withMatch) }
    }
}

/// Parameter values must be whole matches and real Swift names (issue 12).
@Suite struct ParameterValueTests {
    static let swapType = try! CodemodCatalog(bundled: BundledCodemods.definitions).definitions.first { $0.id == "swap-type" }!

    @Test(arguments: [
        "WKWebView\n", "class", "in", "self", "_", "Self", "some", "any", "Kit.class", "Kit.", "1Web", "Web View", "\nWKWebView",
    ])
    func aTypeNameMustBeAnIdentifierAndNoKeyword(to: String) {
        #expect(throws: ParameterError.self, "\(to)") { try Codemod(Self.swapType, params: ["from": "UIWebView", "to": to]) }
    }

    @Test(arguments: ["WKWebView", "NetKit.Client", "_Private", "Any"])
    func goodTypeNamesPass(to: String) {
        #expect(throws: Never.self) { try Codemod(Self.swapType, params: ["from": "UIWebView", "to": to]) }
    }

    @Test func theDefaultIsAlwaysAllowed() throws {
        let backtick = try #require(try CodemodCatalog(bundled: BundledCodemods.definitions).definitions.first { $0.id == "backtick-self" })
        #expect(throws: Never.self) { try Codemod(backtick) }
        #expect(throws: Never.self) { try Codemod(backtick, params: ["binding": "self"]) }
        #expect(throws: ParameterError.self) { try Codemod(backtick, params: ["binding": "class"]) }
    }

    @Test func aValueThatBreaksTheQueryNamesItsParameter() throws {
        let loaded = try definition("""
        id: find-kind
        summary: Find
        why: test
        params:
          kind: { summary: a node kind, default: comment }
        match:
          query: '({{kind}}) @node'
        """)
        for lazily in [false, true] {
            do {
                _ = try Codemod(loaded, params: ["kind": "no such) (kind"], lazily: lazily)
                Issue.record("accepted")
            } catch let error as ParameterError {
                #expect(error.message.contains("parameter 'kind'"))
            }
        }
    }

    @Test func aKindMustBeKnown() throws {
        #expect(throws: LocatedError.self) {
            try definition("id: x\nsummary: s\nwhy: w\nparams:\n  a: { kind: typename }\nmatch:\n  query: '(comment) @c'\n")
        }
    }
}
