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

    /// The tree as text, one node per line.
    public func render(_ tree: SyntaxTree) -> String {
        var output = ""
        render(tree.root, field: nil, depth: 0, into: &output)
        return output
    }

    private func render(_ node: Node, field: String?, depth: Int, into output: inout String) {
        output += String(repeating: "  ", count: depth)
        if let field { output += "\(field): " }
        let position = "\(node.start)-\(node.end)"
        if node.isMissing {
            output += "(MISSING \(quoted(node.kind)) \(position))\n"
            return
        }
        let visible = node.fieldedChildren.filter {
            includeAnonymous || $0.node.isNamed || $0.node.isError || $0.node.isMissing
        }
        if node.isNamed || node.isError {
            output += "(\(node.kind) \(position)"
            if visible.isEmpty {
                output += " \(quoted(abbreviated(node.text))))\n"
                return
            }
            output += "\n"
            for child in visible {
                render(child.node, field: child.field, depth: depth + 1, into: &output)
            }
            output.removeLast()
            output += ")\n"
        } else {
            output += "\(quoted(node.kind)) \(position)\n"
        }
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
