@testable import CodemodKit
import SwiftTree
import Testing
import Workspace

/// ast-grep rule files as codemods (issue 24): every rule key and transformation, with the Swift
/// shapes that trip pattern matchers.
@Suite struct PatternRuleTests {
    func codemod(_ yaml: String) throws -> Codemod {
        try Codemod(DefinitionLoader().load(yaml: yaml, origin: "rule.yml"))
    }

    /// A rule file for Swift with the given body (rule, fix, ...).
    func rule(_ body: String, id: String = "r") -> String {
        "id: \(id)\nlanguage: swift\n\(body)\n"
    }

    /// The texts of the uses the rule finds in the code.
    func found(_ body: String, in code: String) throws -> [String] {
        let tree = Parser().parse(code)
        return try codemod(rule(body)).uses(in: tree).map(\.text)
    }

    /// The code after the rule's fix, and the notes of sites left alone.
    func fixed(_ body: String, _ code: String) throws -> (text: String, refusals: [String]) {
        let tree = Parser().parse(code)
        let transformation = try codemod(rule(body)).transform(tree)
        let edits = try EditSet(transformation.edits, in: tree.source)
        return (String(decoding: edits.apply(to: tree.source), as: UTF8.self), transformation.refusals.map(\.message))
    }

    func loadError(_ body: String) -> String {
        do {
            _ = try codemod(rule(body))
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    // MARK: Patterns and metavariables

    @Test func aPatternWithMetavariablesFindsAndFixes() throws {
        let code = "func t() {\n    XCTAssertEqual(count, true)\n    XCTAssertEqual(count, 3)\n}\n"
        #expect(try found("rule: { pattern: 'XCTAssertEqual($A, true)' }", in: code) == ["XCTAssertEqual(count, true)"])
        #expect(try fixed("rule: { pattern: 'XCTAssertEqual($A, true)' }\nfix: XCTAssertTrue($A)", code).text
            == "func t() {\n    XCTAssertTrue(count)\n    XCTAssertEqual(count, 3)\n}\n")
    }

    @Test func swiftDollarNamesAreCodeNotMetavariables() throws {
        let code = "let a = xs.map { $0 + 1 }\nlet b = xs.map { $1 + 1 }\nlet c = $viewModel\n"
        #expect(try found("rule: { pattern: '$0 + 1' }", in: code) == ["$0 + 1"])
        #expect(try found("rule: { pattern: '$viewModel' }", in: code) == ["$viewModel"])
        // $A is a metavariable and matches any expression.
        #expect(try found("rule: { pattern: '$A + 1' }", in: code) == ["$0 + 1", "$1 + 1"])
    }

    @Test func ellipsisMetavariablesMatchZeroOrMoreLazily() throws {
        let code = "f()\nf(a)\nf(a, b, c)\n"
        #expect(try found("rule: { pattern: 'f($$$)' }", in: code) == ["f()", "f(a)", "f(a, b, c)"])
        #expect(try found("rule: { pattern: 'f($$$A, c)' }", in: code) == ["f(a, b, c)"])
        #expect(try fixed("rule: { pattern: 'f($$$ARGS)' }\nfix: g($$$ARGS)", code).text == "g()\ng(a)\ng(a, b, c)\n")
    }

    @Test func aNameUsedTwiceMustMatchTheSameCode() throws {
        let code = "let a = x == x\nlet b = x == y\nlet c = f(1) == f(1)\n"
        #expect(try found("rule: { pattern: '$A == $A' }", in: code) == ["x == x", "f(1) == f(1)"])
    }

    @Test func underscoreMetavariablesDoNotCapture() throws {
        let code = "a.load(x, y)\n"
        #expect(try found("rule: { pattern: '$_.load($_, $_)' }", in: code) == ["a.load(x, y)"])
    }

    @Test func contextAndSelectorPickTheNodeToMatch() throws {
        let code = "class A {\n    func viewDidLoad() { super.viewDidLoad() }\n    func other() {}\n}\n"
        let body = "rule:\n  pattern:\n    context: 'class X { func viewDidLoad() { $$$BODY } }'\n    selector: function_declaration"
        #expect(try found(body, in: code) == ["func viewDidLoad() { super.viewDidLoad() }"])
    }

    @Test func literalsAndKeywordsMatchOnlyThemselvesAtEveryStrictness() throws {
        let code = "XCTAssertEqual(v, false)\nXCTAssertEqual(v, true)\nlet a = try? g()\nlet b = try! g()\nlet c = try g()\n"
        for level in Strictness.allCases {
            let body = "rule:\n  pattern: { context: 'XCTAssertEqual($A, true)', strictness: \(level.rawValue) }"
            #expect(try found(body, in: code) == ["XCTAssertEqual(v, true)"], "strictness \(level)")
        }
        #expect(try found("rule: { pattern: 'try g()' }", in: code) == ["try g()"])
        #expect(try found("rule: { pattern: 'try? g()' }", in: code) == ["try? g()"])
    }

    @Test func strictnessDecidesWhetherCommentsAndNamesCount() throws {
        // As ast-grep 0.51 measures: a comment is skipped where a token or a metavariable is
        // expected (not where a whole node is), except at `ast` and `cst`.
        let code = "foo(a, /* note */ b)\nfoo(a, b /* note */)\nbar(a, b)\n"
        #expect(try found("rule: { pattern: 'foo($A, $B)' }", in: code) == ["foo(a, /* note */ b)", "foo(a, b /* note */)"])
        #expect(try found("rule: { pattern: 'foo(a, b)' }", in: code) == ["foo(a, b /* note */)"])
        #expect(try found("rule:\n  pattern: { context: 'foo($A, $B)', strictness: ast }", in: code).isEmpty)
        #expect(try found("rule:\n  pattern: { context: 'foo($A, $B)', strictness: signature }", in: code) == ["foo(a, /* note */ b)", "foo(a, b /* note */)", "bar(a, b)"])
        #expect(try found("rule:\n  pattern: { context: 'foo(a, b)', strictness: cst }", in: code).isEmpty)
    }

    // MARK: Atomic rules

    @Test func kindRegexNthChildAndRange() throws {
        let code = "let a = [1, 2, 3, 4]\nlet name = \"x\"\n"
        #expect(try found("rule: { kind: integer_literal, nthChild: 2 }", in: code) == ["2"])
        #expect(try found("rule: { kind: integer_literal, nthChild: '2n+1' }", in: code) == ["1", "3"])
        #expect(try found("rule: { kind: integer_literal, nthChild: { position: 1, reverse: true } }", in: code) == ["4"])
        #expect(try found("rule: { kind: integer_literal, nthChild: { position: 2, ofRule: { regex: '[34]' } } }", in: code) == ["4"])
        #expect(try found("rule: { kind: simple_identifier, regex: '^na' }", in: code) == ["name"])
        #expect(try found("rule: { range: { start: { line: 1, column: 4 }, end: { line: 1, column: 8 } } }", in: code) == ["name"])
    }

    @Test func rangeColumnsCountCharactersAsAstGrepsCodeDoes() throws {
        let code = "let s = \"🦄\"; let t = 1\n"
        // 🦄 is one character: `t` starts at column 17 (0-based), not at its UTF-8 byte 20.
        #expect(try found("rule: { kind: simple_identifier, range: { start: { line: 0, column: 17 }, end: { line: 0, column: 18 } } }", in: code) == ["t"])
        #expect(try found("rule: { kind: simple_identifier, range: { start: { line: 0, column: 20 }, end: { line: 0, column: 21 } } }", in: code).isEmpty)
    }

    // MARK: Relational and composite rules

    @Test func insideAndHasWithStopByAndField() throws {
        let code = """
        func debugDump() { print("a") }
        func run() {
            items.forEach { print($0) }
            print("b")
        }
        """
        #expect(try found("rule:\n  pattern: print($$$)\n  inside: { kind: function_declaration, regex: '^func debug', stopBy: end }", in: code) == ["print(\"a\")"])
        #expect(try found("rule:\n  pattern: print($$$)\n  not: { inside: { kind: lambda_literal, stopBy: end } }", in: code) == ["print(\"a\")", "print(\"b\")"])
        #expect(try found("rule:\n  kind: function_declaration\n  has: { field: name, regex: '^run$' }", in: code).count == 1)
        #expect(try found("rule:\n  kind: function_declaration\n  has: { pattern: 'print(\"b\")', stopBy: end }", in: code).count == 1)
        #expect(try found("rule:\n  kind: function_declaration\n  has: { pattern: 'print(\"b\")' }", in: code).isEmpty)
        // stopBy a rule: looking up stops at the closure, which is still looked at.
        #expect(try found("rule:\n  pattern: print($$$)\n  inside: { kind: function_declaration, stopBy: { kind: lambda_literal } }", in: code)
            == ["print(\"a\")", "print(\"b\")"])
    }

