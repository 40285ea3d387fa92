import Foundation
import SwiftTree
import Workspace

/// `iboutlet-optional`: an implicitly unwrapped outlet whose view may be absent (rule 2: not
/// connected in some storyboard or xib that uses its class, or removed from its superview)
/// becomes optional, `T!` → `T?`, and its uses in the class handle the optional:
/// `label.text = x` → `label?.text = x`, `label.removeFromSuperview()` → `label?.removeFromSuperview()`.
///
/// The verdicts come from the whole repository (`OutletRepository`: every storyboard, xib and
/// Swift file under the root of the run), read once per run. A use it cannot rewrite keeping the
/// meaning and the types (a value read into a non-optional, an argument, a read by other code
/// whose type is not known here) leaves the whole outlet as it is, with the use named. An outlet
/// removed and added back stays strong (a weak one would be gone before it is added back);
/// otherwise its ownership stays as written.
public struct IBOutletOptionalAction: RepositoryReadingAction {
    public let name = "iboutlet-optional"
    public let summary = "Makes an implicitly unwrapped outlet whose view may be absent optional, with optional handling at its uses"
    public let contract = ActionContract(requiredCaptures: ["outlet", "name"])

    public init() {}

    /// The repository's verdicts of a run; where there is no run (an example, one file in the
    /// editor), the file's own (no storyboard is known: only what its code removes is judged).
    func repository(_ context: ActionContext) -> OutletRepository? { OutletRepository.of(context) }

    /// The class an outlet is declared in (`` `Foo` `` is `Foo`, as the verdicts name it).
    static func className(of declaration: Node) -> String? {
        classDeclaration(of: declaration).flatMap { nameParts($0).last }
    }

