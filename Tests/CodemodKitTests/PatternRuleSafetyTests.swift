@testable import CodemodKit
import Foundation
import SwiftTree
import Testing
import Workspace

/// Pattern rules where a hostile review found code deleted, moved or crashed on: each is the
/// shape that did it.
@Suite struct PatternRuleSafetyTests {
    let base = PatternRuleTests()

    /// A folder of rule files (path → text) in a temporary folder of its own.
    final class RuleFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-rules-\(UUID().uuidString)")
        var path: String { url.path }

        init(_ files: [String: String]) throws {
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aBackReferenceComparesDeeplyNestedCodeWithoutRecursion() throws {
        // 10,000 nested parentheses on each side: compared with a stack of its own, not the call stack.
        let depth = 10_000
        let side = String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
        let code = "let v = \(side) == \(side)\n"
        let uses = try base.found("rule: { pattern: '$X == $X' }", in: code)
        #expect(uses.count == 1)
        #expect(try base.found("rule: { pattern: '$X == $X' }", in: "let v = (a) == (b)\n").isEmpty)
    }

    @Test func aFixMayUseOnlyWhatTheRuleBinds() {
        // stopBy and nthChild.ofRule match without binding (as in ast-grep): a fix naming their
        // variables would write nothing in place of the code.
        let ofRule = base.loadError("rule:\n  kind: value_argument\n  nthChild: { position: 1, ofRule: { pattern: $X } }\nfix: $X")
        #expect(ofRule.contains("'$X' is never bound"), "\(ofRule)")
        let stopBy = base.loadError("""
            rule:
              kind: value_argument
              inside: { kind: call_expression, stopBy: { kind: call_expression, has: { pattern: $Y } } }
            fix: $Y
            """)
        #expect(stopBy.contains("'$Y' is never bound"), "\(stopBy)")
        // A utility binds only when the rule uses it.
        let unused = base.loadError("utils:\n  named: { pattern: foo($A) }\nrule: { pattern: bar() }\nfix: $A")
        #expect(unused.contains("'$A' is never bound"), "\(unused)")
        #expect(base.loadError("utils:\n  named: { pattern: foo($A) }\nrule: { matches: named }\nfix: bar($A)") == "loaded")
    }

    @Test func utilitiesMayRecurThroughARelationButNotAtTheSameNode() {
        let recursive = base.loadError("""
            utils:
              nested-call:
                any:
                  - pattern: legacy()
                  - has: { matches: nested-call }
            rule: { matches: nested-call, kind: call_expression }
            """)
        #expect(recursive == "loaded", "\(recursive)")
        let cycle = base.loadError("utils:\n  a: { any: [{ matches: b }] }\n  b: { not: { matches: a } }\nrule: { matches: a }")
        #expect(cycle.contains("refers to itself"), "\(cycle)")
    }

    @Test func aCycleAcrossUtilityFilesIsALoadError() throws {
        let folder = try RuleFolder([
            "utils/a.yml": "id: util-a\nlanguage: swift\nrule: { matches: util-b }\n",
            "utils/b.yml": "id: util-b\nlanguage: swift\nrule: { any: [{ matches: util-a }] }\n",
            "r.yml": "id: uses-cycle\nlanguage: swift\nrule: { matches: util-a }\n",
        ])
        #expect { try DefinitionLoader().loadDirectory(folder.path) } throws: { "\($0)".contains("refers to itself through util-a → util-b → util-a") }
        // A utility file's own utils or constraints are said, never ignored.
        try folder.write("utils/b.yml", "id: util-b\nlanguage: swift\nrule: { pattern: foo($A) }\nconstraints: { A: { kind: integer_literal } }\n")
        #expect { try DefinitionLoader().loadDirectory(folder.path) } throws: { "\($0)".contains("does not read `constraints` in a utility file") }
    }

    @Test func severityOffLeavesARuleOutOfItsFolder() throws {
        let folder = try RuleFolder([
            "on.yml": "id: on\nlanguage: swift\nrule: { pattern: foo() }\n",
            "off.yml": "id: off\nlanguage: swift\nseverity: off\nrule: { pattern: bar() }\n",
        ])
        let catalog = try CodemodCatalog(bundled: [], directories: [folder.path])
        #expect(catalog.definitions.map(\.id) == ["on"])
        #expect(catalog.leftOut.map(\.id) == ["off"])
        #expect(base.loadError("severity: critical\nrule: { pattern: foo() }").contains("'critical' is not a severity"))
    }

    @Test func aProjectOfSeveralLanguagesLoadsItsSwiftRules() throws {
        let folder = try RuleFolder([
            "swift.yml": "id: no-print\nlanguage: swift\nrule: { pattern: print($$$) }\n",
            "ts.yml": "id: no-console\nlanguage: typescript\nrule: { pattern: console.log($$$) }\n",
            "utils/ts.yml": "id: ts-util\nlanguage: TypeScript\nutils: { x: { kind: y } }\nrule: { kind: call_expression }\n",
        ])
        let catalog = try CodemodCatalog(bundled: [], directories: [folder.path])
        #expect(catalog.definitions.map(\.id) == ["no-print"])
        #expect(catalog.leftOut.map(\.reason) == ["is for typescript (swiftmod reads Swift only)"])
        // Named alone, a rule for another language is an error.
        #expect { try DefinitionLoader().loadFile(folder.url.appendingPathComponent("ts.yml").path) } throws: { "\($0)".contains("swiftmod reads Swift only") }
    }

    @Test func aRuleThatMatchesEveryNodeThroughAUtilityIsALoadError() {
        // With `fix: ''` it would delete the file.
        let error = base.loadError("utils:\n  anything: { not: { kind: call_expression } }\nrule: { matches: anything }\nfix: ''")
        #expect(error.contains("has no positive key"), "\(error)")
    }

    @Test func aFileOfSeveralRulesIsReadDocumentByDocument() throws {
        let folder = try RuleFolder(["rules.yml": "---\nid: first\nlanguage: swift\nrule:\n  pattern: foo()\n---\n# the second\nid: second\nlanguage: swift\nrule:\n  pattern: bar(\n"])
        let file = folder.url.appendingPathComponent("rules.yml")
        // The second rule's pattern does not parse: the error names the file's own line.
        #expect { try DefinitionLoader().loadDirectory(folder.path) } throws: { "\($0)".contains("rules.yml:11") }
        try folder.write("rules.yml", "id: first\nlanguage: swift\nrule:\n  pattern: foo()\n---\nid: second\nlanguage: swift\nrule:\n  pattern: bar()\n")
        #expect(try DefinitionLoader().loadDirectory(folder.path).map(\.id) == ["first", "second"])
        #expect { try DefinitionLoader().loadFile(file.path) } throws: { "\($0)".contains("holds 2 rules (first, second)") }
    }

    @Test func anEllipsisNeverTakesHalfABlock() throws {
        // The grammar puts an if's braces and its else beside the statements: `$$$B }` could
        // take `start() } else { fallback()`.
        let code = "func load() {\n    if ready { start() } else { fallback() }\n    if done { finish() }\n}\n"
        #expect(try base.found("rule: { pattern: 'if $C { $$$B }' }", in: code) == ["if done { finish() }"])
        #expect(try base.fixed("rule: { pattern: 'if $C { $$$B }' }\nfix: 'if $C { $$$B; return }'", code).text
            == "func load() {\n    if ready { start() } else { fallback() }\n    if done { finish(); return }\n}\n")
    }