    @Test func precedesAndFollows() throws {
        let code = "func f() {\n    let a = 1\n    use(a)\n    let b = 2\n}\n"
        #expect(try found("rule:\n  kind: property_declaration\n  precedes: { pattern: use($$$) }", in: code) == ["let a = 1"])
        #expect(try found("rule:\n  kind: property_declaration\n  follows: { pattern: use($$$), stopBy: end }", in: code) == ["let b = 2"])
    }

    @Test func allAnyNotAndMatchesWithUtils() throws {
        let body = """
        utils:
          is-assert:
            any:
              - pattern: XCTAssertTrue($$$)
              - pattern: XCTAssertFalse($$$)
        rule:
          all:
            - matches: is-assert
            - not: { has: { regex: skip, stopBy: end } }
        """
        let code = "XCTAssertTrue(a)\nXCTAssertFalse(skip)\nXCTAssertNil(c)\n"
        #expect(try found(body, in: code) == ["XCTAssertTrue(a)"])
    }

    @Test func constraintsFilterSingleMetavariables() throws {
        let body = "rule: { pattern: 'UIColor(named: $NAME)' }\nconstraints:\n  NAME: { regex: '^\"legacy' }"
        #expect(try found(body, in: "UIColor(named: \"legacyRed\")\nUIColor(named: \"brand\")\n") == ["UIColor(named: \"legacyRed\")"])
    }

