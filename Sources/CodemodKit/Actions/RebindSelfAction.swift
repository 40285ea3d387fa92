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
/// `this.`, unless a local declaration or pattern binding hides them; a name after a leading dot
/// (`case let .openLink(url)`) is an enum case, never such a use.
public struct RebindSelfAction: RewriteAction {
    public let name = "rebind-self"
    public let summary = "rewrite a backtick self rebinding as `let self`, or as a named binding with its uses renamed"

    public init() {}

    /// The parts of a rebinding: `let` `` `self` `` `=` `self` inside a guard, if or while statement.
    struct Rebinding {
        var binding: Node
        var value: Node
        var statement: Node
    }

    /// The statement and `let` of a backticked `self` that is a condition's binding, or nil for
    /// any other `` `self` `` (a function name, a member, a declaration).
    static func condition(of binding: Node) -> (statement: Node, let: Node)? {
        guard binding.kind == "simple_identifier", binding.text == "`self`",
              let statement = binding.parent, conditionalStatements.contains(statement.kind) else { return nil }
        var previous = binding.previousSibling
        while let node = previous, node.kind.hasSuffix("comment") { previous = node.previousSibling }
        guard let letNode = previous, letNode.kind == "value_binding_pattern" else { return nil }
        return (statement, letNode)
    }

