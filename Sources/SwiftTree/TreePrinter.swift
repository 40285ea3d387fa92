/// Renders a syntax tree as an indented S-expression, the way codemod authors need to see it:
/// field names, positions, the text of leaves, and `ERROR` / `MISSING` marked.
///
///     (source_file 1:1-2:1
///       (property_declaration 1:1-1:10
///         (value_binding_pattern 1:1-1:4 mutability: "let")
///         name: (pattern 1:5-1:6 bound_identifier: (simple_identifier 1:5-1:6 "x"))
public struct TreePrinter {
    /// Whether anonymous tokens (keywords, punctuation) are shown too.
    public var includeAnonymous: Bool

    public init(includeAnonymous: Bool = false) {
        self.includeAnonymous = includeAnonymous
    }

    /// The tree as text, one node per line. Iterative, so any depth of nesting prints (no
    /// recursion to overflow the stack).
    public func render(_ tree: SyntaxTree) -> String {
        var output = ""
        var work: [Step] = [.open(tree.root, field: nil, depth: 0)]
        while let step = work.popLast() {
            switch step {
            case .close:
                output.removeLast()
                output += ")\n"
            case let .open(node, field, depth):
                work += render(node, field: field, depth: depth, into: &output).reversed()
            }
        }
        return output
    }

    /// Deeper nodes are indented this far and labelled with their depth, so that the output stays
    /// linear in the tree's size however deep the nesting.
    static let maxIndentation = 100

    /// What is left to print: a node, or the closing parenthesis of a node whose children are done.
    private enum Step {
        case open(Node, field: String?, depth: Int)
        case close
    }

    /// Prints a node's own line; returns its children to print, then its closing step.
    private func render(_ node: Node, field: String?, depth: Int, into output: inout String) -> [Step] {
        output += String(repeating: "  ", count: min(depth, Self.maxIndentation))
        if depth > Self.maxIndentation { output += "[depth \(depth)] " }
        if let field { output += "\(field): " }
        let position = "\(node.start)-\(node.end)"
        if node.isMissing {
            output += "(MISSING \(quoted(node.kind)) \(position))\n"
            return []
        }
        guard node.isNamed || node.isError else {
            output += "\(quoted(node.kind)) \(position)\n"
            return []
        }
        let visible = node.fieldedChildren.filter {
            includeAnonymous || $0.node.isNamed || $0.node.isError || $0.node.isMissing
        }
        output += "(\(node.kind) \(position)"
        if visible.isEmpty {
            output += " \(quoted(abbreviated(node.text))))\n"
            return []
        }
        output += "\n"
        return visible.map { Step.open($0.node, field: $0.field, depth: depth + 1) } + [.close]
    }

    private func abbreviated(_ text: String) -> String {
        let limit = 60
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r\n": result += "\\r\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
