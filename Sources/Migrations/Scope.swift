import SwiftTree
import Workspace

/// Names the declarations that enclose a node: `ProfileViewController.viewDidLoad()`. Stable when
/// lines move, code is re-indented or the file is renamed; it changes only when the use moves to
/// another declaration.
enum Scope {
    static func path(of node: Node) -> String {
        var parts: [String] = []
        for ancestor in node.ancestors.reversed() {
            switch ancestor.kind {
            case "class_declaration":
                // A type and its extensions are one scope: moving a method into an extension (to
                // split a file, or for a conformance) keeps its uses the same.
                // `extension Outer . Inner` names `Outer.Inner`. Baselines store this spelling
                // (blanks removed, the rest as written), so it stays as it is.
                parts.append(ancestor.declaredNameAsWritten ?? "?")
            case "protocol_declaration":
                parts.append(ancestor.declaredName ?? "?")
            case "function_declaration":
                parts.append("\(ancestor.declaredName ?? "?")()")
            case "init_declaration":
                parts.append("init()")
            case "deinit_declaration":
                parts.append("deinit")
            case "subscript_declaration":
                parts.append("subscript")
            case "property_declaration":
                if let name = ancestor.child(field: "name")?.child(field: "bound_identifier")?.text {
                    parts.append(name)
                }
            default:
                break
            }
        }
        return parts.map(folded).joined(separator: ".")
    }

    /// Text on one line with runs of blanks folded to one space.
    static func folded(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .joined(separator: " ")
    }
}