    @Test func ellipsesOnBothSidesOfElseAndCatchMatch() throws {
        let code = "if ready {\n    a()\n} else {\n    b()\n}\ndo {\n    try c()\n} catch {\n    d()\n}\n"
        #expect(try base.fixed("rule: { pattern: 'if $C { $$$A } else { $$$B }' }\nfix: 'if !($C) { $$$B } else { $$$A }'", code).text
            == "if !(ready) { b() } else { a() }\ndo {\n    try c()\n} catch {\n    d()\n}\n")
        #expect(try base.found("rule: { pattern: 'do { $$$A } catch { $$$B }' }", in: code).count == 1)
    }

    @Test func aFixLineThatStartsWithAVariableIsIndented() throws {
        let body = "rule: { pattern: 'if $C { $$$B }' }\nfix: |-\n  guard !($C) else { return }\n  $$$B"
        let code = "func g() {\n    if a || b {\n        print(1)\n        print(2)\n    }\n}\n"
        #expect(try base.fixed(body, code).text == "func g() {\n    guard !(a || b) else { return }\n    print(1)\n    print(2)\n}\n")
    }

    @Test func aCaptureIsParenthesisedWhereTheFixsOperatorsNeedIt() throws {
        let negate = "rule: { pattern: 'XCTAssertFalse($A)' }\nfix: 'XCTAssertTrue(!$A)'"
        #expect(try base.fixed(negate, "XCTAssertFalse(a || b)\nXCTAssertFalse(try f())\nXCTAssertFalse(await g())\nXCTAssertFalse(x.isEmpty)\nXCTAssertFalse(-a)\n").text
            == "XCTAssertTrue(!(a || b))\nXCTAssertTrue(!(try f()))\nXCTAssertTrue(!(await g()))\nXCTAssertTrue(!x.isEmpty)\nXCTAssertTrue(!(-a))\n")
        let equal = "rule: { pattern: 'XCTAssertEqual($A, $B)' }\nfix: '#expect($A == $B)'"
        #expect(try base.fixed(equal, "XCTAssertEqual(a ?? b, c)\nXCTAssertEqual(x > 0, flag)\nXCTAssertEqual(a + b, c)\n").text
            == "#expect(a ?? b == c)\n#expect((x > 0) == flag)\n#expect(a + b == c)\n")
        let member = "rule: { pattern: 'count($A)' }\nfix: '$A.count'"
        #expect(try base.fixed(member, "let n = count(a + b)\nlet m = count(items)\n").text == "let n = (a + b).count\nlet m = items.count\n")
        #expect(try base.fixed("rule: { pattern: 'minus($A, $B)' }\nfix: '$A - $B'", "minus(a, b - c)\n").text == "a - (b - c)\n")
    }

    @Test func aLineBreakNeverLandsInAOneLineStringsInterpolation() throws {
        let body = "rule: { pattern: 'foo($A)' }\nfix: |-\n  bar(\n    $A\n  )"
        let result = try base.fixed(body, "let a = \"v: \\(foo(x))\"\nlet b = \"\"\"\n    \\(foo(y))\n    \"\"\"\nfoo(z)\n")
        #expect(result.text == "let a = \"v: \\(foo(x))\"\nlet b = \"\"\"\n    \\(bar(\n      y\n    ))\n    \"\"\"\nbar(\n  z\n)\n")
        #expect(result.refusals.contains { $0.contains("inside the interpolation of the one-line string") }, "\(result.refusals)")
    }

    @Test func aJoinThatWouldLeaveCodeOutLeavesTheSite() throws {
        let body = """
            rewriters:
              - id: wrap
                rule: { kind: simple_identifier, pattern: $X }
                fix: w($X)
            rule: { pattern: 'log($$$ARGS)' }
            transform:
              NEW: { rewrite: { source: $$$ARGS, rewriters: [wrap], joinBy: ', ' } }
            fix: trace($NEW)
            """
        let result = try base.fixed(body, "log(a, b)\nlog(a, 42)\nlog(a, /* keep */ b)\n")
        #expect(result.text == "trace(w(a), w(b))\nlog(a, 42)\nlog(a, /* keep */ b)\n")
        #expect(result.refusals.filter { $0.contains("leaves out") }.count == 2, "\(result.refusals)")
    }

    @Test func illTypedValuesAreLoadErrors() {
        #expect(base.loadError("files: 3\nrule: { pattern: foo() }").contains("'3' is not a glob"))
        #expect(base.loadError("files: [3]\nrule: { pattern: foo() }").contains("'3' is not a glob"))
        #expect(base.loadError("rule: { kind: value_argument, nthChild: -1 }").contains("positions count from 1"))
        let nested = base.loadError("""
            rewriters:
              - id: inner
                rule: { pattern: n($A) }
                fix: m($A)
              - id: outer
                rule: { pattern: o($$$A) }
                transform:
                  Y: { rewrite: { source: $$$A, rewriters: [inner] } }
                fix: p($Y)
            rule: { pattern: q($$$A) }
            transform:
              X: { rewrite: { source: $$$A, rewriters: [outer] } }
            fix: r($X)
            """)
        #expect(nested.contains("a rewriter's own transform cannot use rewriters"), "\(nested)")
    }

    @Test func expandStartAndEndTakeOneNeighbourAsAstGrepDoes() throws {
        // Each following argument holds a comma too: expanding while `regex: ','` matches would
        // delete them.
        let body = "rule: { kind: value_argument, regex: '^animated:' }\nfix: { template: '', expandEnd: { regex: ',' } }"
        #expect(try base.fixed(body, "show(animated: true, makeVC(a, b), extra)\n").text == "show(makeVC(a, b), extra)\n")
        let start = "rule: { kind: value_argument, regex: '^animated' }\nfix: { template: '', expandStart: { any: [{ regex: ',' }, { kind: value_argument }] } }"
        #expect(try base.fixed(start, "show(vc, x, animated: true)\n").text == "show(vc, x)\n")
    }

    @Test func aDirectiveTheGrammarReadsIntoAnExpressionLeavesTheSite() throws {
        let code = "var body: some View {\n    Text(\"New\")\n    #if os(iOS)\n        .padding()\n    #endif\n        .foregroundColor(.white)\n}\nlet t = Text(\"a\").foregroundColor(.red)\n"
        let result = try base.fixed("rule: { pattern: '$V.foregroundColor($C)' }\nfix: '$V.foregroundStyle($C)'", code)
        #expect(result.text == code.replacingOccurrences(of: "Text(\"a\").foregroundColor(.red)", with: "Text(\"a\").foregroundStyle(.red)"))
        #expect(result.refusals.contains { $0.contains("reads `#endif` as part of the expression") }, "\(result.refusals)")
    }

    @Test func aRuleNestedDeeperThanAnyoneWritesIsALoadError() {
        let deep = "rule:\n  kind: call_expression\n" + (0..<300).map { String(repeating: "  ", count: $0 + 1) + "has:\n" }.joined()
            + String(repeating: "  ", count: 301) + "kind: simple_identifier\n"
        #expect(base.loadError(deep).contains("nests more than 200 rules deep"))
    }

    @Test func aVariableForParametersGetsAHintThatHelps() {
        let error = base.loadError("rule: { pattern: 'func $F($$$) { $$$ }' }")
        #expect(error.contains("a variable cannot stand for parameters or members"), "\(error)")
    }

    @Test func aMultiLineStringMovedByAFixKeepsItsContent() throws {
        let body = "rule: { pattern: 'DispatchQueue.main.async { $$$BODY }' }\nfix: |-\n  Task { @MainActor in\n      $$$BODY\n  }"
        let code = "final class Feed {\n    func show() {\n        DispatchQueue.main.async { self.log(\"\"\"\n    indented\n      more\n    \"\"\") }\n    }\n}\n"
        let result = try base.fixed(body, code).text
        #expect(result == "final class Feed {\n    func show() {\n        Task { @MainActor in\n            self.log(\"\"\"\n    indented\n      more\n    \"\"\")\n        }\n    }\n}\n")
        #expect(TemplateText.linesInsideMultiLineStrings("a(\"\"\"\n x\n \"\"\")\nb(\"\\(c(\"\"\"\n y\n \"\"\"))\")\n// \"\"\"\nd\n#\"\"\"\n z\n\"\"\"#\ne") == [1, 2, 4, 5, 9, 10])
    }

    @Test func aTrailingClosureOfANestedCallIsNeverDropped() throws {
        let result = try base.fixed("rule: { pattern: 'foo(bar($A))' }\nfix: baz($A)", "foo(bar(x) { print(1) })\nfoo(bar(y))\n")
        #expect(result.text == "foo(bar(x) { print(1) })\nbaz(y)\n")
        #expect(result.refusals.contains { $0.contains("would drop `{ print(1) }`") }, "\(result.refusals)")
    }

    @Test func aFixNeverReliesOnTheGrammarsWrongOperatorGrouping() throws {
        // tree-sitter-swift reads `a != b && c` as `a != (b && c)`; Swift, as `(a != b) && c`.
        let result = try base.fixed("rule: { pattern: '$A != $B' }\nfix: '!($A == $B)'", "let x = a != b\nlet y = a != b && c\nlet z = f(a != b) && c\n")
        #expect(result.text == "let x = !(a == b)\nlet y = a != b && c\nlet z = f(!(a == b)) && c\n")
        #expect(result.refusals.contains { $0.contains("groups `a != b && c` against Swift's operator precedence") }, "\(result.refusals)")
        // Code inside a variable is copied as it is: its grouping does not matter.
        #expect(try base.fixed("rule: { pattern: 'check($A)' }\nfix: 'verify($A)'", "check(a != b && c)\n").text == "verify(a != b && c)\n")
        let tree = Parser().parse("let v = a && b || c\nlet w = a * b + c\nlet u = a ?? b == c\n")
        var misread: [String] = []
        tree.root.walk { node in
            if OperatorPrecedence.isMisread(node) { misread.append(node.text) }
            return true
        }
        #expect(misread == ["a && b || c", "a ?? b == c"])
    }

    @Test func aBodyAfterACommentOnTheBraceLineIsIndentedAsTheBody() throws {
        let body = "rule: { pattern: 'DispatchQueue.main.async { $$$BODY }' }\nfix: |-\n  Task { @MainActor in\n      $$$BODY\n  }"
        let code = "func f() {\n    DispatchQueue.main.async { // hop to main\n        render()\n        if x {\n            y()\n        }\n    }\n}\n"
        #expect(try base.fixed(body, code).text
            == "func f() {\n    Task { @MainActor in\n        // hop to main\n        render()\n        if x {\n            y()\n        }\n    }\n}\n")
    }

    @Test func aFolderNamedTwiceIsReadOnce() throws {
        let folder = try RuleFolder(["once.yml": "id: once\nlanguage: swift\nrule: { pattern: foo() }\n"])
        let catalog = try CodemodCatalog(bundled: [], directories: [folder.path + "/.", folder.path, folder.path + "/"])
        #expect(catalog.definitions.map(\.id) == ["once"])
    }

    @Test func aTrailingClosureStaysWithTheCallItWasWrittenFor() throws {
        let code = "let task = session.dataTask(with: url) { data, response, error in\n    handle(data)\n}\n"
        // A call chained after the match would take the closure.
        let chained = try base.fixed("rule: { pattern: 'session.dataTask(with: $URL)' }\nfix: 'session.dataTask(with: $URL).resume()'", code)
        #expect(chained.text == code)
        #expect(chained.refusals.contains { $0.contains("trailing closure would be handed to other code") }, "\(chained.refusals)")
        // A renamed call keeps it.
        let renamed = try base.fixed("rule: { pattern: 'session.dataTask(with: $URL)' }\nfix: 'session.loadTask(from: $URL)'", code)
        #expect(renamed.text == "let task = session.loadTask(from: url) { data, response, error in\n    handle(data)\n}\n")
        #expect(PatternRule.closureStaysWithItsCall(fix: "a.b($).c()", matched: "a.b(x)") == false)
        #expect(PatternRule.closureStaysWithItsCall(fix: "a.c($)", matched: "a.b(x)"))
        #expect(PatternRule.closureStaysWithItsCall(fix: "make().b($)", matched: "a.b(x)"))
        // Wrapped or parenthesised, the call no longer ends the fix.
        #expect(PatternRule.closureStaysWithItsCall(fix: "wrap($.b($))", matched: "a.b(x)") == false)
        #expect(PatternRule.closureStaysWithItsCall(fix: "($.b($))", matched: "a.b(x)") == false)
        #expect(PatternRule.closureStaysWithItsCall(fix: "try? $.b($)", matched: "a.b(x)"))
    }
}

