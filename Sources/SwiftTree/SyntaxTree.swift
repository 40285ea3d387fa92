import CTreeSitter
import Foundation

/// The syntax tree of one source text.
public final class SyntaxTree {
    let pointer: OpaquePointer
    /// The text the tree was parsed from.
    public let source: SourceText

    init(pointer: OpaquePointer, source: SourceText) {
        self.pointer = pointer
        self.source = source
    }

    deinit { ts_tree_delete(pointer) }

    private let navigationLock = NSLock()
    private var index: TreeIndex?
    private var slowNavigations = 0

    /// The navigation index, once enough navigation has been asked for (see `TreeIndex`); nil
    /// before, and the caller then asks tree-sitter.
    func navigationIndex() -> TreeIndex? {
        navigationLock.lock()
        defer { navigationLock.unlock() }
        if let index { return index }
        slowNavigations += 1
        guard slowNavigations > Self.navigationsBeforeIndexing else { return nil }
        let built = TreeIndex(root: ts_tree_root_node(pointer))
        index = built
        return built
    }

    private var symbolTable: SymbolTable?

    /// Every node of the tree in source order (a node before its children), found in one walk
    /// and kept: rules that look for a few kinds of node visit those only, and twenty rules over
    /// one tree walk it once instead of twenty times.
    /// Built with the navigation index (one walk for both): the rules that need the table
    /// mostly ask for parents and siblings too.
    public func nodesInOrder() -> SymbolTable {
        navigationLock.lock()
        defer { navigationLock.unlock() }
        if let symbolTable { return symbolTable }
        let navigation = index ?? TreeIndex(root: ts_tree_root_node(pointer))
        index = navigation
        let built = SymbolTable(tree: self, nodes: navigation.nodes)
        symbolTable = built
        return built
    }

    /// The root node (`source_file`).
    public var root: Node { Node(raw: ts_tree_root_node(pointer), tree: self) }

    /// The nodes that mark syntax errors: `ERROR` nodes (text the parser could not fit) and
    /// `MISSING` nodes (tokens the parser had to invent), outermost first, in source order.
    ///
    /// One grammar quirk is not an error: tree-sitter-swift 0.7.4 parses an empty tuple `()` as a
    /// `tuple_expression` holding a zero-width MISSING `!` node. That exact shape is skipped.
    public var errorRegions: [Node] {
        var regions: [Node] = []
        var stack = [root]
        while let node = stack.popLast() {
            if node.isError || (node.isMissing && !node.isEmptyTupleQuirk) {
                regions.append(node)
                continue
            }
            guard node.hasError else { continue }
            stack.append(contentsOf: node.children.reversed())
        }
        return regions
    }

    /// Literals the parser misread: a single-line string literal or a regular expression literal
    /// that spans a line break, which swiftc never accepts. tree-sitter reads, say, the bare regex
    /// literal `/\/"/` as a regex `/\/` and a string that swallows the rest of the file; since the
    /// file compiles, the text inside such a literal is code the tree does not show. Only searched
    /// where the tree has errors (a swallowed literal always leaves some), outermost first.
    public var misreadRegions: [Node] {
        guard root.hasError else { return [] }
        var regions: [Node] = []
        var stack = [root]
        while let node = stack.popLast() {
            if Self.singleLineLiteralKinds.contains(node.kind) {
                let range = node.byteRange
                // An extended regex literal (`#/` … `/#`) may span lines; a bare one may not.
                let extended = node.kind == "regex_literal" && source.bytes[range].first == 0x23
                if !extended, source.bytes[range].contains(where: { $0 == 0x0A || $0 == 0x0D }) { regions.append(node) }
                continue
            }
            guard node.hasError else { continue }
            stack.append(contentsOf: node.children.reversed())
        }
        return regions
    }

    /// Literals that cannot span lines in Swift.
    static let singleLineLiteralKinds: Set<String> = ["line_string_literal", "regex_literal"]

    /// Whether the tree has any syntax error (the empty-tuple quirk aside).
    public var hasErrors: Bool { !errorRegions.isEmpty }
}

extension Node {
    /// The empty-tuple quirk: a zero-width MISSING `!`, alone in a zero-width `bang` that is the
    /// value of a `tuple_expression` whose text is `()` (possibly with blanks inside).
    var isEmptyTupleQuirk: Bool {
        guard isMissing, kind == "!", byteRange.isEmpty,
              let bang = parent, bang.kind == "bang", bang.byteRange.isEmpty, bang.childCount == 1,
              let tuple = bang.parent, tuple.kind == "tuple_expression" else {
            return false
        }
        return tuple.text.filter { !$0.isWhitespace } == "()"
    }
}