    @Test func directiveIsAScopeThatFollowsNestingElseifAndElse() throws {
        let code = """
        #if DEBUG
        print("1")
        #if os(iOS)
        print("2")
        #endif
        #elseif TESTING
        print("3")
        #else
        print("4")
        #endif
        #if DEBUG && os(macOS)
        print("5")
        #endif
        print("6")
        """
        #expect(try found("rule:\n  pattern: print($$$)\n  inside: { directive: DEBUG }", in: code) == ["print(\"1\")", "print(\"2\")", "print(\"5\")"])
        #expect(try found("rule:\n  pattern: print($$$)\n  not: { inside: { directive: DEBUG } }", in: code) == ["print(\"3\")", "print(\"4\")", "print(\"6\")"])
        #expect(try found("rule:\n  pattern: print($$$)\n  inside: { directive: '!DEBUG' }", in: code) == ["print(\"3\")", "print(\"4\")"])
    }

    // MARK: Transformations and fixes

    @Test func transformationsInObjectAndStringForm() throws {
        let body = """
        rule: { pattern: 'let $NAME = $V' }
        transform:
          UPPER: { convert: { source: $NAME, toCase: upperCase } }
          SNAKE: convert($NAME, toCase=snakeCase)
          SHORT: { substring: { source: $NAME, startChar: 1, endChar: -1 } }
          SWAPPED: replace($NAME, replace='user', by='account')
        fix: let $SNAKE = [$UPPER, $SHORT, $SWAPPED]
        """
        #expect(try fixed(body, "let userName = 1\n").text == "let user_name = [USERNAME, serNam, accountName]\n")
    }