/// Where swiftmod read ast-grep's transformations differently from ast-grep (a hostile review
/// compared them with ast-grep 0.51.1).
@Suite struct PatternRuleTransformParityTests {
    let base = PatternRuleTests()

    @Test func replaceReadsByAsRustsRegexCrateDoes() throws {
        func replaced(_ by: String) throws -> String {
            try base.fixed("rule: { pattern: 'foo($N)' }\ntransform:\n  A: { replace: { source: $N, replace: '(?<x>a)(b)', by: '\(by)' } }\nfix: 'g(\"$A\")'", "foo(abc)\n").text
        }
        #expect(try replaced("$2$1") == "g(\"bac\")\n")
        #expect(try replaced("${x}Z") == "g(\"aZc\")\n")
        #expect(try replaced("$$") == "g(\"$c\")\n")
        #expect(try replaced("\\t") == "g(\"\\tc\")\n")   // a backslash is itself
        #expect(try replaced("$9") == "g(\"c\")\n")       // an unknown group is empty
    }

    @Test func camelAndPascalCaseKeepTheCaseOfAWordsOtherLetters() {
        let all = Set(RuleTransformation.Separator.allCases)
        #expect(RuleTransformation.convert("HTTPServerURL", to: .camelCase, separators: all) == "httpServerURL")
        #expect(RuleTransformation.convert("HTTPServerURL", to: .pascalCase, separators: all) == "HTTPServerURL")
        #expect(RuleTransformation.convert("HTTPServerURL", to: .snakeCase, separators: all) == "http_server_url")
        #expect(RuleTransformation.convert("my_var_name", to: .camelCase, separators: all) == "myVarName")
    }

