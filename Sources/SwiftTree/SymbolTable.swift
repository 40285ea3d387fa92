import CTreeSitter

/// The nodes of a tree in source order, with where each grammar symbol occurs (see
/// `SyntaxTree.nodesInOrder`).
public final class SymbolTable {
    private unowned let tree: SyntaxTree
    private var raw: [TSNode] = []
    /// By symbol: the positions in `raw` of its nodes, ascending.
    private var positions: [[Int32]] = []

    /// - Parameter nodes: every node of the tree, in source order.
    init(tree: SyntaxTree, nodes: [TSNode]) {
        self.tree = tree
        raw = nodes
        for (position, node) in nodes.enumerated() {
            let symbol = Int(ts_node_symbol(node))
            if symbol >= positions.count { positions += Array(repeating: [], count: symbol - positions.count + 1) }
            positions[symbol].append(Int32(position))
        }
    }

    /// How many nodes the tree has.
    public var count: Int { raw.count }

    /// Every node, in source order.
    public func forEach(_ visit: (Node) throws -> Void) rethrows {
        for node in raw { try visit(Node(raw: node, tree: tree)) }
    }

    /// The nodes whose symbol is selected by a table (indexed by symbol), in source order.
    public func forEach(symbolsIn table: [Bool], _ visit: (Node) throws -> Void) rethrows {
        var chosen: [Int32] = []
        for symbol in 0..<min(table.count, positions.count) where table[symbol] { chosen += positions[symbol] }
        chosen.sort()
        for position in chosen { try visit(Node(raw: raw[Int(position)], tree: tree)) }
    }
}