    /// The declaration of the class an outlet is declared in.
    static func classDeclaration(of declaration: Node) -> Node? {
        declaration.ancestors.first { $0.kind == "class_declaration" && $0.children.contains { $0.kind == "class" } }
    }

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let declaration = context.match["outlet"], let name = context.match["name"].map({ SwiftOutlets.unticked($0.text) }),
              let className = Self.className(of: declaration) else { return .ignore }
        guard let repository = repository(context) else { return .ignore }
        guard let entry = repository.entry(className: className, outlet: name, declaration: declaration.byteRange) else { return .ignore }
        if repository.isAmbiguous(className: className, outlet: name, declaration: declaration.byteRange) {
            return .note("`\(className).\(name)` stays: another class of this name declares it at the same place with another verdict, and which of the two this is cannot be told (`swiftmod outlets` shows both)")
        }
        switch entry.verdict {
        case .unknown: return .note("`\(className).\(name)` is not judged: \(entry.reason)")
        case _ where entry.verdict.mayBeAbsent: return .use
        default: return .ignore
        }
    }

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let declaration = context.match["outlet"], let nameNode = context.match["name"], let className = Self.className(of: declaration),
              case let name = SwiftOutlets.unticked(nameNode.text),
              let repository = repository(context), let entry = repository.entry(className: className, outlet: name, declaration: declaration.byteRange),
              entry.verdict.mayBeAbsent, !repository.isAmbiguous(className: className, outlet: name, declaration: declaration.byteRange) else { return [] }
        let site = "`\(className).\(name)` (\(entry.reason))"
        guard let annotation = declaration.children.first(where: { $0.kind == "type_annotation" }),
              let bang = annotation.children.first(where: { $0.kind == "!" }) else { return [] }
        var edits = [Edit(range: bang.byteRange, replacement: "?")]
        // Added back: strong, or it is freed while out of the hierarchy.
        if entry.addedBack,
           let ownership = declaration.children.first(where: { $0.kind == "modifiers" })?.children.first(where: { $0.kind == "ownership_modifier" }) {
            edits.append(.removal(TidyRemoval.range(removing: ownership.byteRange, in: context.tree.source)))
        }
        // Code elsewhere that reads the name on another value may mean this outlet; its type is
        // not known here. A private outlet is this file's alone.
        // (`private(set)` and `fileprivate` outlets are read elsewhere too.)
        let isPrivate = declaration.children.first { $0.kind == "modifiers" }?.children.contains { $0.kind == "visibility_modifier" && $0.text == "private" } ?? false
        if !isPrivate, let elsewhere = repository.foreignReferences[name] {
            throw SiteRefusal(location: declaration.start, message: "\(site) stays: `.\(name)` is read on another value at \(elsewhere), whose type is not known here (make the outlet private, or change that code too)")
        }
        // Code of a subclass, or of an extension in another file, reads it too: not rewritten here.
        for use in repository.memberUses[name] ?? [] where repository.classification.ancestry(use.className).contains(where: { SameNamedClasses.name(of: $0) == className }) {
            if use.file != entry.file {
                throw SiteRefusal(location: declaration.start, message: "\(site) stays: `\(use.className)` uses it at \(use.file):\(use.line), which this rewrite does not reach")
            }
            if use.className != className {
                throw SiteRefusal(location: declaration.start, message: "\(site) stays: its subclass `\(use.className)` uses it at line \(use.line), which this rewrite does not reach")
            }
        }
        // The class and its extensions in this file: its own body (not a nested type's of the
        // same name), and the extensions of its name as its nesting spells it (`Outer.V`). An
        // extension whose name ends so but spells more or less (`Other.V`: another type, or the
        // module's name first) cannot be told: the outlet stays.
        let owner = Self.classDeclaration(of: declaration)
        let qualified = owner.map(Self.qualifiedName(of:)) ?? [className]
        var bodies: [Node] = []
        for node in context.tree.root.descendants where node.kind == "class_body" {
            guard let parent = node.parent, parent.kind == "class_declaration" else { continue }
            guard parent.isExtension else {
                if parent == owner { bodies.append(node) }
                continue
            }
            let parts = Self.nameParts(parent)
            if parts == qualified {
                bodies.append(node)
            } else if parts.last == className {
                throw SiteRefusal(location: declaration.start, message: "\(site) stays: `extension \(parts.joined(separator: "."))` at line \(parent.start.line) may extend it or another type of its name, which this rewrite cannot tell")
            }
        }
        guard !bodies.isEmpty else { return edits }
        var problem: SiteRefusal?
        for body in bodies { body.walk { node in
            guard problem == nil else { return false }
            // A nested type's members are its own.
            if node.kind == "class_declaration" || node.kind == "protocol_declaration" { return node == body.parent }
            guard let reference = Self.reference(to: name, at: node, declaration: declaration) else { return true }
            switch Self.optionalEdit(for: reference) {
            case let .edit(edit): edits.append(edit)
            case .none: break
            case let .refuse(why):
                problem = SiteRefusal(location: reference.start, message: "\(site) stays: its use at line \(reference.start.line) \(why)")
            }
            return false
        } }
        if let problem { throw problem }
        return edits
    }

    /// A type declaration's name (`Node.declaredName`), by its parts, without backticks
    /// (`` extension A.`B`<T> `` → A, B).
    static func nameParts(_ declaration: Node) -> [String] {
        (declaration.declaredName ?? "").split(separator: ".").map { SwiftOutlets.unticked(String($0)) }
    }

    /// A class's name as the types it is nested in spell it (`Outer.V`).
    static func qualifiedName(of declaration: Node) -> [String] {
        var parts = nameParts(declaration)
        var enclosing = declaration.enclosingTypeDeclaration
        while let type = enclosing {
            parts = nameParts(type) + parts
            enclosing = type.enclosingTypeDeclaration
        }
        return parts
    }

    /// `name` or `self.name` meaning the outlet, at a node.
    static func reference(to name: String, at node: Node, declaration: Node) -> Node? {
        if node.kind == "navigation_expression", node.child(field: "target")?.kind == "self_expression",
           node.child(field: "suffix")?.child(field: "suffix").map({ SwiftOutlets.unticked($0.text) }) == name {
            return node
        }
        guard node.kind == "simple_identifier", SwiftOutlets.unticked(node.text) == name, let parent = node.parent,
              node != declaration.child(field: "name")?.child(field: "bound_identifier"),
              parent.kind != "navigation_suffix", parent.kind != "value_argument_label",
              !(parent.kind == "value_argument" && parent.children(field: "name").contains(node)),
              node.fieldName != "bound_identifier", parent.kind != "pattern", !SwiftOutlets.isLocal(node, countingSelfBindings: true) else { return nil }
        return node
    }

    enum OptionalEdit { case edit(Edit), none, refuse(String) }

    /// How a use of the outlet handles it as an optional: a member set or a method called as a
    /// statement through it gets `?`; a use that already handles an optional (`x?.`, `x!`,
    /// `x == nil`, `if let x`, assigning the outlet) stays; anything else is refused.
    static func optionalEdit(for reference: Node) -> OptionalEdit {
        guard let parent = reference.parent else { return .refuse("is not understood") }
        // `label = UILabel()`: assigning the outlet itself.
        if parent.kind == "directly_assignable_expression" || parent.kind == "assignment" && parent.child(field: "target") == reference { return .none }
        // `label == nil`, `label !== other`.
        if parent.kind == "equality_expression", parent.children.contains(where: { $0.text == "nil" }) { return .none }
        // `if let label`, `guard let label = label`, `label!.x`, `label?.x`.
        if parent.kind == "if_statement" || parent.kind == "guard_statement" || parent.kind == "value_binding_pattern" { return .none }
        if let next = reference.nextSibling, next.kind == "?" || next.kind == "!" { return .none }
        if parent.kind == "postfix_expression" || parent.kind == "optional_chaining_marker" { return .none }
        // `label.text = x`, `label.isHidden = true`, `label.removeFromSuperview()`: as statements.
        if parent.kind == "navigation_expression", parent.child(field: "target") == reference {
            var top = parent
            while let up = top.parent, up.kind == "navigation_expression" || up.kind == "call_expression" || up.kind == "call_suffix"
                    || up.kind == "directly_assignable_expression" {
                top = up
                if up.kind == "directly_assignable_expression" { break }
            }
            if top.kind == "directly_assignable_expression", top.parent?.kind == "assignment", top.parent?.parent?.kind == "statements" {
                return .edit(Edit(range: reference.byteRange.upperBound..<reference.byteRange.upperBound, replacement: "?"))
            }
            if top.kind == "call_expression", let statements = top.parent, statements.kind == "statements" {
                // The only statement of a closure or of a function that returns something is
                // its value: optional chaining would change its type.
                let method = parent.child(field: "suffix")?.child(field: "suffix")?.text ?? ""
                if statements.namedChildren.count == 1, let owner = statements.parent, !voidMethods.contains(method),
                   owner.kind == "lambda_literal" || owner.kind == "computed_property" || owner.kind == "computed_getter"
                    || owner.kind == "function_body" && owner.parent?.children.contains(where: { $0.kind == "->" }) == true {
                    return .refuse("is the value its closure or function returns (`\(oneLine(top.text))`), which would become optional")
                }
                return .edit(Edit(range: reference.byteRange.upperBound..<reference.byteRange.upperBound, replacement: "?"))
            }
            return .refuse("reads a value through it (`\(oneLine(top.text))`), which would become optional")
        }
        return .refuse("uses it as a value (`\(oneLine(parent.text))`), which an optional would not type-check as")
    }

    /// UIKit methods that return nothing: their call is a statement wherever it stands.
    static let voidMethods: Set<String> = [
        "removeFromSuperview", "setNeedsLayout", "layoutIfNeeded", "setNeedsDisplay", "sizeToFit", "addSubview", "bringSubviewToFront",
        "sendSubviewToBack", "setTitle", "setImage", "setTitleColor", "reloadData", "startAnimating", "stopAnimating", "addTarget",
        "removeTarget", "setContentOffset", "scrollToRow", "setNeedsUpdateConstraints", "updateConstraintsIfNeeded", "addArrangedSubview",
        "removeArrangedSubview", "insertSubview", "setOn", "setValue", "setProgress",
    ]

    static func oneLine(_ text: String) -> String {
        SafeText.oneLine(text.split(separator: "\n").first.map(String.init) ?? text, limit: 60)
    }
}