    @Test func joinByJoinsTheRewrittenCodeOnly() throws {
        let body = """
            rewriters:
              - id: up
                rule: { kind: simple_identifier }
                fix: X
            rule: { pattern: 'f($$$ARGS)' }
            transform:
              J: { rewrite: { source: $$$ARGS, rewriters: [up], joinBy: ' + ' } }
            fix: g($J)
            """
        #expect(try base.fixed(body, "f(a, b, c)\n").text == "g(X + X + X)\n")
    }

    @Test func transformationsMayComeInAnyOrder() throws {
        let body = """
            rule: { pattern: 'UIImage(named: $NAME)' }
            transform:
              SYMBOL: convert($BARE, toCase=camelCase)
              BARE: substring($NAME, startChar=1, endChar=-1)
            fix: 'UIImage(resource: .$SYMBOL)'
            """
        #expect(try base.fixed(body, "let i = UIImage(named: \"icon-close\")\n").text == "let i = UIImage(resource: .iconClose)\n")
        let cycle = base.loadError("rule: { pattern: 'f($N)' }\ntransform:\n  A: substring($B, startChar=1)\n  B: substring($A, startChar=1)\nfix: $A")
        #expect(cycle.contains("is not bound by the rule or another transformation"), "\(cycle)")
    }

    @Test func aRemovedListElementTakesOneCommaAndLeavesCommentsInPlace() throws {
        let body = "rule: { kind: value_argument, regex: '^b$' }\nfix: ''"
        let code = "f(a, // c\n  b)\ng(a, /* c */ b)\nh(b, /* c */ a)\nk(b)\nm(\n  b, // why\n  a\n)\nn(\n  a, // last\n  b\n)\n"
        #expect(try base.fixed(body, code).text == "f(a // c\n  )\ng(a /* c */)\nh(/* c */ a)\nk()\nm(\n  // why\n  a\n)\nn(\n  a // last\n)\n")
    }
}

