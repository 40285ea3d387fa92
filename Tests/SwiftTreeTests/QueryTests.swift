import Testing
@testable import SwiftTree

@Suite struct QueryTests {
    let source = """
    class A {
        @IBOutlet weak var label: UILabel!
        @IBOutlet weak var optionalLabel: UILabel?
        weak var delegate: Delegate?
        var title = "self"
    }

    """

    @Test func capturesByName() throws {
        let tree = Parser().parse(source)
        let query = try Query("(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @decl")
        let matches = try query.matches(in: tree)
        #expect(matches.map { $0["name"]?.text } == ["label", "optionalLabel", "delegate", "title"])
        #expect(matches.allSatisfy { $0["decl"]?.kind == "property_declaration" })
        #expect(query.captureNames == ["name", "decl"])
    }

    @Test func eqAndNotEq() throws {
        let tree = Parser().parse(source)
        let eq = try Query("((simple_identifier) @id (#eq? @id \"label\"))")
        #expect(try eq.matches(in: tree).count == 1)
        let notEq = try Query("((pattern bound_identifier: (simple_identifier) @id) (#not-eq? @id \"label\"))")
        #expect(try notEq.matches(in: tree).compactMap { $0["id"]?.text } == ["optionalLabel", "delegate", "title"])
    }

    @Test func eqBetweenCaptures() throws {
        let tree = Parser().parse("let a = a\nlet b = c\n")
        let query = try Query("""
        (property_declaration name: (pattern bound_identifier: (simple_identifier) @left)
                              value: (simple_identifier) @right (#eq? @left @right))
        """)
        #expect(try query.matches(in: tree).map { $0["left"]?.text } == ["a"])
    }

    @Test func matchAndAnyOf() throws {
        let tree = Parser().parse(source)
        let match = try Query("((type_identifier) @type (#match? @type \"^UI[A-Z]\"))")
        #expect(try match.matches(in: tree).map { $0["type"]!.text } == ["UILabel", "UILabel"])
        let notMatch = try Query("((type_identifier) @type (#not-match? @type \"^UI\"))")
        #expect(try notMatch.matches(in: tree).map { $0["type"]!.text } == ["A", "IBOutlet", "IBOutlet", "Delegate"])
        let anyOf = try Query("((simple_identifier) @id (#any-of? @id \"label\" \"title\"))")
        #expect(try anyOf.matches(in: tree).map { $0["id"]!.text } == ["label", "title"])
        let notAnyOf = try Query("((pattern (simple_identifier) @id) (#not-any-of? @id \"label\" \"title\"))")
        #expect(try notAnyOf.matches(in: tree).map { $0["id"]!.text } == ["optionalLabel", "delegate"])
    }

    @Test func multiNodeCapturesWithAnyPredicates() throws {
        let tree = Parser().parse("f(a, b)\nf(a, a)\nf(c, d)\n")
        // One capture name on two nodes: each match of a two-argument call holds both arguments.
        let pattern = "(value_arguments (value_argument (simple_identifier) @arg) (value_argument (simple_identifier) @arg))"
        let all = try Query("(\(pattern) (#eq? @arg \"a\"))")
        #expect(try all.matches(in: tree).map { $0["arg"]!.start.line } == [2])
        let any = try Query("(\(pattern) (#any-eq? @arg \"a\"))")
        #expect(try any.matches(in: tree).map { $0["arg"]!.start.line } == [1, 2])
        let anyNot = try Query("(\(pattern) (#any-not-eq? @arg \"a\"))")
        #expect(try anyNot.matches(in: tree).map { $0["arg"]!.start.line } == [1, 3])
    }

    @Test func stringsAndCommentsAreNotCode() throws {
        let tree = Parser().parse("// weak var x\nlet s = \"weak var y\"\n")
        let query = try Query("(ownership_modifier) @weak")
        #expect(try query.matches(in: tree).isEmpty)
    }

    @Test func matchesUnderANode() throws {
        let tree = Parser().parse("func a() { x() }\nfunc b() { y() }\n")
        let second = tree.root.namedChildren[1]
        let query = try Query("(call_expression (simple_identifier) @callee)")
        #expect(try query.matches(in: tree, under: second).map { $0["callee"]!.text } == ["y"])
    }

    @Test func errorsNameThePosition() {
        #expect(throws: Query.Error.self) { try Query("(no_such_node) @x") }
        do {
            _ = try Query("(class_declaration\n  nonsense: (type_identifier))")
            Issue.record("expected an error")
        } catch let error as Query.Error {
            #expect(error.kind == "invalid field name")
            #expect(error.line == 2)
            #expect(error.column == 3)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: Query.Error.self) { try Query("((simple_identifier) @x (#frobnicate? @x \"a\"))") }
        #expect(throws: Query.Error.self) { try Query("((simple_identifier) @x (#match? @x \"(\"))") }
        #expect(throws: Query.Error.self) { try Query("((simple_identifier) @x") }
    }
}
