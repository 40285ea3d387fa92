import SwiftTree

/// Retires `guard let `self` = self` (and `if let`, `while let`): the built-in action behind the
/// `backtick-self` codemod.
///
/// The match must capture `@binding` (the `` `self` `` identifier) and `@value` (the `self`
/// expression after `=`) inside a guard, if or while statement (`@statement`). Parameters:
/// - `binding`: `self` (default) gives `guard let self`; any other identifier, such as `this`,
///   gives `guard let this = self` and renames every use of the rebound `self` in its scope.
/// - `shorthand`: `true` (default) writes `let self`; `false` writes `let self = self`.
///
/// The scope of a rebinding is the statement's later conditions, plus the rest of the enclosing
/// block after a `guard`, or the body of an `if` / `while` (never an `else` branch). Inside it,
/// `self` is renamed in nested closures without their own `[weak self]` / `[unowned self]`
/// (those are left alone), in a strong `[self]` capture, in local functions, `defer` blocks and
/// string interpolations, but not inside nested type declarations. Implicit uses of members of the
/// enclosing type written in the same file (`reload()` for `self.reload()`) get an explicit
/// `this.`.
public struct RebindSelfAction: RewriteAction {
    public let name = "rebind-self"
    public let summary = "rewrite a backtick self rebinding as `let self`, or as a named binding with its uses renamed"

    public init() {}

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let binding = context.match["binding"], let value = context.match["value"],
              let statement = context.match["statement"] else {
            throw SiteRefusal(location: context.match.captures.first?.node.start ?? context.tree.source.location(ofByte: 0),
                              message: "rebind-self needs the captures @binding, @value and @statement")
        }
        let name = context.params["binding"] ?? "self"
        let shorthand = (context.params["shorthand"] ?? "true") != "false"
        let head = binding.byteRange.lowerBound..<value.byteRange.upperBound
        guard name != "self" else {
            return [Edit(range: head, replacement: shorthand ? "self" : "self = self")]
        }
        if let clash = Self.declarationClash(of: name, around: statement) {
            throw SiteRefusal(location: binding.start,
                              message: "'\(name)' is already used in this scope (line \(clash.start.line)); rename it or choose another --param binding")
        }
        var edits = [Edit(range: head, replacement: "\(name) = self")]
        // Members of the enclosing type, minus any name declared locally in the enclosing method
        // (a parameter or variable of that name hides the member).
        let members = Self.memberNames(enclosing: statement).subtracting(Self.localNames(around: statement))
        for region in Self.scope(of: statement, after: value) {
            Self.renameUses(in: region, to: name, members: members, into: &edits)
        }
        return edits
    }

    /// The nodes the rebinding governs.
    static func scope(of statement: Node, after value: Node) -> [Node] {
        var regions: [Node] = []
        var seenValue = false
        for child in statement.children {
            if child == value { seenValue = true; continue }
            guard seenValue else { continue }
            if child.kind == "else" { break }
            regions.append(child)
        }
        if statement.kind == "guard_statement" {
            var next = statement.nextSibling
            while let node = next {
                regions.append(node)
                next = node.nextSibling
            }
        }
        return regions
    }

    /// Node kinds that declare a type: `self` inside them is that type's instance.
    static let typeDeclarations: Set<String> = ["class_declaration", "protocol_declaration"]

    /// Renames `self` in a region, skipping what has a `self` of its own.
    static func renameUses(in region: Node, to name: String, members: Set<String>, into edits: inout [Edit]) {
        region.walk { node in
            switch node.kind {
            case _ where typeDeclarations.contains(node.kind):
                return false
            case "lambda_literal":
                return !capturesSelfWeakly(node)
            case "self_expression":
                if node.text == "self" { edits.append(Edit(range: node.byteRange, replacement: name)) }
                return false
            case "simple_identifier":
                if members.contains(node.text), isImplicitMemberReference(node) {
                    edits.append(Edit(range: node.byteRange.lowerBound..<node.byteRange.lowerBound, replacement: "\(name)."))
                }
                return false
            default:
                return true
            }
        }
    }

    /// Whether a closure captures `self` weakly or unowned (`[weak self]`, `[unowned(safe) self]`).
    static func capturesSelfWeakly(_ closure: Node) -> Bool {
        guard let captures = closure.child(field: "captures") else { return false }
        return captures.namedChildren.contains { item in
            item.kind == "capture_list_item"
                && item.namedChildren.contains { $0.kind == "ownership_modifier" }
                && item.child(field: "name")?.text == "self"
        }
    }

    /// Whether an identifier names something declared here (a variable, a parameter, a function).
    static func isDeclaredName(_ node: Node) -> Bool {
        guard node.kind == "simple_identifier", let parent = node.parent else { return false }
        if node.fieldName == "bound_identifier" { return true }
        switch parent.kind {
        case "pattern", "parameter", "lambda_parameter", "function_declaration": return true
        default: return false
        }
    }

    /// Whether an identifier, alone, refers to a value or function (`reload()`, `count + 1`)
    /// rather than being a member after a dot, a label, or a declaration.
    static func isImplicitMemberReference(_ node: Node) -> Bool {
        guard let parent = node.parent else { return false }
        if isDeclaredName(node) { return false }
        switch parent.kind {
        case "navigation_suffix", "value_argument_label", "capture_list_item", "type_identifier":
            return false
        case "value_argument":
            // `f(label: x)`: the label is a child before ':'; the value is under the `value` field.
            return node.fieldName == "value"
        case "navigation_expression":
            return node.fieldName == "target"
        default:
            return true
        }
    }

    /// Every name declared in the outermost function or closure around a statement that is still
    /// inside its type (the method holding the closure), or in the whole file at top level.
    static func localNames(around statement: Node) -> Set<String> {
        var container = statement
        for ancestor in statement.ancestors {
            if typeDeclarations.contains(ancestor.kind) || ancestor.kind.hasSuffix("_body") && ancestor.kind != "function_body" { break }
            container = ancestor
        }
        return Set(container.descendants.filter(isDeclaredName).map(\.text))
    }

    /// The names of the members declared directly in the types enclosing a statement (in this
    /// file): what an unqualified name inside the closure may implicitly refer to through self.
    static func memberNames(enclosing statement: Node) -> Set<String> {
        var names = Set<String>()
        for ancestor in statement.ancestors where ancestor.kind == "class_declaration" {
            guard let body = ancestor.child(field: "body") else { continue }
            for member in body.namedChildren {
                switch member.kind {
                case "property_declaration":
                    for pattern in member.children(field: "name") {
                        if let identifier = pattern.child(field: "bound_identifier") { names.insert(identifier.text) }
                    }
                case "function_declaration":
                    if let identifier = member.child(field: "name"), identifier.kind == "simple_identifier" {
                        names.insert(identifier.text)
                    }
                default:
                    break
                }
            }
        }
        return names
    }

    /// A use or declaration of `name` in the closure or function around the statement, which the
    /// new binding would shadow or clash with.
    static func declarationClash(of name: String, around statement: Node) -> Node? {
        let container = statement.ancestors.first { ["lambda_literal", "function_declaration", "source_file"].contains($0.kind) }
        var clash: Node?
        container?.walk { node in
            if clash != nil { return false }
            if node.kind == "simple_identifier", node.text == name || node.text == "`\(name)`" {
                clash = node
            }
            return true
        }
        return clash
    }
}