/// The third hostile review: operators around captures, the grammar's groupings, and edges of
/// removals and diffs.
@Suite struct PatternRuleThirdReviewTests {
    let base = PatternRuleTests()

    @Test func aMatchInsideAMisreadChainOrUnderAPrefixIsLeft() throws {
        let or = try base.fixed("rule: { pattern: '$A || $B' }\nfix: '[$A, $B].contains(true)'", "let canView = isAdmin && isOwner || isPublic\n")
        #expect(or.text == "let canView = isAdmin && isOwner || isPublic\n")
        let negative = try base.fixed("rule: { pattern: '-$A' }\nfix: '0 - $A'", "let v = -a + b\n")
        #expect(negative.text == "let v = -a + b\n")
        #expect(negative.refusals.contains { $0.contains("against Swift's operator precedence") })
        // A call in such a chain is one piece: nothing to refuse.
        #expect(try base.fixed("rule: { pattern: 'old($A)' }\nfix: 'new($A)'", "let v = old(x) != b && c\n").text == "let v = new(x) != b && c\n")
    }

    @Test(arguments: [
        ("rule: { pattern: 'double($A)' }\nfix: '$A*2'", "let y = double(p + q)\n", "let y = (p + q)*2\n"),
        ("rule: { pattern: 'isInt($A)' }\nfix: '$A is Int'", "let x = isInt(a ?? b)\n", "let x = (a ?? b) is Int\n"),
        ("rule: { pattern: 'not($A)' }\nfix: '!$A'", "let x = not(a <> b)\n", "let x = !(a <> b)\n"),
        ("rule: { pattern: 'check($A)' }\nfix: '$A ? 1 : 0'", "let x = check(c ? a : b)\n", "let x = (c ? a : b) ? 1 : 0\n"),
        ("rule: { pattern: 'forceUnwrap($A)' }\nfix: '$A!'", "print(forceUnwrap(user?.age))\n", "print((user?.age)!)\n"),
        ("rule: { pattern: 'run($A)' }\nfix: '$A()'", "func f() {\n    _ = prepare()\n    run({ print(1) })\n}\n", "func f() {\n    _ = prepare()\n    ({ print(1) })()\n}\n"),
        ("rule: { pattern: '$A == false' }\nfix: '!$A'", "if !flag == false { }\n", "if !(!flag) { }\n"),
        ("rule: { pattern: 'same($A)' }\nfix: '$A ?? x'", "let v = same(a ?? b)\n", "let v = (a ?? b) ?? x\n"),
    ])
    func capturesAreParenthesisedBesideEveryOperator(body: String, code: String, expected: String) throws {
        #expect(try base.fixed(body, code).text == expected)
    }