    static let conditionalStatements: Set<String> = ["guard_statement", "if_statement", "while_statement"]

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let binding = context.match["binding"] else { return .ignore }
        return Self.condition(of: binding) == nil ? .ignore : .use
    }

    /// Finds the rebinding of a match, checking what the query cannot: only `=` (and comments)
    /// between the name and `self`, and no `case` pattern (`case let `self`? = self`).
    static func rebinding(in match: QueryMatch) -> Rebinding? {
        guard let binding = match["binding"], let (statement, letNode) = condition(of: binding),
              letNode.text == "let", letNode.previousSibling?.kind != "case" else { return nil }
        var next = binding.nextSibling
        var sawEquals = false
        while let node = next {
            if node.kind.hasSuffix("comment") { next = node.nextSibling; continue }
            if node.kind == "=", !sawEquals { sawEquals = true; next = node.nextSibling; continue }
            guard sawEquals, node.kind == "self_expression", node.text == "self" else { return nil }
            return Rebinding(binding: binding, value: node, statement: statement)
        }
        return nil
    }

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let rebinding = Self.rebinding(in: context.match) else {
            // Still a backtick rebinding (`case let `self`? = self`, `let `self`: T = self`,
            // `let `self` = self as? T`), but not one with a safe automatic rewrite.
            let location = context.match["binding"]?.start ?? context.tree.source.location(ofByte: 0)
            throw SiteRefusal(location: location, message: "this form of backtick rebinding is rewritten by hand")
        }
        let (binding, value, statement) = (rebinding.binding, rebinding.value, rebinding.statement)
        let name = context.params["binding"] ?? "self"
        let shorthand = (context.params["shorthand"] ?? "true") != "false"
        guard name != "self" else {
            var edits = [Edit(range: binding.byteRange, replacement: "self")]
            if shorthand { edits.append(Self.removal(ofValueAfter: binding, through: value, in: context.tree.source)) }
            return edits
        }
        let facts = Self.facts(context)
        let around = facts.fact(of: statement)
        let clash = around.container.flatMap { container in
            context.memo.value("rebind-self.clash.\(name).\(container.byteRange)") { Self.declarationClash(of: name, in: container) }
        }
        if let clash {
            throw SiteRefusal(location: binding.start,
                              message: "'\(name)' is already used in this scope (line \(clash.start.line)); rename it or choose another --param binding")
        }
        if Self.isInsideConditionalCompilation(statement) {
            throw SiteRefusal(location: binding.start,
                              message: "the rebinding is inside an #if block, so its scope differs between build configurations; rename it by hand")
        }
        var edits = [Edit(range: binding.byteRange, replacement: name)]
        // Members of the enclosing type, minus any name declared locally in the enclosing method
        // (a parameter or variable of that name hides the member).
        let typeName = around.innermostClass?.child(field: "name")?.text ?? ""
        let members = context.memo.value("rebind-self.members.\(typeName)") { Self.memberNames(enclosing: statement) }
        for region in Self.scope(of: statement, after: value) {
            Self.renameUses(in: region, to: name, members: members, facts: facts, into: &edits)
        }
        return edits
    }

    /// The removal of `= self` after the binding (with the blanks before `=` when it shares a line
    /// with what precedes it); comments in between stay where they are.
    static func removal(ofValueAfter binding: Node, through value: Node, in source: SourceText) -> Edit {
        var equals = binding.nextSibling
        while let node = equals, node.kind != "=" { equals = node.nextSibling }
        var start = equals?.byteRange.lowerBound ?? value.byteRange.lowerBound
        while start > binding.byteRange.upperBound, source.bytes[start - 1] == 0x20 || source.bytes[start - 1] == 0x09 {
            start -= 1
        }
        if start > 0, source.bytes[start - 1] == 0x0A {
            // `=` opens its own line: keep that line's indentation, take the line break before it
            // only when no comment would swallow what follows.
            start = equals?.byteRange.lowerBound ?? start
        }
        return Edit.removal(start..<value.byteRange.upperBound)
    }

    /// Whether a statement sits between `#if` and its `#endif` in its block.
    static func isInsideConditionalCompilation(_ statement: Node) -> Bool {
        var depth = 0
        var previous = statement.previousSibling
        while let node = previous {
            if node.kind == "directive" {
                let text = node.text
                if text.hasPrefix("#endif") { depth -= 1 } else if text.hasPrefix("#if") { depth += 1 }
            }
            previous = node.previousSibling
        }
        return depth > 0
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
            var depth = 0
            var next = statement.nextSibling
            while let node = next {
                if node.kind == "directive" {
                    let text = node.text
                    if text.hasPrefix("#if") { depth += 1 } else if text.hasPrefix("#endif") { depth -= 1 }
                    // `#else`, `#elseif` or `#endif` of a block the guard is in: the scope ends.
                    if depth < 0 || (depth == 0 && (text.hasPrefix("#else") || text.hasPrefix("#elseif"))) { break }
                }
                regions.append(node)
                next = node.nextSibling
            }
        }
        return regions
    }

    /// Node kinds that declare a type: `self` inside them is that type's instance.
    static let typeDeclarations: Set<String> = ["class_declaration", "protocol_declaration"]

    /// Renames `self` in a region, skipping what has a `self` of its own.
    static func renameUses(in region: Node, to name: String, members: Set<String>, facts: AncestorFacts<Fact>,
                           into edits: inout [Edit]) {
        region.walk { node in
            switch node.kind {
            case _ where typeDeclarations.contains(node.kind):
                return false
            case "lambda_literal":
                if capturesSelfWeakly(node) { return false }
                // `[unowned self]` captures the rebound self: it becomes `[unowned this]`.
                for item in node.child(field: "captures")?.namedChildren ?? [] where item.kind == "capture_list_item" {
                    if let captured = item.child(field: "name"), captured.kind == "simple_identifier", captured.text == "self" {
                        edits.append(Edit(range: captured.byteRange, replacement: name))
                    }
                }
                return true
            case "self_expression":
                if node.text == "self" { edits.append(Edit(range: node.byteRange, replacement: name)) }
                return false
            case "simple_identifier":
                // `if let detail {` unwraps the member `detail` through the implicit self.
                if isShorthandBinding(node), members.contains(node.text), !isHiddenByLocal(node) {
                    edits.append(Edit(range: node.byteRange.upperBound..<node.byteRange.upperBound, replacement: " = \(name).\(node.text)"))
                } else if members.contains(node.text), !facts.fact(of: node).inNameOnlyExpression,
                          isImplicitMemberReference(node), !isHiddenByLocal(node) {
                    edits.append(Edit(range: node.byteRange.lowerBound..<node.byteRange.lowerBound, replacement: "\(name)."))
                }
                return false
            default:
                return true
            }
        }
    }

    /// Whether a closure captures `self` weakly (`[weak self]`): such a closure has its own
    /// optional self and is left alone.
    static func capturesSelfWeakly(_ closure: Node) -> Bool {
        guard let captures = closure.child(field: "captures") else { return false }
        return captures.namedChildren.contains { item in
            item.kind == "capture_list_item"
                && item.namedChildren.contains { $0.kind == "ownership_modifier" && $0.text == "weak" }
                && item.child(field: "name")?.text == "self"
        }
    }

    /// Whether an identifier names something declared here (a variable, a parameter, a function).
    /// The case name and labels of a case pattern (`.share(url: let link)`) declare nothing.
    static func isDeclaredName(_ node: Node) -> Bool {
        guard node.kind == "simple_identifier", let parent = node.parent else { return false }
        if node.fieldName == "bound_identifier" { return true }
        if isAfterLeadingDot(node) || isPatternLabel(node) { return false }
        switch parent.kind {
        case "pattern", "parameter", "lambda_parameter", "function_declaration": return true
        default: return false
        }
    }

    static let implicitNames: Set<String> = ["error", "newValue", "oldValue"]

    /// The nearest sibling before a node that is not a comment.
    static func previousToken(of node: Node) -> Node? {
        var previous = node.previousSibling
        while let sibling = previous, sibling.kind.hasSuffix("comment") { previous = sibling.previousSibling }
        return previous
    }

    /// The nearest sibling after a node that is not a comment.
    static func nextToken(of node: Node) -> Node? {
        var next = node.nextSibling
        while let sibling = next, sibling.kind.hasSuffix("comment") { next = sibling.nextSibling }
        return next
    }

    /// Whether an identifier follows a leading dot: an enum case or a static member of a type the
    /// compiler infers (`case let .openLink(url)`, `for case .share(let url) in`), never a member of self.
    static func isAfterLeadingDot(_ node: Node) -> Bool {
        previousToken(of: node)?.kind == "."
    }

    /// Whether an identifier is the label of an associated value in a case pattern
    /// (`url` in `if case .openLink(url: let link) = action`).
    static func isPatternLabel(_ node: Node) -> Bool {
        guard node.fieldName != "bound_identifier", let parent = node.parent,
              parent.kind == "pattern" || conditionalStatements.contains(parent.kind) else { return false }
        return nextToken(of: node)?.kind == ":"
    }

    /// Constructs that name members without evaluating them: `#selector(close)`, `#keyPath(url)`.
    static let nameOnlyExpressions: Set<String> = ["selector_expression", "key_path_string_expression", "key_path_expression"]

    /// Whether an identifier is a condition's shorthand binding (`if let detail {`).
    static func isShorthandBinding(_ node: Node) -> Bool {
        guard node.fieldName == "bound_identifier",
              let parent = node.parent, conditionalStatements.contains(parent.kind) else {
            return false
        }
        return nextToken(of: node)?.kind != "="
    }

    /// Whether an identifier, alone, refers to a value or function (`reload()`, `count + 1`)
    /// rather than being a member after a dot, a label, or a declaration.
    static func isImplicitMemberReference(_ node: Node) -> Bool {
        guard let parent = node.parent else { return false }
        if isDeclaredName(node) { return false }
        // `.selected` is an implicit member of a type, `case .openLink(url: let link)` a case and its label.
        if parent.kind == "prefix_expression", parent.children.first?.kind == "." { return false }
        if isAfterLeadingDot(node) || isPatternLabel(node) { return false }
        // `(name: 1)` is a tuple label, `completion:` the label of a trailing closure.
        if node.fieldName == "name", ["tuple_expression", "tuple_type_item", "call_suffix"].contains(parent.kind) { return false }
        // Names the compiler declares implicitly: `error` in `catch`, `newValue`/`oldValue` in observers.
        if implicitNames.contains(node.text) { return false }
        // `#selector(close)` and `#keyPath(url)` name a member (checked by the caller, with the
        // tree's facts); they do not use self.
        switch parent.kind {
        case "navigation_suffix", "value_argument_label", "capture_list_item", "type_identifier":
            return false
        case "control_transfer_statement":
            // `break outer` names a statement label; `return value` uses a value.
            return !["break", "continue"].contains(parent.children.first?.kind ?? "")
        case "value_argument":
            // `f(label: x)`: the label is a child before ':'; the value is under the `value` field.
            return node.fieldName == "value"
        case "navigation_expression":
            return node.fieldName == "target"
        default:
            return true
        }
    }

    /// Whether a local declaration visible at the node gives its name a local meaning: a variable
    /// or `guard` binding earlier in an enclosing block, a local function anywhere in it (it may be
    /// called before it is declared), a binding of an earlier condition (`if let url = url` reads
    /// the member, then binds), or a parameter, loop variable, `catch` or case pattern of an
    /// enclosing construct. Searched up to the enclosing type.
    static func isHiddenByLocal(_ node: Node) -> Bool {
        let name = node.text
        var inner = node
        for ancestor in node.ancestors {
            if typeDeclarations.contains(ancestor.kind) || ancestor.kind.hasSuffix("_body") && ancestor.kind != "function_body" {
                return false
            }
            switch ancestor.kind {
            case "statements":
                var isBefore = true
                for sibling in ancestor.children {
                    if sibling == inner { isBefore = false }
                    if declaresLocalFunction(sibling, name) || isBefore && declaresForLaterStatements(sibling, name) { return true }
                }
            case _ where conditionalStatements.contains(ancestor.kind):
                if conditionsDeclare(name, before: inner, in: ancestor) { return true }
            case "property_declaration":
                // `let url = url` reads the member: a declaration's names are not in scope in its value.
                break
            default:
                for sibling in ancestor.children {
                    if sibling == inner { break }
                    // A function's own name is declared where the function sits (a method in its
                    // type, a local function in its block), not inside it.
                    if ancestor.kind == "function_declaration", sibling.fieldName == "name" { continue }
                    if declaresInHeader(sibling, name) { return true }
                }
            }
            inner = ancestor
        }
        return false
    }

    /// Whether a statement is a local function of that name (seen in its whole block, itself included).
    static func declaresLocalFunction(_ statement: Node, _ name: String) -> Bool {
        statement.kind == "function_declaration" && statement.child(field: "name")?.text == name
    }

    /// Whether the conditions of an `if`, `guard` or `while` bind a name where `part` sits: a
    /// condition's bindings are seen by the later conditions and the body, not by their own value
    /// (`if let url = url`) nor by an `else` branch.
    static func conditionsDeclare(_ name: String, before part: Node, in statement: Node) -> Bool {
        var declared = false
        var inCurrentCondition = false
        var depth = 0
        for child in statement.children {
            if child == part { return declared || (inCurrentCondition && part.kind == "statements") }
            switch child.kind {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0: declared = declared || inCurrentCondition
            case "else": return false
            default: if declaresInHeader(child, name) { inCurrentCondition = true }
            }
        }
        return false
    }

    /// Whether a statement declares a name for the statements after it.
    static func declaresForLaterStatements(_ statement: Node, _ name: String) -> Bool {
        switch statement.kind {
        case "property_declaration":
            return statement.children(field: "name").contains { $0.descendants.contains { isDeclaredName($0) && $0.text == name } }
        case "guard_statement":
            return statement.children.contains { $0.fieldName == "bound_identifier" && $0.text == name }
                || statement.children.contains { $0.kind == "pattern" && $0.descendants.contains { isDeclaredName($0) && $0.text == name } }
        case "function_declaration":
            return statement.child(field: "name")?.text == name
        default:
            return false
        }
    }

    /// Whether part of a construct's header (parameters, a loop pattern, conditions, a case
    /// pattern) declares a name for what follows it.
    static func declaresInHeader(_ part: Node, _ name: String) -> Bool {
        // A body, a closure, another `case` of a switch or another `catch` declares nothing here.
        if ["statements", "lambda_literal", "switch_entry", "catch_block"].contains(part.kind) { return false }
        if part.kind == "simple_identifier" { return isDeclaredName(part) && part.text == name }
        return part.descendants.contains { $0.kind == "simple_identifier" && $0.text == name && isDeclaredName($0) }
    }

    /// The instance members that an unqualified name inside the closure may implicitly refer to
    /// through self: those declared in the innermost type around the statement, and in the
    /// extensions of that type in the same file. Static members and outer types' members are not
    /// reachable that way.
    static func memberNames(enclosing statement: Node) -> Set<String> {
        guard let type = statement.ancestors.first(where: { $0.kind == "class_declaration" }),
              let typeName = type.child(field: "name")?.text else { return [] }
        var names = Set<String>()
        var declarations: [Node] = []
        statement.tree.root.walk { node in
            if node.kind == "class_declaration", node.child(field: "name")?.text == typeName { declarations.append(node) }
            return true
        }
        for declaration in declarations {
            guard let body = declaration.child(field: "body") else { continue }
            for member in body.namedChildren where !isStatic(member) {
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

    static func isStatic(_ member: Node) -> Bool {
        member.namedChildren.first { $0.kind == "modifiers" }?.namedChildren.contains {
            $0.kind == "property_modifier" && ($0.text == "static" || $0.text == "class")
        } ?? false
    }

    /// What a rebinding needs to know about the nodes around it, computed once per node of a tree.
    struct Fact {
        /// The innermost type declaration or extension.
        var innermostClass: Node?
        /// The innermost closure or function (or the file), where a new name could clash.
        var container: Node?
        /// Inside `#selector(...)`, `#keyPath(...)` or a key path.
        var inNameOnlyExpression = false
    }

    /// The per-tree facts (one `TreeMemo` entry per tree).
    static func facts(_ context: ActionContext) -> AncestorFacts<Fact> {
        context.memo.value("rebind-self.facts") {
            AncestorFacts(initial: Fact()) { above, node in
                var fact = above
                if node.kind == "class_declaration" { fact.innermostClass = node }
                if ["lambda_literal", "function_declaration", "source_file"].contains(node.kind) { fact.container = node }
                if nameOnlyExpressions.contains(node.kind) { fact.inNameOnlyExpression = true }
                return fact
            }
        }
    }

    /// The first use or declaration of `name` in a closure or function (the one around a
    /// rebinding), which the new binding would shadow or clash with.
    static func declarationClash(of name: String, in container: Node) -> Node? {
        var clash: Node?
        container.walk { node in
            if clash != nil { return false }
            if node.kind == "simple_identifier", node.text == name || node.text == "`\(name)`" {
                clash = node
            }
            return true
        }
        return clash
    }
}
