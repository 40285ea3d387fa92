/// Swift's precedence of the binary operators, to find where the grammar's tree disagrees with
/// the compiler's.
///
/// tree-sitter-swift 0.7.4 reads some operator chains with the wrong grouping: `a != b && c` is
/// `a != (b && c)`, `a && b || c` is `a && (b || c)`, `a ?? b == c` is `a ?? (b == c)`; Swift
/// groups each the other way (comparison before `&&`, `&&` before `||`). A pattern matched on such
/// a tree, and a fix built from it, would not mean what the code means.
public enum OperatorPrecedence {
    /// The precedence of a binary expression node (higher binds tighter, as Swift's standard
    /// precedence groups), or nil for other nodes and operators it does not know.
    public static func of(_ node: Node) -> Int? {
        switch node.kind {
        case "multiplicative_expression": return 150
        case "additive_expression": return 140
        case "range_expression": return 135
        case "as_expression", "check_expression": return 132
        case "nil_coalescing_expression": return 131
        case "comparison_expression", "equality_expression": return 130
        case "conjunction_expression": return 120
        case "disjunction_expression": return 110
        case "infix_expression", "bitwise_operation":
            guard node.childCount == 3, let op = node.child(at: 1) else { return nil }
            return of(operator: op.text)
        default: return nil
        }
    }

    /// The precedence of a standard operator, written as in code.
    public static func of(operator text: String) -> Int? {
        switch text {
        case "<<", ">>", "&<<", "&>>": return 160
        case "*", "/", "%", "&*", "&": return 150
        case "+", "-", "&+", "&-", "|", "^": return 140
        case "...", "..<": return 135
        case "??": return 131
        case "<", "<=", ">", ">=", "==", "!=", "===", "!==", "~=", ".==", ".!=", ".<", ".<=", ".>", ".>=": return 130
        case "&&": return 120
        case "||": return 110
        default: return nil
        }
    }

    /// How loosely an expression binds, for putting it beside an operator: the precedence of its
    /// loosest unparenthesized operator (the grammar's grouping may hide one: `a != b && c` is
    /// `&&`'s); 0 for `try` and `await` (which must not follow an operator), 200 for a prefix
    /// operator; nil for code that binds as one piece (a name, a call, parentheses).
    public static func loosest(_ node: Node) -> Int? {
        switch node.kind {
        case "try_expression", "await_expression": return 0
        case "assignment": return 90
        case "ternary_expression": return 100
        case "prefix_expression": return 200
        // A closure, or an optional chain, binds as one piece beside an operator, but not before
        // some postfixes: `{ … }()` at a statement's start is a trailing closure (260); `a?.b!`
        // unwraps `b`, while `a?.b.c` goes on with the chain as the code did (250).
        case "lambda_literal": return 260
        default:
            if node.kind == "navigation_expression" || node.kind == "call_expression", node.text.contains("?.") { return 250 }
            // A node that only wraps its one child (`value_argument` around an expression) binds as it.
            if node.childCount == 1, let only = node.child(at: 0), only.byteRange == node.byteRange { return loosest(only) }
            // A custom operator's precedence is not known here: taken as loose as a ternary's.
            if node.kind == "infix_expression", node.childCount == 3, of(node) == nil { return 100 }
            guard let precedence = of(node), node.childCount >= 3 else { return nil }
            var result = precedence
            for operand in [node.child(at: 0), node.child(at: node.childCount - 1)] {
                if let operand, let inner = loosest(operand), inner < result { result = inner }
            }
            return result
        }
    }

    /// Whether the grammar grouped this binary expression against Swift's precedence: one of its
    /// operands, not in parentheses, is an expression of an operator that binds less tightly.
    public static func isMisread(_ node: Node) -> Bool {
        // `-a + b` read as `-(a + b)`: a prefix operator binds tighter than any binary one.
        if node.kind == "prefix_expression", let operand = node.child(at: node.childCount - 1), of(operand) != nil { return true }
        guard let precedence = of(node), node.childCount >= 3 else { return false }
        for operand in [node.child(at: 0), node.child(at: node.childCount - 1)] {
            if let operand, let inner = of(operand), inner < precedence { return true }
        }
        return false
    }

    /// The binary expression around a node that the grammar misread, if the node is an operand
    /// of one (directly, or through other binary expressions): a match there relies on the wrong
    /// grouping (`$A || $B` on `a && b || c`, read as `a && (b || c)`).
    public static func misreadAround(_ node: Node) -> Node? {
        // Only an operator expression's grouping can be wrong; a call or a name is one piece.
        guard of(node) != nil || node.kind == "prefix_expression" else { return nil }
        var current = node
        while let parent = current.parent, of(parent) != nil || parent.kind == "prefix_expression" {
            if isMisread(parent) { return parent }
            current = parent
        }
        return nil
    }

    /// The first node in a subtree (the root included) that the grammar misread, outside the
    /// ranges given (code a fix copies as it is).
    public static func firstMisread(in root: Node, outside kept: [Range<Int>]) -> Node? {
        var found: Node?
        root.walk { node in
            guard found == nil else { return false }
            let range = node.byteRange
            if kept.contains(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }) { return false }
            if isMisread(node) { found = node }
            return found == nil
        }
        return found
    }
}