    @Test func aTrailingClosureIsNotHandedToACallWrappingAnother() throws {
        let result = try base.fixed("rule: { pattern: 'fetch($A)' }\nfix: 'wrap(load($A))'", "fetch(url) { data in handle(data) }\n")
        #expect(result.text == "fetch(url) { data in handle(data) }\n")
    }

    @Test func aTaggedValueIsALoadError() {
        #expect(base.loadError("rule: { pattern: 'done($A)' }\nfix: !$A").contains("as a tag, not as text"))
    }

    @Test func aDirectiveInsideACapturedBodyIsCopiedAsItIs() throws {
        let code = "var body: some View {\n    NavigationView {\n        List(items) { Text($0) }\n        #if os(iOS)\n            .listStyle(.plain)\n        #endif\n    }\n}\n"
        let result = try base.fixed("rule: { pattern: 'NavigationView { $$$B }' }\nfix: 'NavigationStack { $$$B }'", code)
        #expect(result.text.contains("NavigationStack {") && result.refusals.isEmpty, "\(result.refusals)")
    }

    @Test func anEmptyFixOnAnArgumentsValueRemovesTheArgument() throws {
        let result = try base.fixed("rule: { pattern: 'legacyArg()' }\nfix: ''", "f(x, legacyArg(), y)\nlet a = [x, legacyArg(), y]\n")
        #expect(result.text == "f(x, y)\nlet a = [x, y]\n")
    }

