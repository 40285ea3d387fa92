@testable import SwiftTree
import CTreeSitter
import Testing

/// The navigation index must answer exactly as tree-sitter does, and deep trees must print.
@Suite struct TreeIndexTests {
    static let source = """
    import UIKit
    /// Doc.
    final class A<T>: B, C where T: D {
        @IBOutlet weak var label: UILabel!
        func f(_ x: Int, y: [String: Int]) -> Int? {
            guard let `self` = self else { return nil }
            #if DEBUG
            let (a, b) = (1, 2)
            #endif
            return x.map { $0 + a } ?? .none
        }
        let e = ( )
        broken(( { in
    }

    """

    @Test func indexAnswersAsTreeSitter() throws {
        let tree = Parser().parse(Self.source)
        let index = TreeIndex(root: tree.root.raw)
        // Enough navigation for `Node` to use the tree's own index.
        for _ in 0...SyntaxTree.navigationsBeforeIndexing { _ = tree.root.parent }
        for node in tree.root.descendants {
            let parent = index.parent(of: node.raw)
            #expect(parent != nil)
            #expect(parent!.map { Node(raw: $0, tree: tree) } == Node(ts_node_parent(node.raw), in: tree))
            // Through `Node`, which asks tree-sitter about zero-width (MISSING) neighbours.
            #expect(node.nextSibling == Node(ts_node_next_sibling(node.raw), in: tree))
            #expect(node.previousSibling == Node(ts_node_prev_sibling(node.raw), in: tree))
            let expected = Node(ts_node_parent(node.raw), in: tree)?.fieldedChildren.first { $0.node == node }?.field
            #expect(index.fieldName(of: node.raw)! == expected)
        }
    }

    @Test func deepNestingPrintsWithoutRecursion() throws {
        let depth = 30_000
        let tree = Parser().parse("let v = " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "\n")
        let printed = TreePrinter().render(tree)
        #expect(printed.contains("[depth "))
        // Indentation is capped, so the output stays linear in the tree's size.
        #expect(printed.utf8.count < 400 * depth)
        #expect(!tree.root.descendants.last!.ancestors.isEmpty)
    }
}
