import SwiftTree
import Workspace

/// Retires `guard let `self` = self` (and `if let`, `while let`): the built-in action behind the
/// `backtick-self` codemod.
///
/// The match must capture `@binding`, a `` `self` `` identifier; the action finds the statement
/// and the `self` after `=` around it (see `contract`). Parameters:
/// - `binding`: `self` (default) gives `guard let self`; any other identifier, such as `this`,
///   gives `guard let this = self` and renames every use of the rebound `self` in its scope
///   (a Swift keyword is refused when the codemod is bound).
/// - `shorthand`: `true` (default) writes `let self`; `false` writes `let self = self`.
///
/// The scope of a rebinding is the statement's later conditions, plus the rest of the enclosing
/// block after a `guard`, or the body of an `if` / `while` (never an `else` branch). Inside it,
/// `self` is renamed in nested closures without their own `[weak self]` (those are left alone, but
/// for their capture lists), in a strong `[self]` or `[unowned self]` capture, in local functions,
/// `defer` blocks and string interpolations, but not inside nested type declarations. Implicit
/// uses of members of the enclosing type written in the same file, or given to it by a superclass
/// or protocol declared there (`reload()` for `self.reload()`), get an explicit `this.`, unless a
/// local declaration, pattern binding or capture hides them (`[weak listener]` becomes
/// `[weak listener = this.listener]`); a name after a leading dot (`case let .openLink(url)`) is an
/// enum case, never such a use. A site is left, with a note, when what a use means depends on an
/// `#if`, or when the code around it has a syntax error.
public struct RebindSelfAction: RewriteAction {
    public let name = "rebind-self"
    public let summary = "rewrite a backtick self rebinding as `let self`, or as a named binding with its uses renamed"
    public let contract = ActionContract(
        requiredCaptures: ["binding"],
        parameters: [
            .init("binding", summary: "the new name: self (let self) or an identifier such as this (uses renamed)", default: "self"),
            .init("shorthand", summary: "with binding=self: true writes let self, false writes let self = self", default: "true"),
        ])

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
        guard let letNode = binding.previousSignificantSibling, letNode.kind == "value_binding_pattern" else { return nil }
        return (statement, letNode)
    }

    static let conditionalStatements: Set<String> = ["guard_statement", "if_statement", "while_statement"]

    /// Words Swift does not accept as the name of a binding (`guard let class = self` does not
    /// compile): its keywords, and `Any`, `Type` and `Protocol`, which name types; `self` is the
    /// default (`guard let self`).
    static let reservedWords = SwiftKeywords.reserved.union(["Any", "Type", "Protocol"]).subtracting(["self"])

    public func problem(with params: [String: String]) -> String? {
        guard let binding = params["binding"], Self.reservedWords.contains(binding) else { return nil }
        return "parameter 'binding' must be an identifier, not the Swift keyword '\(binding)' (try --param binding=this)"
    }

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let binding = context.match["binding"] else { return .ignore }
        return Self.condition(of: binding) == nil ? .ignore : .use
    }

    /// Finds the rebinding of a match, checking what the query cannot: only `=` (and comments)
    /// between the name and `self`, and no `case` pattern (`case let `self`? = self`).
    static func rebinding(in match: QueryMatch) -> Rebinding? {
        guard let binding = match["binding"], let (statement, letNode) = condition(of: binding),
              letNode.text == "let", letNode.previousSibling?.kind != "case" else { return nil }
        guard let equals = binding.nextSignificantSibling, equals.kind == "=",
              let value = equals.nextSignificantSibling, value.kind == "self_expression", value.text == "self" else { return nil }
        return Rebinding(binding: binding, value: value, statement: statement)
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
        let clash = facts.fact(of: statement).container.flatMap { container in
            context.memo.value("rebind-self.clash.\(name).\(container.byteRange)") { Self.declarationClash(of: name, in: container) }
        }
        if let clash {
            throw SiteRefusal(location: binding.start,
                              message: "'\(name)' is already used in this scope (line \(clash.start.line)); rename it or choose another --param binding")
        }
        if statement.isInsideConditionalCompilation {
            throw SiteRefusal(location: binding.start,
                              message: "the rebinding is inside an #if block, so its scope differs between build configurations; rename it by hand")
        }
        // Members of the enclosing type, minus any name declared locally in the enclosing method
        // (a parameter or variable of that name hides the member).
        let typeName = statement.enclosingTypeDeclaration.map(Self.qualifiedName) ?? ""
        let members = context.memo.value("rebind-self.members.\(typeName)") { Self.members(enclosing: statement) }
        let regions = Self.scope(of: statement, after: value)
        // A rename inside a syntax error could change what damaged code means: leave the site.
        // So could one in the closure or function around it: the parser may have read the code
        // after a missing brace as part of the scope.
        let container = statement.ancestors.first { ["lambda_literal", "function_declaration"].contains($0.kind) }
        for error in context.tree.errorRegions {
            let touches = { (node: Node) in
                error.byteRange.overlaps(node.byteRange) || node.byteRange.lowerBound...node.byteRange.upperBound ~= error.byteRange.lowerBound
            }
            if regions.contains(where: touches) || container.map(touches) == true {
                throw SiteRefusal(location: binding.start,
                                  message: "the code around the rebinding has a syntax error (line \(error.start.line)); fix it, or rename by hand")
            }
        }
        let renamer = Renamer(name: name, members: members, facts: facts)
        for region in regions { renamer.rename(in: region) }
        if let (use, declaration) = renamer.configurationDependent.first {
            throw SiteRefusal(location: binding.start,
                              message: "what '\(use.text)' means at line \(use.start.line) depends on the build configuration (declared inside an #if block at line \(declaration.start.line)); rename by hand")
        }
        return [Edit(range: binding.byteRange, replacement: name)] + renamer.edits
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
                if let directive = node.conditionalCompilationDirective {
                    if directive == .if { depth += 1 } else if directive == .endif { depth -= 1 }
                    // `#else`, `#elseif` or `#endif` of a block the guard is in: the scope ends.
                    if depth < 0 || (depth == 0 && (directive == .else || directive == .elseif)) { break }
                }
                regions.append(node)
                next = node.nextSibling
            }
        }
        return regions
    }

    /// Node kinds that declare a type: `self` inside them is that type's instance.
    static let typeDeclarations: Set<String> = ["class_declaration", "protocol_declaration"]

    /// What an unqualified name may refer to through the implicit self.
    struct Members {
        /// Instance members (properties and methods).
        var names: Set<String> = []
        /// Properties with an attribute that may be a property wrapper (`@Clamped var level`):
        /// `$level` (the projection) and `_level` (the storage) are members too.
        var wrapped: Set<String> = []

        /// The names whose local declarations hide an identifier that reaches a member through
        /// self, or nil when the identifier is no member.
        func hidingNames(of identifier: String) -> [String]? {
            if names.contains(identifier) { return [identifier] }
            if identifier.hasPrefix("$"), wrapped.contains(String(identifier.dropFirst())) {
                return [String(identifier.dropFirst())]
            }
            if identifier.hasPrefix("_"), wrapped.contains(String(identifier.dropFirst())) {
                return [identifier, String(identifier.dropFirst())]
            }
            return nil
        }
    }

    /// Renames the uses of the rebound `self` in the scope's regions, skipping what has a `self`
    /// of its own, and remembers the implicit member uses whose meaning depends on `#if`.
    final class Renamer {
        let name: String
        let members: Members
        let facts: AncestorFacts<Fact>
        var edits: [Edit] = []
        /// Uses that a declaration inside an `#if` block hides in some build configurations only.
        var configurationDependent: [(use: Node, declaration: Node)] = []

        init(name: String, members: Members, facts: AncestorFacts<Fact>) {
            self.name = name
            self.members = members
            self.facts = facts
        }

        func rename(in region: Node) {
            region.walk { visit($0) }
        }

        private func visit(_ node: Node) -> Bool {
            switch node.kind {
            case _ where typeDeclarations.contains(node.kind):
                return false
            case "lambda_literal":
                closure(node)
                return false
            case "self_expression":
                if node.text == "self" { edits.append(Edit(range: node.byteRange, replacement: name)) }
                return false
            case "simple_identifier":
                guard let hiding = members.hidingNames(of: node.text) else { return false }
                if isShorthandBinding(node), hiding == [node.text] {
                    // `if let detail {` unwraps the member `detail` through the implicit self.
                    if isMember(node, hiding) {
                        edits.append(Edit(range: node.byteRange.upperBound..<node.byteRange.upperBound, replacement: " = \(name).\(node.text)"))
                    }
                } else if !facts.fact(of: node).inNameOnlyExpression, isImplicitMemberReference(node), isMember(node, hiding) {
                    edits.append(Edit(range: node.byteRange.lowerBound..<node.byteRange.lowerBound, replacement: "\(name)."))
                }
                return false
            default:
                return true
            }
        }

        /// Whether no local declaration hides the member at `node`; one inside an `#if` block that
        /// does so in some configurations only is remembered.
        private func isMember(_ node: Node, _ names: [String]) -> Bool {
            for hidden in names {
                switch visibility(of: hidden, at: node) {
                case .member: continue
                case .local: return false
                case let .dependsOnConfiguration(declaration):
                    configurationDependent.append((node, declaration))
                    return false
                }
            }
            return true
        }

        /// A nested closure: its capture list is evaluated where the closure is written, so the
        /// captured values and a capture of a member (`[count]`, `[weak listener]`) use the rebound
        /// self; the body is left alone when the closure captures `[weak self]` (it has its own).
        private func closure(_ node: Node) {
            let weak = capturesSelfWeakly(node)
            for item in node.child(field: "captures")?.namedChildren ?? [] where item.kind == "capture_list_item" {
                if let value = item.child(field: "value") {
                    value.walk { visit($0) }
                    continue
                }
                guard let captured = item.child(field: "name") else { continue }
                if captured.text == "self" {
                    // `[self]` becomes `[this]`, `[unowned self]` `[unowned this]`; `[weak self]` stays.
                    if !weak { edits.append(Edit(range: captured.byteRange, replacement: name)) }
                } else if captured.kind == "simple_identifier", members.hidingNames(of: captured.text) == [captured.text],
                          isMember(captured, [captured.text]) {
                    // `[weak listener]` captures `self.listener` under the name `listener`.
                    edits.append(Edit(range: captured.byteRange.upperBound..<captured.byteRange.upperBound,
                                      replacement: " = \(name).\(captured.text)"))
                }
            }
            guard !weak else { return }
            for child in node.children where child.kind != "capture_list" {
                child.walk { visit($0) }
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
        case "pattern": return true
        // `func go(count other: Int)` declares `other`: `count` is the argument label, and a
        // default value (`= count`) is a use. `[count = self.count]` declares `count`.
        case "parameter", "lambda_parameter", "function_declaration", "capture_list_item": return node.fieldName == "name"
        default: return false
        }
    }

    static let implicitNames: Set<String> = ["error", "newValue", "oldValue"]

    /// Whether an identifier follows a leading dot: an enum case or a static member of a type the
    /// compiler infers (`case let .openLink(url)`, `for case .share(let url) in`), never a member of self.
    static func isAfterLeadingDot(_ node: Node) -> Bool {
        node.previousSignificantSibling?.kind == "."
    }

    /// Whether an identifier is the label of an associated value in a case pattern
    /// (`url` in `if case .openLink(url: let link) = action`).
    static func isPatternLabel(_ node: Node) -> Bool {
        guard node.fieldName != "bound_identifier", let parent = node.parent,
              parent.kind == "pattern" || conditionalStatements.contains(parent.kind) else { return false }
        return node.nextSignificantSibling?.kind == ":"
    }

    /// Constructs that name members without evaluating them: `#selector(close)`, `#keyPath(url)`.
    static let nameOnlyExpressions: Set<String> = ["selector_expression", "key_path_string_expression", "key_path_expression"]

    /// Whether an identifier is a condition's shorthand binding (`if let detail {`).
    static func isShorthandBinding(_ node: Node) -> Bool {
        guard node.fieldName == "bound_identifier",
              let parent = node.parent, conditionalStatements.contains(parent.kind) else {
            return false
        }
        return node.nextSignificantSibling?.kind != "="
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
        case "navigation_suffix", "value_argument_label", "type_identifier", "parameter", "lambda_parameter":
            // A parameter's label (`count` in `func go(count other: Int)`) names no value.
            return false
        case "capture_list_item":
            // `[c = count]` reads `count`; the captured name is handled with its closure.
            return node.fieldName == "value"
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

    /// What an unqualified name means at a node.
    enum Visibility {
        /// A member, through the implicit self.
        case member
        /// Something declared locally.
        case local
        /// A local declaration inside an `#if` block hides the member in some build
        /// configurations only.
        case dependsOnConfiguration(Node)
    }

    /// Whether a local declaration visible at the node gives its name a local meaning: a variable
    /// or `guard` binding earlier in an enclosing block, a local function anywhere in it (it may be
    /// called before it is declared), a binding of an earlier condition (`if let url = url` reads
    /// the member, then binds), or a parameter, loop variable, `catch`, case pattern or capture of
    /// an enclosing construct. Searched up to the enclosing type. A declaration inside an `#if`
    /// branch hides the name for uses in the same branch, never for those in another branch of
    /// that `#if`, and only in some configurations for those outside it.
    static func visibility(of name: String, at node: Node) -> Visibility {
        var inner = node
        var conditional: Node?
        for ancestor in node.ancestors {
            if typeDeclarations.contains(ancestor.kind) || ancestor.kind.hasSuffix("_body") && ancestor.kind != "function_body" {
                break
            }
            switch ancestor.kind {
            case "statements":
                let siblings = ancestor.children
                guard let position = siblings.firstIndex(of: inner) else { break }
                let paths = conditionalCompilationPaths(siblings)
                for (index, sibling) in siblings.enumerated()
                where declaresLocalFunction(sibling, name) || index < position && declaresForLaterStatements(sibling, name) {
                    switch relation(of: paths[index], to: paths[position]) {
                    case .always: return .local
                    case .never: continue
                    case .sometimes: conditional = conditional ?? sibling
                    }
                }
            case _ where conditionalStatements.contains(ancestor.kind):
                if conditionsDeclare(name, before: inner, in: ancestor) { return .local }
            case "property_declaration", "capture_list_item":
                // `let url = url` and `[url = url]` read the member: a declaration's names are
                // not in scope in its value.
                break
            default:
                for sibling in ancestor.children {
                    if sibling == inner { break }
                    // A function's own name is declared where the function sits (a method in its
                    // type, a local function in its block), not inside it.
                    if ancestor.kind == "function_declaration", sibling.fieldName == "name" { continue }
                    if declaresInHeader(sibling, name) { return .local }
                }
            }
            inner = ancestor
        }
        return conditional.map { .dependsOnConfiguration($0) } ?? .member
    }

    /// One branch of an `#if` block among the statements of a block: the block's number and the
    /// branch's (`#if` 0, then one more for each `#elseif` / `#else`).
    struct Branch: Equatable {
        var block: Int
        var branch: Int
    }

    /// For each node of a list of statements, the `#if` branches it sits in, outermost first.
    static func conditionalCompilationPaths(_ nodes: [Node]) -> [[Branch]] {
        var stack: [Branch] = []
        var blocks = 0
        return nodes.map { node in
            switch node.conditionalCompilationDirective {
            case .if:
                blocks += 1
                stack.append(Branch(block: blocks, branch: 0))
            case .elseif, .else:
                if !stack.isEmpty { stack[stack.count - 1].branch += 1 }
            case .endif:
                if !stack.isEmpty { stack.removeLast() }
            case nil:
                break
            }
            return stack
        }
    }

    enum Relation { case always, never, sometimes }

    /// Whether a declaration in the `#if` branches `declaration` is seen where a use in the
    /// branches `use` sits.
    static func relation(of declaration: [Branch], to use: [Branch]) -> Relation {
        for (index, branch) in declaration.enumerated() {
            guard index < use.count else { return .sometimes }
            if use[index] == branch { continue }
            return use[index].block == branch.block ? .never : .sometimes
        }
        return .always
    }

    /// Whether a statement is a local function of that name (seen in its whole block, itself included).
    static func declaresLocalFunction(_ statement: Node, _ name: String) -> Bool {
        statement.kind == "function_declaration" && statement.declaredName == name
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
            return statement.declaredName == name
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

    /// A type declaration's name with the names of the types around it: `Outer.Inner` for
    /// `class Inner` in `class Outer`, and for `extension Outer.Inner`.
    static func qualifiedName(_ declaration: Node) -> String {
        qualifiedPath(declaration).joined(separator: ".")
    }

    static func qualifiedPath(_ declaration: Node) -> [String] {
        let outer = declaration.ancestors.filter { typeDeclarations.contains($0.kind) }.reversed()
        return (outer + [declaration]).flatMap { node -> [String] in
            let name = node.declaredNameAsWritten ?? ""
            return name.split(separator: ".").map(String.init)
        }
    }

    /// The instance members that an unqualified name inside the closure may implicitly refer to
    /// through self: those declared in the innermost type around the statement and in its
    /// extensions in the same file, and those its superclass and protocols declared in the same
    /// file (and their extensions there) give it. Static members, outer types' members and
    /// `private` members of other types are not reachable that way.
    static func members(enclosing statement: Node) -> Members {
        guard let type = statement.enclosingTypeDeclaration else { return Members() }
        let target = qualifiedName(type)
        var declarations: [String: [Node]] = [:]
        statement.tree.root.walk { node in
            if typeDeclarations.contains(node.kind) { declarations[qualifiedName(node), default: []].append(node) }
            return true
        }
        var members = Members()
        var seen: Set<String> = []
        var queue = [target]
        while let typeName = queue.popLast() {
            guard seen.insert(typeName).inserted else { continue }
            for declaration in declarations[typeName] ?? [] {
                // Inherited names are looked up from the declaration outwards: `Outer.P`, then `P`.
                let context = qualifiedPath(declaration)
                for specifier in declaration.children where specifier.kind == "inheritance_specifier" {
                    // `Base<Int>` inherits from `Base`.
                    guard let written = specifier.child(field: "inherits_from")?.text.filter({ !$0.isWhitespace }),
                          let inherited = written.split(separator: "<").first.map(String.init) else { continue }
                    let candidates = (0...context.count).reversed().map { (context.prefix($0) + [inherited]).joined(separator: ".") }
                    if let found = candidates.first(where: { declarations[$0] != nil }) { queue.append(found) }
                }
                guard let body = declaration.child(field: "body") else { continue }
                for member in body.namedChildren where !isStatic(member) && (typeName == target || !isPrivate(member)) {
                    switch member.kind {
                    case "property_declaration", "protocol_property_declaration":
                        for pattern in member.children(field: "name") {
                            // `var a = 0`, and each name of `let (a, b) = (0, 1)`.
                            let names = pattern.descendants.filter { $0.kind == "simple_identifier" && isDeclaredName($0) }.map(\.text)
                            members.names.formUnion(names)
                            if hasWrapperAttribute(member) { members.wrapped.formUnion(names) }
                        }
                    case "function_declaration", "protocol_function_declaration":
                        if let identifier = member.child(field: "name"), identifier.kind == "simple_identifier" {
                            members.names.insert(identifier.text)
                        }
                    default:
                        break
                    }
                }
            }
        }
        return members
    }

    /// Attributes that are no property wrapper.
    static let nonWrapperAttributes: Set<String> = ["IBOutlet", "IBInspectable", "GKInspectable", "NSManaged", "NSCopying", "MainActor"]

    /// Whether a property has an attribute that may be a property wrapper: a custom attribute
    /// (capitalised, as wrappers are) other than Interface Builder's, Core Data's and global actors.
    static func hasWrapperAttribute(_ property: Node) -> Bool {
        let attributes = property.namedChildren.first { $0.kind == "modifiers" }?.namedChildren.filter { $0.kind == "attribute" } ?? []
        return attributes.contains { attribute in
            guard let name = attribute.namedChildren.first(where: { $0.kind == "user_type" })?.text,
                  let first = name.first, first.isUppercase else { return false }
            return !nonWrapperAttributes.contains(name) && !name.hasSuffix("Actor")
        }
    }

    static func isPrivate(_ member: Node) -> Bool {
        member.namedChildren.first { $0.kind == "modifiers" }?.namedChildren.contains {
            $0.kind == "visibility_modifier" && $0.text == "private"
        } ?? false
    }

    static func isStatic(_ member: Node) -> Bool {
        member.namedChildren.first { $0.kind == "modifiers" }?.namedChildren.contains {
            $0.kind == "property_modifier" && ($0.text == "static" || $0.text == "class")
        } ?? false
    }

    /// What a rebinding needs to know about the nodes around it, computed once per node of a tree.
    struct Fact {
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