    @Test func caseConversionsSplitWordsAsAstGrepDoes() {
        let all = Set(RuleTransformation.Separator.allCases)
        #expect(RuleTransformation.convert("HTTPServerError", to: .snakeCase, separators: all) == "http_server_error")
        #expect(RuleTransformation.convert("my-view_model", to: .camelCase, separators: all) == "myViewModel")
        #expect(RuleTransformation.convert("my-view_model", to: .pascalCase, separators: all) == "MyViewModel")
        #expect(RuleTransformation.convert("fooBar", to: .kebabCase, separators: all) == "foo-bar")
        #expect(RuleTransformation.convert("foo_bar", to: .kebabCase, separators: [.dash]) == "foo_bar")
        #expect(RuleTransformation.convert("foo", to: .capitalize, separators: all) == "Foo")
    }

    @Test func rewriteTransformationsApplyRewritersToCapturedCode() throws {
        let body = """
        rewriters:
          - id: to-expect
            rule: { pattern: 'XCTAssert($A)' }
            fix: '#expect($A)'
        rule: { pattern: 'func $NAME() { $$$BODY }' }
        transform:
          NEW: { rewrite: { source: $$$BODY, rewriters: [to-expect], joinBy: '; ' } }
        fix: 'func $NAME() { $NEW }'
        """
        #expect(try fixed(body, "func test() { XCTAssert(a); XCTAssert(b) }\n").text == "func test() { #expect(a); #expect(b) }\n")
    }

    @Test func expandEndDeletesAnArgumentWithItsComma() throws {
        let body = "rule: { kind: value_argument, regex: '^animated' }\nfix: { template: '', expandEnd: { regex: ',' } }"
        #expect(try fixed(body, "show(vc, animated: true)\n").text.hasPrefix("show(vc"))
    }

    @Test func anEmptyFixDeletesListElementsWithTheirSeparators() throws {
        let body = "rule: { kind: value_argument, regex: '^(b|c|second)$' }\nfix: ''"
        #expect(try fixed(body, "call(a, b, c)\ncall(b, a)\n").text == "call(a)\ncall(a)\n")
        #expect(try fixed(body, "call(\n    first,\n    second\n)\n").text == "call(\n    first\n)\n")
    }

    @Test func nestedMatchesAreRewrittenInOneRun() throws {
        let body = "rule: { pattern: 'foo($A)' }\nfix: bar($A)"
        #expect(try fixed(body, "let a = foo(foo(foo(1)))\n").text == "let a = bar(bar(bar(1)))\n")
    }

    @Test func aTrailingClosureThePatternDidNotMentionIsKeptOrTheSiteIsLeft() throws {
        let code = "foo(1) { $0 + 1 }\n"
        // The fix is still a call: the trailing closure stays attached to it.
        #expect(try fixed("rule: { pattern: 'foo($A)' }\nfix: bar($A)", code).text == "bar(1) { $0 + 1 }\n")
        // The fix is not a call: the closure would be lost, so the site is left with a note.
        let dropped = try fixed("rule: { pattern: 'foo($A)' }\nfix: $A", code)
        #expect(dropped.text == code)
        #expect(dropped.refusals.first?.contains("the fix would drop `{ $0 + 1 }`") == true)
    }

    @Test func aCommentTheFixWouldDropLeavesTheSite() throws {
        let body = "rule: { pattern: 'XCTAssertEqual($A, true)' }\nfix: XCTAssertTrue($A)"
        let result = try fixed(body, "XCTAssertEqual(x, true /* keep me */)\nXCTAssertEqual(x /* in A */ + 1, true)\n")
        #expect(result.text == "XCTAssertEqual(x, true /* keep me */)\nXCTAssertTrue(x /* in A */ + 1)\n")
        #expect(result.refusals.count == 1)
        #expect(result.refusals.first?.contains("would drop the comment `/* keep me */`") == true)
    }

    @Test func multiLineCapturesAreReindentedWhereTheyLand() throws {
        let body = """
        rule: { pattern: 'DispatchQueue.main.async { $$$BODY }' }
        fix: |-
          Task { @MainActor in
              $$$BODY
          }
        """
        let code = "func f() {\n    DispatchQueue.main.async {\n        a()\n        b()\n    }\n}\n"
        #expect(try fixed(body, code).text == "func f() {\n    Task { @MainActor in\n        a()\n        b()\n    }\n}\n")
        let tabs = "func f() {\n\tDispatchQueue.main.async {\n\t\ta()\n\t\tb()\n\t}\n}\n"
        #expect(try fixed(body, tabs).text == "func f() {\n\tTask { @MainActor in\n\t\ta()\n\t\tb()\n\t}\n}\n")
    }

