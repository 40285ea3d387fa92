import CTreeSitter

/// A node of a syntax tree. Nodes are cheap values; each keeps its tree alive.
public struct Node: Hashable, CustomStringConvertible {
    let raw: TSNode
    /// The tree this node belongs to.
    public let tree: SyntaxTree

    init(raw: TSNode, tree: SyntaxTree) {
        self.raw = raw
        self.tree = tree
    }

    init?(_ raw: TSNode, in tree: SyntaxTree) {
        guard !ts_node_is_null(raw) else { return nil }
        self.init(raw: raw, tree: tree)
    }

    // MARK: Identity

    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs.tree === rhs.tree && ts_node_eq(lhs.raw, rhs.raw)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(tree))
        hasher.combine(Int(bitPattern: raw.id))
        hasher.combine(raw.context.0)
    }

    // MARK: Kind

    /// The grammar symbol, e.g. `class_declaration`, `simple_identifier`, or `"guard"` for tokens.
    public var kind: String { String(cString: ts_node_type(raw)) }

    /// Whether the node is a named grammar rule (as opposed to an anonymous token like `{`).
    public var isNamed: Bool { ts_node_is_named(raw) }

    /// Whether this node is an `ERROR` node.
    public var isError: Bool { ts_node_is_error(raw) }

    /// Whether the parser inserted this node to recover from an error (zero width).
    public var isMissing: Bool { ts_node_is_missing(raw) }

    /// Whether this node or any descendant is an error or missing node.
    public var hasError: Bool { ts_node_has_error(raw) }

    // MARK: Position

    /// The byte range in the source text.
    public var byteRange: Range<Int> { Int(ts_node_start_byte(raw))..<Int(ts_node_end_byte(raw)) }

    /// Where the node starts.
    public var start: SourceLocation { tree.source.location(ofByte: byteRange.lowerBound) }

    /// Where the node ends (the position just after its last byte).
    public var end: SourceLocation { tree.source.location(ofByte: byteRange.upperBound) }

    /// The node's source text.
    public var text: String { tree.source.text(in: byteRange) }

    // MARK: Navigation

    /// The parent, or nil for the root.
    public var parent: Node? {
        if let known = tree.navigationIndex()?.parent(of: raw) { return known.map { Node(raw: $0, tree: tree) } }
        return Node(ts_node_parent(raw), in: tree)
    }

    /// The number of children, named and anonymous.
    public var childCount: Int { Int(ts_node_child_count(raw)) }

    /// The child at an index, counting named and anonymous children.
    public func child(at index: Int) -> Node? {
        guard index >= 0, index < childCount else { return nil }
        return Node(ts_node_child(raw, UInt32(index)), in: tree)
    }

    /// All children, named and anonymous, in source order.
    public var children: [Node] {
        let count = childCount
        guard count > 0 else { return [] }
        var result: [Node] = []
        result.reserveCapacity(count)
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        guard ts_tree_cursor_goto_first_child(&cursor) else { return [] }
        repeat {
            result.append(Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree))
        } while ts_tree_cursor_goto_next_sibling(&cursor)
        return result
    }

    /// The named children, in source order.
    public var namedChildren: [Node] { children.filter(\.isNamed) }

    /// The first child of some kinds (by their symbols), without making the list of children.
    public func firstChild(in symbols: SymbolSet) -> Node? {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        guard ts_tree_cursor_goto_first_child(&cursor) else { return nil }
        repeat {
            let child = ts_tree_cursor_current_node(&cursor)
            if symbols.contains(ts_node_symbol(child)) { return Node(raw: child, tree: tree) }
        } while ts_tree_cursor_goto_next_sibling(&cursor)
        return nil
    }

    /// The children with their field names (nil where the grammar names no field).
    public var fieldedChildren: [(field: String?, node: Node)] {
        guard childCount > 0 else { return [] }
        var result: [(String?, Node)] = []
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        guard ts_tree_cursor_goto_first_child(&cursor) else { return [] }
        repeat {
            let field = ts_tree_cursor_current_field_name(&cursor).map { String(cString: $0) }
            result.append((field, Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree)))
        } while ts_tree_cursor_goto_next_sibling(&cursor)
        return result
    }

    /// The first child under a field name, e.g. `name` of a `class_declaration`.
    public func child(field: String) -> Node? {
        field.withCString { name in
            Node(ts_node_child_by_field_name(raw, name, UInt32(field.utf8.count)), in: tree)
        }
    }

    /// The first child under a field, by its id (`SwiftLanguage.fieldID(_:)`): for loops over
    /// many nodes, where looking the name up each time costs.
    public func child(fieldID: UInt16) -> Node? {
        Node(ts_node_child_by_field_id(raw, fieldID), in: tree)
    }

    /// Every child under a field name.
    public func children(field: String) -> [Node] {
        fieldedChildren.filter { $0.field == field }.map(\.node)
    }

    /// The field name under which this node sits in its parent, if any.
    public var fieldName: String? {
        if let known = tree.navigationIndex()?.fieldName(of: raw) { return known }
        guard let parent else { return nil }
        return parent.fieldedChildren.first { $0.node == self }?.field
    }

    /// The next sibling, named or anonymous.
    public var nextSibling: Node? {
        if let known = tree.navigationIndex()?.nextSibling(of: raw), !isZeroWidth(raw), known.map(isZeroWidth) != true {
            return known.map { Node(raw: $0, tree: tree) }
        }
        // Zero-width neighbours (MISSING nodes) are placed by tree-sitter's own rules.
        return Node(ts_node_next_sibling(raw), in: tree)
    }

    /// The previous sibling, named or anonymous.
    public var previousSibling: Node? {
        if let known = tree.navigationIndex()?.previousSibling(of: raw), !isZeroWidth(raw), known.map(isZeroWidth) != true {
            return known.map { Node(raw: $0, tree: tree) }
        }
        return Node(ts_node_prev_sibling(raw), in: tree)
    }

    private func isZeroWidth(_ node: TSNode) -> Bool { ts_node_start_byte(node) == ts_node_end_byte(node) }

    /// The innermost node that spans a byte range.
    public func descendant(spanning range: Range<Int>) -> Node? {
        Node(ts_node_descendant_for_byte_range(raw, UInt32(range.lowerBound), UInt32(range.upperBound)), in: tree)
    }

    /// The ancestors of this node, innermost first. Linear in the depth once the tree is indexed
    /// (see `TreeIndex`); for facts about ancestors of many nodes, memoize per node instead.
    public var ancestors: [Node] {
        if tree.navigationIndex() != nil {
            var result: [Node] = []
            var current = parent
            while let node = current {
                result.append(node)
                current = node.parent
            }
            return result
        }
        // Without the index: one descent from the root, each level asked for the child that holds
        // this node (asking each ancestor for its parent would descend from the root every time).
        var path: [Node] = []
        var current = tree.root.raw
        while !ts_node_eq(current, raw) {
            path.append(Node(raw: current, tree: tree))
            let next = ts_node_child_with_descendant(current, raw)
            if ts_node_is_null(next) { break }
            current = next
        }
        return path.reversed()
    }

    /// This node and all its descendants in pre-order (source order).
    public var descendants: [Node] {
        var result: [Node] = []
        walk { result.append($0); return true }
        return result
    }

    /// Visits this node and its descendants in pre-order. Return false from `visit` to skip a
    /// node's children.
    public func walk(_ visit: (Node) -> Bool) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        var descend = visit(self)
        while true {
            if descend, ts_tree_cursor_goto_first_child(&cursor) {
                descend = visit(Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree))
                continue
            }
            while !ts_tree_cursor_goto_next_sibling(&cursor) {
                guard ts_tree_cursor_goto_parent(&cursor) else { return }
            }
            descend = visit(Node(raw: ts_tree_cursor_current_node(&cursor), tree: tree))
        }
    }

    /// Visits this node and its named descendants in pre-order, each with its parent (nil for
    /// this node) and the id of the field it sits under in that parent (0 for none; see
    /// `SwiftLanguage.fieldID(_:)`). Unlike asking `parent` and `fieldName` of each node, this
    /// needs no index of the tree. Anonymous nodes (punctuation, keywords) are not visited, but
    /// their children, if any, are. Return false from `visit` to skip a node's children.
    public func walkWithParents(_ visit: (_ node: Node, _ parent: Node?, _ field: UInt16) -> Bool) {
        var cursor = ts_tree_cursor_new(raw)
        defer { ts_tree_cursor_delete(&cursor) }
        // (Raw nodes: a `Node` holds its tree, which costs a retain for each.)
        var parents: [TSNode] = []
        var current = raw
        var descend = visit(self, nil, 0)
        while true {
            if descend, ts_tree_cursor_goto_first_child(&cursor) {
                parents.append(current)
            } else {
                while !ts_tree_cursor_goto_next_sibling(&cursor) {
                    guard ts_tree_cursor_goto_parent(&cursor) else { return }
                    parents.removeLast()
                }
            }
            current = ts_tree_cursor_current_node(&cursor)
            guard ts_node_is_named(current) else {
                descend = true
                continue
            }
            descend = visit(Node(raw: current, tree: tree), parents.last.map { Node(raw: $0, tree: tree) }, ts_tree_cursor_current_field_id(&cursor))
        }
    }

    public var description: String {
        "\(kind) \(start)-\(end)"
    }
}

extension Node {
    /// The grammar symbol as a number (aliases resolved): comparing symbols is cheaper than
    /// comparing `kind` strings.
    public var symbol: UInt16 { ts_node_symbol(raw) }

    /// The bytes of the node's text, without making a string.
    public var bytes: ArraySlice<UInt8> { tree.source.bytes[byteRange] }
}