    @Test func expandEndStaysAmongTheMatchsSiblings() throws {
        let body = "rule: { pattern: 'legacyLog($A)' }\nfix: { template: 'log($A)', expandEnd: { kind: comment } }"
        #expect(try base.fixed(body, "let ok = legacyLog(\"b\") // keep this note\n").text == "let ok = log(\"b\") // keep this note\n")
    }

    @Test func aMultiLineStringOfTheTemplateKeepsItsSpacesInAFileIndentedWithTabs() throws {
        let body = "rule: { pattern: 'banner()' }\nfix: |-\n  show(\"\"\"\n          Hello\n      \"\"\")"
        let result = try base.fixed(body, "func f() {\n\tbanner()\n}\n").text
        // The string's content is `    Hello` (four spaces beyond the closing delimiter), as written.
        #expect(result == "func f() {\n\tshow(\"\"\"\n\t        Hello\n\t    \"\"\")\n}\n", "\(result.debugDescription)")
    }

    @Test func aDiffOfAFileWithAByteOrderMarkPutsTheMarkOnceAtTheStart() throws {
        let source = try SourceText(utf8: [0xEF, 0xBB, 0xBF] + Array("if a {\n    b()\n}\n".utf8))
        let edits = try EditSet([Edit(range: 0..<0, replacement: "log(\"start\")\n")], in: source)
        let diff = UnifiedDiff().render(path: "t.swift", source: source, edits: edits)
        #expect(diff.components(separatedBy: "\u{FEFF}").count == 3, "\(diff)")   // once removed, once added
        #expect(diff.contains("-\u{FEFF}if a {\n+\u{FEFF}log(\"start\")\n+if a {\n"), "\(diff)")
    }
}