    @Test func swiftShapesThatTripPatternMatchers() throws {
        let code = """
        let s = #selector(ViewController.tap(_:))
        let k = \\User.name
        let i = "hello \\(name)"
        let o = user?.profile?.name
        let g = Array<Int>()
        @objc func tap() {}
        let r = try await load(url)
        let emoji = "🎉"; foo(1)
        """
        #expect(try found("rule: { pattern: '#selector($A)' }", in: code) == ["#selector(ViewController.tap(_:))"])
        #expect(try found("rule: { pattern: '\\User.name' }", in: code) == ["\\User.name"])
        #expect(try found("rule: { pattern: '$A?.profile?.name' }", in: code) == ["user?.profile?.name"])
        #expect(try found("rule: { pattern: 'Array<$T>()' }", in: code) == ["Array<Int>()"])
        #expect(try found("rule: { pattern: 'try await load($U)' }", in: code) == ["try await load(url)"])
        #expect(try fixed("rule: { pattern: 'foo($A)' }\nfix: bar($A)", code).text.hasSuffix("let emoji = \"🎉\"; bar(1)"))
        #expect(try found("rule: { kind: attribute, regex: objc }", in: code) == ["@objc"])
    }

    @Test func labelsSeveralTrailingClosuresAndInterpolation() throws {
        let code = """
        fetch(url, completion: done)
        fetch(url, handler: done)
        UIView.animate(withDuration: 0.3) { a() } completion: { _ in b() }
        let s = "hello \\(name)!"
        """
        #expect(try found("rule: { pattern: 'fetch($U, completion: $C)' }", in: code) == ["fetch(url, completion: done)"])
        #expect(try found("rule: { pattern: 'UIView.animate(withDuration: $D) { $$$A } completion: { $$$B }' }", in: code).count == 1)
        #expect(try found("rule: { pattern: '\"hello \\($A)!\"' }", in: code) == ["\"hello \\(name)!\""])
        // A pattern that names the first trailing closure only: the second is not dropped.
        let body = "rule: { pattern: 'UIView.animate(withDuration: $D) { $$$A }' }\nfix: 'UIView.animate(withDuration: $D * 2) { $$$A }'"
        let result = try fixed(body, code)
        #expect(result.text == code)
        #expect(result.refusals.first?.contains("the fix would drop `completion: { _ in b() }`") == true, "\(result.refusals)")
    }

    // MARK: Mistakes caught when the rule is loaded

    @Test func mistakesAreCaughtWhenTheRuleIsLoaded() {
        #expect(loadError("rule: { pattern: 'foo(' }").contains("does not parse as Swift"))
        #expect(loadError("rule: { pattern: 'foo($A)' }\nfix: bar($B)").contains("'$B' is never bound"))
        #expect(loadError("rule: { pattern: 'foo($$$A)' }\nfix: bar($$A)").contains("write $$$A"))
        #expect(loadError("rule: { not: { pattern: 'foo()' } }").contains("no positive key"))
        #expect(loadError("rule: { kind: call_expresion }").contains("closest: call_expression"))
        #expect(loadError("rule: { regex: '(' }").contains("not a valid regular expression"))
        #expect(loadError("rule: { matches: nope }").contains("no utility rule 'nope'"))
        #expect(loadError("rule: { pattern: 'a' }\nconstraints:\n  X: { regex: a }").contains("'$X' is not bound"))
        #expect(loadError("rule: { pattern: 'a', inside: { kind: source_file, field: nope } }").contains("not a field"))
        #expect(loadError("utils:\n  a: { matches: b }\n  b: { matches: a }\nrule: { matches: a }").contains("refers to itself"))
        #expect(loadError("rule: { pattern: 'a', bogus: 1 }").contains("unknown field"))
        let other = (try? DefinitionLoader().load(yaml: "id: r\nlanguage: kotlin\nrule: { pattern: a }\n", origin: "r.yml")).map { _ in "loaded" } ?? "failed"
        #expect(other == "failed")
    }

