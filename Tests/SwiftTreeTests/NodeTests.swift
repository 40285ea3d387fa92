import Testing
@testable import SwiftTree

@Suite struct NodeTests {
    let source = """
    import UIKit

    final class ViewController: UIViewController {
        @IBOutlet private weak var label: UILabel!
        func greet(name: String) -> String { "Hello, \\(name)" }
    }

    """

    @Test func rootAndChildren() throws {
        let tree = Parser().parse(source)
        let root = tree.root
        #expect(root.kind == "source_file")
        #expect(root.parent == nil)
        #expect(root.namedChildren.map(\.kind) == ["import_declaration", "class_declaration"])
        #expect(!tree.hasErrors)
    }

    @Test func fieldsAndParents() throws {
        let tree = Parser().parse(source)
        let classDecl = try #require(tree.root.namedChildren.last)
        let name = try #require(classDecl.child(field: "name"))
        #expect(name.kind == "type_identifier")
        #expect(name.text == "ViewController")
        #expect(name.fieldName == "name")
        #expect(name.parent == classDecl)
        #expect(classDecl.child(field: "no_such_field") == nil)
        let body = try #require(classDecl.child(field: "body"))
        #expect(body.kind == "class_body")
        #expect(body.ancestors.map(\.kind) == ["class_declaration", "source_file"])
    }

    @Test func positionsAreOneBased() throws {
        let tree = Parser().parse(source)
        let label = try #require(tree.root.descendants.first { $0.kind == "simple_identifier" && $0.text == "label" })
        #expect(label.start.line == 4)
        #expect(label.start.column == 32)
        #expect(label.end.column == 37)
        #expect(label.byteRange.count == 5)
        #expect(tree.source.text(in: label.byteRange) == "label")
    }

    @Test func walkCanSkipSubtrees() throws {
        let tree = Parser().parse(source)
        var visited: [String] = []
        tree.root.walk { node in
            visited.append(node.kind)
            return node.kind != "class_declaration"
        }
        #expect(visited.contains("import_declaration"))
        #expect(visited.contains("class_declaration"))
        #expect(!visited.contains("class_body"))
        #expect(tree.root.descendants.count > visited.count)
    }

    @Test func siblingsAndAnonymousTokens() throws {
        let tree = Parser().parse("let x = 1\n")
        let declaration = try #require(tree.root.namedChildren.first)
        let tokens = declaration.descendants.filter { !$0.isNamed }.map(\.kind)
        #expect(tokens.contains("="))
        #expect(tokens.contains("let"))
        let pattern = try #require(declaration.child(field: "name"))
        #expect(pattern.nextSibling?.kind == "=")
        #expect(pattern.nextSibling?.previousSibling == pattern)
    }

    @Test func descendantSpanningRange() throws {
        let tree = Parser().parse("let answer = 42\n")
        let node = try #require(tree.root.descendant(spanning: 13..<15))
        #expect(node.kind == "integer_literal")
        #expect(node.text == "42")
    }

    @Test func nodesAreHashable() throws {
        let tree = Parser().parse(source)
        let all = tree.root.descendants
        #expect(Set(all).count == all.count)
        let other = Parser().parse(source)
        #expect(other.root != tree.root)
    }

    @Test func grammarFacts() {
        #expect(SwiftLanguage.abiVersion == 15)
        #expect(SwiftLanguage.nodeKinds.contains("guard_statement"))
        #expect(SwiftLanguage.fieldNames.contains("bound_identifier"))
    }

    @Test func printerMarksFieldsErrorsAndMissing() {
        let tree = Parser().parse("func f() {\n    let x = (1 +\n}\n")
        let printed = TreePrinter().render(tree)
        #expect(printed.hasPrefix("(source_file 1:1-"))
        #expect(printed.contains("name: (simple_identifier 1:6-1:7 \"f\")"))
        #expect(printed.contains("(ERROR") || printed.contains("(MISSING"))
        let full = TreePrinter(includeAnonymous: true).render(Parser().parse("let x = 1\n"))
        #expect(full.contains("\"=\" 1:7-1:8"))
    }
}
