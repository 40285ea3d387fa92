/// Swift-grammar helpers on the node API, shared by the actions, the lock-down and the tracker
/// (as SwiftLint's syntax extensions are): what a declaration declares, where `#if` blocks are,
/// which sibling comes next when comments do not count.
///
/// They follow tree-sitter-swift 0.7.4: classes, structs, enums, actors and extensions are all
/// `class_declaration` (an extension has `declaration_kind` `extension`); `#if`, `#elseif`,
/// `#else` and `#endif` are `directive` nodes among the statements or members they surround,
/// siblings of them rather than their parents.
extension Node {
    // MARK: Comments

    /// Whether the node is a comment: `// …` (`comment`) or `/* … */` (`multiline_comment`).
    public var isComment: Bool { kind.hasSuffix("comment") }

    /// The nearest sibling after this node that is not a comment.
    public var nextSignificantSibling: Node? {
        var next = nextSibling
        while let sibling = next, sibling.isComment { next = sibling.nextSibling }
        return next
    }

    /// The nearest sibling before this node that is not a comment.
    public var previousSignificantSibling: Node? {
        var previous = previousSibling
        while let sibling = previous, sibling.isComment { previous = sibling.previousSibling }
        return previous
    }

    // MARK: Conditional compilation

    /// A directive of conditional compilation.
    public enum ConditionalCompilationDirective: Sendable, Equatable {
        /// `#if CONDITION`: opens a block and its first branch.
        case `if`
        /// `#elseif CONDITION`: another branch of the open block.
        case elseif
        /// `#else`: the last branch of the open block.
        case `else`
        /// `#endif`: closes the block.
        case endif
    }

    /// What this node is to conditional compilation: nil for anything but an `#if`, `#elseif`,
    /// `#else` or `#endif` directive.
    public var conditionalCompilationDirective: ConditionalCompilationDirective? {
        guard kind == "directive" else { return nil }
        let text = text
        if text.hasPrefix("#if") { return .if }
        if text.hasPrefix("#endif") { return .endif }
        if text.hasPrefix("#elseif") { return .elseif }
        if text.hasPrefix("#else") { return .else }
        return nil
    }

    /// How many `#if` blocks opened by earlier siblings are still open at this node (each `#if`
    /// before it counts one, each `#endif` minus one): 0 outside any block of its parent, and
    /// negative after an `#endif` whose `#if` is outside the parent. Blocks around the parent are
    /// not counted. Linear in the number of earlier siblings.
    public var conditionalCompilationDepth: Int {
        var depth = 0
        var previous = previousSibling
        while let node = previous {
            switch node.conditionalCompilationDirective {
            case .if: depth += 1
            case .endif: depth -= 1
            default: break
            }
            previous = node.previousSibling
        }
        return depth
    }

    /// Whether the node sits between an `#if` and its `#endif` among its siblings (a statement in
    /// a block, a member in a type's body, a declaration in the file).
    public var isInsideConditionalCompilation: Bool { conditionalCompilationDepth > 0 }

    // MARK: Declarations

    /// Whether a declaration is an extension (`extension Client { … }`).
    public var isExtension: Bool {
        child(field: "declaration_kind")?.text == "extension"
    }

    /// The name a declaration declares (a type, an extension, a function, a typealias, a
    /// property's pattern…), or nil for a node without a `name` field. A dotted name's parts are joined by dots, without what
    /// surrounds them: `extension Outer . Inner` and `extension Outer . /* c */ Inner` both declare
    /// `Outer.Inner`, and `extension Box<Int>` declares `Box`.
    public var declaredName: String? {
        guard let name = child(field: "name") else { return nil }
        guard name.kind == "user_type" else { return name.text }
        let parts = name.namedChildren.filter { $0.kind == "type_identifier" }.map(\.text)
        return parts.isEmpty ? name.text : parts.joined(separator: ".")
    }

    /// A declaration's name as written, with its blanks (spaces, tabs, line breaks) removed:
    /// `extension Outer . Inner<T>` gives `Outer.Inner<T>`, and comments stay. Where names are
    /// stored (the baseline's scopes), this spelling is kept as it always was; `declaredName` is
    /// the name itself.
    public var declaredNameAsWritten: String? {
        child(field: "name")?.text.filter { !$0.isWhitespace }
    }

    /// The type an extension extends (`declaredName`), or nil when the node is no extension.
    public var extendedTypeName: String? {
        isExtension ? declaredName : nil
    }

    /// The innermost class, struct, enum, actor or extension declaration around the node (the
    /// grammar's `class_declaration`); protocols, whose bodies hold no code, are not counted.
    public var enclosingTypeDeclaration: Node? {
        var current = parent
        while let node = current {
            if node.kind == "class_declaration" { return node }
            current = node.parent
        }
        return nil
    }
}