    @Test func messageNoteAndUrlBecomeSummaryWhyAndDocs() throws {
        let definition = try DefinitionLoader().load(yaml: """
            id: no-keywindow
            language: Swift
            severity: warning
            message: keyWindow is deprecated
            note: Use the scene's window.
            url: https://example.com/keywindow
            metadata: { team: platform }
            rule: { pattern: UIApplication.shared.keyWindow }
            """, origin: "r.yml")
        #expect(definition.summary == "keyWindow is deprecated")
        #expect(definition.why == "Use the scene's window.")
        #expect(definition.docs == "https://example.com/keywindow")
        #expect(!definition.rewrites)
    }
}

/// A file without the texts a rule needs is never parsed for it (issue 24: fast without asking).
@Suite struct PatternRulePrefilterTests {
    func codemod(_ body: String) throws -> Codemod {
        try Codemod(DefinitionLoader().load(yaml: "id: r\nlanguage: swift\n\(body)\n", origin: "r.yml"))
    }

    @Test func theTextsARuleNeedsComeFromItsPatternsRegexesAndRelations() throws {
        #expect(try codemod("rule: { pattern: 'XCTAssertEqual($A, true)' }").requiredLiteral == Array("XCTAssertEqual".utf8))
        let any = try codemod("rule:\n  any: [ { pattern: 'XCTAssertTrue($$$)' }, { pattern: 'XCTAssertFalse($$$)' } ]")
        #expect(any.requiredLiteral == nil)
        #expect(any.mightMatch(Array("XCTAssertFalse(x)".utf8)))
        #expect(!any.mightMatch(Array("XCTAssertNil(x)".utf8)))
        let regex = try codemod("rule: { kind: call_expression, regex: '^print\\(' }")
        #expect(regex.requiredLiteral == Array("print(".utf8))
        // What a neighbour needs must be in the file, but is not in each match: no use count.
        let inside = try codemod("rule:\n  kind: call_expression\n  inside: { pattern: 'DispatchQueue.main.async { $$$ }', stopBy: end }")
        #expect(inside.requiredLiteral == nil)
        #expect(!inside.mightMatch(Array("foo()".utf8)))
        #expect(inside.mightMatch(Array("DispatchQueue.main.async { foo() }".utf8)))
        // Nothing known: every file is parsed.
        #expect(try codemod("rule: { kind: call_expression }").mightMatch(Array("x".utf8)))
        #expect(try codemod("rule: { kind: call_expression, not: { regex: 'print' } }").mightMatch(Array("x".utf8)))
    }

    @Test func aRegexGivesTheTextEveryMatchHoldsOrNothing() {
        #expect(RegexLiteral.required(in: "^print\\(") == "print(")
        #expect(RegexLiteral.required(in: "legacyColor[A-Z]\\w*") == "legacyColor")
        #expect(RegexLiteral.required(in: "colou?rName") == "rName")
        #expect(RegexLiteral.required(in: "foo|bar") == nil)
        #expect(RegexLiteral.required(in: "(?i)print") == nil)
        #expect(RegexLiteral.required(in: "(abc)?def") == "def")
        #expect(RegexLiteral.required(in: "a.b") == nil)
        #expect(RegexLiteral.required(in: "x{0,3}yz") == nil)
    }

    @Test func escapesAndNestedClassesNeverLendTheirCharactersToTheRequiredText() {
        // Each of these matches text that lacks the characters written after the escape or
        // inside the class: a required text taken from them would hide uses from `check`.
        #expect(RegexLiteral.required(in: "\\x41BCD") == nil)            // matches "ABCD"
        #expect(RegexLiteral.required(in: "\\u{2603}snow") == "snow")
        #expect(RegexLiteral.required(in: "\\101bcd") == nil)            // octal
        #expect(RegexLiteral.required(in: "\\p{Lu}abc") == "abc")
        #expect(RegexLiteral.required(in: "[[q]xyz]+") == nil)          // a nested class
        #expect(RegexLiteral.required(in: "[^]abc]+def") == "def")
        #expect(RegexLiteral.required(in: "[a[bcd]e]legacy") == "legacy")
    }
}

