import CTreeSitter
import Foundation

/// Constant-time navigation for a whole tree: each node's parent, field name and neighbours.
///
/// tree-sitter finds a node's parent (and so its siblings) by descending from the root, which
/// costs the node's depth times the breadth of each level: walking up from every node of a deeply
/// nested file, or along the 20,000 statements of a generated one, becomes quadratic. The index is
/// built in one cursor walk (linear in the tree's size); `SyntaxTree` builds it once navigation
/// has been asked for often enough to pay for it.
final class TreeIndex {
    /// A node's identity within its tree.
    struct Key: Hashable {
        var id: UInt
        var start: UInt32

        init(_ node: TSNode) {
            id = UInt(bitPattern: node.id)
            start = node.context.0
        }
    }

    private var ordinals = OrdinalTable()
    /// Every node, in source order (a node before its children).
    private(set) var nodes: [TSNode] = []
    private var parents: [Int32] = []
    private var fields: [TSFieldId] = []
    private var nextSiblings: [Int32] = []
    private var previousSiblings: [Int32] = []

    /// Indexes every node below (and including) a root, in one pass.
    init(root: TSNode) {
        var cursor = ts_tree_cursor_new(root)
        defer { ts_tree_cursor_delete(&cursor) }
        let count = Int(ts_node_descendant_count(root))
        ordinals = OrdinalTable(capacity: count)
        for array in [\TreeIndex.parents, \TreeIndex.nextSiblings, \TreeIndex.previousSiblings] { self[keyPath: array].reserveCapacity(count) }
        nodes.reserveCapacity(count)
        fields.reserveCapacity(count)
        // The ordinals from the root to the cursor's node.
        var path = [add(root, parent: -1, field: 0, previous: -1)]
        while true {
            if ts_tree_cursor_goto_first_child(&cursor) {
                path.append(add(ts_tree_cursor_current_node(&cursor), parent: path.last!,
                                field: ts_tree_cursor_current_field_id(&cursor), previous: -1))
                continue
            }
            while true {
                let current = path.removeLast()
                if ts_tree_cursor_goto_next_sibling(&cursor) {
                    let next = add(ts_tree_cursor_current_node(&cursor), parent: path.last!,
                                   field: ts_tree_cursor_current_field_id(&cursor), previous: current)
                    nextSiblings[Int(current)] = next
                    path.append(next)
                    break
                }
                guard ts_tree_cursor_goto_parent(&cursor) else { return }
            }
        }
    }

    private func add(_ node: TSNode, parent: Int32, field: TSFieldId, previous: Int32) -> Int32 {
        let ordinal = Int32(nodes.count)
        nodes.append(node)
        parents.append(parent)
        fields.append(field)
        nextSiblings.append(-1)
        previousSiblings.append(previous)
        ordinals.insert(Key(node), ordinal)
        return ordinal
    }

    private func node(at ordinal: Int32) -> TSNode? { ordinal < 0 ? nil : nodes[Int(ordinal)] }

    /// Whether the node is in the index (every node of the tree is).
    func contains(_ node: TSNode) -> Bool { ordinals.find(Key(node)) != nil }

    /// The parent of an indexed node (nil for the root); `.none` when the node is unknown.
    func parent(of node: TSNode) -> TSNode?? { ordinals.find(Key(node)).map { self.node(at: parents[Int($0)]) } }

    func nextSibling(of node: TSNode) -> TSNode?? { ordinals.find(Key(node)).map { self.node(at: nextSiblings[Int($0)]) } }

    func previousSibling(of node: TSNode) -> TSNode?? { ordinals.find(Key(node)).map { self.node(at: previousSiblings[Int($0)]) } }

    /// The field name under which a node sits in its parent; `.none` when the node is unknown.
    func fieldName(of node: TSNode) -> String?? {
        guard let ordinal = ordinals.find(Key(node)) else { return .none }
        let field = fields[Int(ordinal)]
        guard field != 0, let name = ts_language_field_name_for_id(SwiftLanguage.pointer, field) else { return .some(nil) }
        return .some(String(cString: name))
    }
}

extension SyntaxTree {
    /// How many parent or sibling look-ups are made the slow way before the index is built: a
    /// few (say, a scan's findings) cost less than indexing a large tree.
    static let navigationsBeforeIndexing = 48
}

/// The ordinal of each node of a tree by its identity: an open-addressing table with a cheap
/// hash (a node's identity is a pointer and a byte offset), several times faster to fill than a
/// `Dictionary`, whose hashing dominated building the index of a large tree.
struct OrdinalTable {
    private var keys: [TreeIndex.Key?] = []
    private var values: [Int32] = []
    private var mask = 0

    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: nil, count: size)
        values = Array(repeating: -1, count: size)
        mask = size - 1
    }

    private func slot(_ key: TreeIndex.Key) -> Int {
        // Fibonacci hashing of the pointer mixed with the offset.
        let mixed = UInt64(truncatingIfNeeded: key.id) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.start) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 17) & mask
    }

    mutating func insert(_ key: TreeIndex.Key, _ value: Int32) {
        var index = slot(key)
        while let existing = keys[index], existing != key { index = (index + 1) & mask }
        keys[index] = key
        values[index] = value
    }

    func find(_ key: TreeIndex.Key) -> Int32? {
        guard !keys.isEmpty else { return nil }
        var index = slot(key)
        while let existing = keys[index] {
            if existing == key { return values[index] }
            index = (index + 1) & mask
        }
        return nil
    }
}