/// Fixes found by trying the documented examples (issue 24's review).
@Suite struct PatternRuleFixDetailTests {
    func fixed(_ body: String, _ code: String) throws -> (text: String, refusals: [String], edits: [Edit]) {
        let codemod = try Codemod(DefinitionLoader().load(yaml: "id: r\nlanguage: swift\n\(body)\n", origin: "r.yml"))
        let tree = Parser().parse(code)
        let transformation = try codemod.transform(tree)
        let edits = try EditSet(transformation.edits, in: tree.source)
        return (String(decoding: edits.apply(to: tree.source), as: UTF8.self), transformation.refusals.map(\.message), edits.edits)
    }

    @Test func aMultiLineRewriteResultIsIndentedOnce() throws {
        let body = """
        rewriters:
          - id: to-expect
            rule: { pattern: 'XCTAssert($A)' }
            fix: '#expect($A)'
        rule: { pattern: 'func $NAME() { $$$BODY }' }
        transform:
          NEW: { rewrite: { source: $$$BODY, rewriters: [to-expect] } }
        fix: |-
          @Test func $NAME() {
              $NEW
          }
        """
        let code = "final class T {\n    func test() {\n        XCTAssert(a)\n        XCTAssert(b)\n    }\n}\n"
        #expect(try fixed(body, code).text == "final class T {\n    @Test func test() {\n        #expect(a)\n        #expect(b)\n    }\n}\n")
    }

    @Test func whatExpandStartTakesInGoesCommentsIncluded() throws {
        let body = "rule: { pattern: 'UserDefaults.standard.synchronize()' }\nfix: { template: '', expandStart: { kind: comment } }"
        let result = try fixed(body, "func save() {\n    // Write it out now.\n    UserDefaults.standard.synchronize()\n    done()\n}\n")
        #expect(result.refusals.isEmpty)
        #expect(result.text == "func save() {\n    done()\n}\n")
    }

    @Test func aRemovedStatementTakesItsSemicolon() throws {
        let body = "rule: { pattern: 'UserDefaults.standard.synchronize()' }\nfix: ''"
        #expect(try fixed(body, "a(); UserDefaults.standard.synchronize(); b()\n").text == "a(); b()\n")
    }

    @Test func aHasRuleDoesNotMoveWhereTheMatchEnds() throws {
        let body = "rule:\n  pattern: $L + $R\n  has: { pattern: 'f()' }\nfix: add($L, $R)"
        #expect(try fixed(body, "let v = f() + 2\n").text == "let v = add(f(), 2)\n")
        #expect(try fixed("rule: { kind: call_expression, has: { pattern: oldName } }\nfix: newName()", "let a = oldName(1)\n").text == "let a = newName()\n")
    }

    @Test func aNullFixIsNoFix() throws {
        let result = try fixed("rule: { pattern: 'foo($A)' }\nfix:", "foo(1)\n")
        #expect(result.text == "foo(1)\n")
    }

    @Test func aConstraintOnAListIsALoadError() {
        let error = (try? DefinitionLoader().load(yaml: "id: r\nlanguage: swift\nrule: { pattern: 'f($$$A)' }\nconstraints:\n  A: { regex: x }\n", origin: "r.yml")) == nil
        #expect(error)
    }

    @Test func aMultiLineFixChangesOnlyTheLinesItChanges() throws {
        let body = "rule: { pattern: 'DispatchQueue.main.async { $$$BODY }' }\nfix: |-\n  Task { @MainActor in\n      $$$BODY\n  }"
        let result = try fixed(body, "func f() {\n    DispatchQueue.main.async {\n        a()\n        b()\n    }\n}\n")
        #expect(result.text == "func f() {\n    Task { @MainActor in\n        a()\n        b()\n    }\n}\n")
        // One edit, of the first line only: the body and the brace stay as they were.
        #expect(result.edits.count == 1)
        #expect(result.edits.first?.replacement == "Task { @MainActor in")
    }
}
