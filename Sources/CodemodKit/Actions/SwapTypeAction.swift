import SwiftTree
import Workspace

/// Replaces the uses of one type with another: the built-in action behind `swap-type`.
///
/// The match captures `@name`, an identifier spelled like the old type. Parameters: `from` (the old
/// type), `to` (the new one, optionally module-qualified: `NewKit.Client`), `module` (the old
/// type's module, so that `OldKit.Client` is recognised too) and `import` (a module to import in
/// every changed file).
///
/// Not uses: the old type's own declaration and everything inside it or its extensions; members,
/// enum cases, argument labels and declarations that share the name; `#selector(...)` and
/// `#keyPath(...)`; other modules' types of the same name (`Other.Client`); and every use inside
/// the scope of a local type or generic parameter of the same name (said in a note). An
/// `extension` of the old type is a use that is not rewritten: its members must be ported by hand.
public struct SwapTypeAction: RewriteAction {
    public let name = "swap-type"
    public let summary = "replace the uses of one type with another"
    public let contract = ActionContract(
        requiredCaptures: ["name"],
        parameters: [
            .init("from", summary: "the old type"),
            .init("to", summary: "the new type, optionally module-qualified (NewKit.Client)"),
            .init("module", summary: "the old type's module, so that OldKit.Client is recognised too", default: ""),
            .init("import", summary: "a module to import in every changed file", default: ""),
        ])

    public init() {}

    struct Names {
        var from: String
        /// The new type's own name (`Client` of `NewKit.Client`).
        var toName: String
        /// The new type as written in `to`.
        var to: String
        var module: String
        var importModule: String

        init(_ params: [String: String]) {
            from = params["from"] ?? ""
            to = params["to"] ?? ""
            toName = to.split(separator: ".").last.map(String.init) ?? to
            module = params["module"] ?? ""
            importModule = params["import"] ?? ""
        }

        /// Whether a declared name is the old type (`Client`, or `OldKit.Client` with its module).
        func isOldType(_ name: String?) -> Bool {
            guard let name = name.map(SwapTypeAction.unescaped) else { return false }
            return name == from || (!module.isEmpty && name == "\(module).\(from)")
        }

        /// What a plain use (`Client`) becomes: `to` as written.
        var plainReplacement: String { to }

        /// What the two parts of a module-qualified use (`OldKit.Client`) become: `to` when it
        /// names its module, else the new type in the imported module, else in the old type's module.
        var qualifiedReplacement: (module: String, type: String) {
            if let dot = to.firstIndex(of: ".") { return (String(to[..<dot]), toName) }
            return (importModule.isEmpty ? module : importModule, toName)
        }
    }

    /// A name without the backticks that escape it: `` `Client` `` is `Client` to swiftc.
    static func unescaped(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false).map { part in
            part.count >= 2 && part.hasPrefix("`") && part.hasSuffix("`") ? String(part.dropFirst().dropLast()) : String(part)
        }.joined(separator: ".")
    }

    /// Declarations that introduce a type name.
    static let typeDeclarations: Set<String> = ["class_declaration", "protocol_declaration", "typealias_declaration"]

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let node = context.match["name"] else { return .ignore }
        let names = Names(context.params)
        let fact = Self.facts(names, context).fact(of: node)
        if fact.inNameOnlyExpression { return .ignore }
        // `OldKit.Client` can only mean the old type, whatever a scope around declares (a
        // `typealias Client = OldKit.Client` is itself a use).
        if case .qualified? = Self.position(of: node, names: names) { return .use }
        // Declarations named like the old type.
        if let declaration = fact.oldTypeDeclaration {
            let inName = declaration.child(field: "name").map { $0.byteRange.contains(node.byteRange.lowerBound) } ?? false
            if !inName { return .ignore }                    // inside the old type or its extension
            if declaration.isExtension { return .use }  // reported by edits(in:)
            if declaration.parent?.kind == "source_file" { return .ignore }  // the old type itself
            return .note("a local type `\(names.from)` is declared here; uses of `\(names.from)` in its scope mean it and are left alone")
        }
        if node.parent?.kind == "type_parameter" {
            return .note("a generic parameter `\(names.from)` is declared here; uses of `\(names.from)` in its scope mean it and are left alone")
        }
        if fact.shadowed { return .ignore }
        // An enum case is a value: in a type position the name is still the type.
        if fact.shadowedAsValue, node.kind == "simple_identifier" { return .ignore }
        return Self.position(of: node, names: names) == nil ? .ignore : .use
    }

    /// What a use needs to know about the nodes around it, computed once per node of a tree.
    struct Fact {
        /// Inside `#selector(...)` or `#keyPath(...)`.
        var inNameOnlyExpression = false
        /// The innermost type declaration (or extension) named like the old type.
        var oldTypeDeclaration: Node?
        /// The innermost class, struct, enum or extension.
        var innermostType: Node?
        /// Whether a scope around gives the name its own meaning: a nested type, an associated
        /// type, an enum case or a generic parameter — in the scope itself (a child other than the
        /// one holding the node) or, for a type, in any declaration or extension of it in the file.
        var shadowed = false
        /// Whether an enum case of the name is in scope (it shadows values, never types).
        var shadowedAsValue = false
        /// Whether a declaration of the name inside `#if` may shadow it (which depends on the
        /// build): still a use for the lock-down, but not rewritten.
        var shadowedConditionally = false
    }

    /// The per-tree facts for these names (one `TreeMemo` entry per tree).
    static func facts(_ names: Names, _ context: ActionContext) -> AncestorFacts<Fact> {
        context.memo.value("swap-type.facts.\(names.from).\(names.module)") {
            let (shadowingTypes, typesWithCases) = typesDeclaring(names.from, in: context.tree)
            // The named children of each scope that declare the name, found once per scope.
            var declaring: [Node: [Node]] = [:]
            return AncestorFacts(initial: Fact()) { above, node in
                var fact = above
                if node.kind == "selector_expression" || node.kind == "key_path_string_expression" { fact.inNameOnlyExpression = true }
                if typeDeclarations.contains(node.kind), names.isOldType(node.declaredName) { fact.oldTypeDeclaration = node }
                if node.kind == "class_declaration" { fact.innermostType = node }
                if !fact.shadowed, let scope = node.parent {
                    if scope.kind == "class_declaration" || scope.kind == "protocol_declaration" {
                        // The type itself, or an extension of it (named in full: `Other.Page` is
                        // not the top-level `Page`).
                        let typeName = qualifiedName(of: scope)
                        if shadowingTypes.contains(typeName) { fact.shadowed = true }
                        if typesWithCases.contains(typeName) { fact.shadowedAsValue = true }
                    }
                    if !fact.shadowed, scope.kind != "source_file" {
                        let declarations = declaring[scope] ?? {
                            let found = scope.namedChildren.filter { declares($0, names.from) }
                            declaring[scope] = found
                            return found
                        }()
                        for declaration in declarations where declaration != node {
                            if declaration.isInsideConditionalCompilation {
                                fact.shadowedConditionally = true
                            } else if declaration.kind == "enum_entry" {
                                fact.shadowedAsValue = true
                            } else {
                                fact.shadowed = true
                            }
                        }
                    }
                }
                return fact
            }
        }
    }

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let node = context.match["name"] else { return [] }
        let names = Names(context.params)
        if let declaration = Self.facts(names, context).fact(of: node).innermostType,
           let extended = declaration.extendedTypeName, names.isOldType(extended) {
            throw SiteRefusal(location: node.start, message: "an extension of `\(names.from)`: its members do not exist on `\(names.toName)`; port them by hand (callers of these members will now see `\(names.toName)`)")
        }
        guard let position = Self.position(of: node, names: names) else { return [] }
        if case .plain = position, Self.facts(names, context).fact(of: node).shadowedConditionally {
            throw SiteRefusal(location: node.start, message: "a `\(names.from)` declared inside `#if` around here may be what this names in some builds; convert it by hand")
        }
        var edits: [Edit]
        switch position {
        case .plain:
            edits = [Edit(range: node.byteRange, replacement: names.plainReplacement)]
        case let .qualified(qualifier):
            // Each part is replaced on its own: the spaces, line breaks and comments around the
            // dot stay as written.
            let (module, type) = names.qualifiedReplacement
            edits = [Edit(range: qualifier.byteRange, replacement: module), Edit(range: node.byteRange, replacement: type)]
        }
        let importEdit = context.memo.value("swap-type.import.\(names.importModule)") {
            Self.importEdit(for: names.importModule, in: context.tree)
        }
        if let importEdit { edits.append(importEdit) }
        return edits
    }

    enum Position {
        /// `Client`, alone.
        case plain
        /// `OldKit.Client`: the qualifier node is `OldKit`.
        case qualified(Node)
    }

    /// Where an identifier spelled like the old type stands, or nil when it is not a type use.
    static func position(of node: Node, names: Names) -> Position? {
        guard let parent = node.parent else { return nil }
        switch parent.kind {
        case "navigation_suffix":
            // `x.Client`: a member, unless x is the old type's module.
            guard !names.module.isEmpty, let navigation = parent.parent,
                  let target = navigation.child(field: "target"), target.kind == "simple_identifier",
                  unescaped(target.text) == names.module else { return nil }
            return .qualified(target)
        case "user_type", "identifier":
            // `OldKit.Client` as a type, or as the dotted name a `where` clause constrains
            // (`where U.Client: Equatable`): a qualifier precedes it. After any other qualifier it
            // is a member type, however the dot is spaced or commented (`U . /*note*/Client`).
            let components = parent.namedChildren.filter { $0.kind == "type_identifier" || $0.kind == "simple_identifier" }
            guard let index = components.firstIndex(of: node), index > 0 else { return .plain }
            guard index == 1, !names.module.isEmpty, unescaped(components[0].text) == names.module else { return nil }
            return .qualified(components[0])
        case "enum_entry", "value_argument_label", "function_declaration", "parameter", "lambda_parameter",
             "pattern", "type_parameter", "class_declaration", "protocol_declaration", "typealias_declaration",
             "associatedtype_declaration":
            return nil
        case "tuple_expression" where node.fieldName == "name", "tuple_type_item" where node.fieldName == "name":
            return nil  // a tuple label: `(Client: 1)`
        case "prefix_expression":
            // `.Client` is an implicit member, not the type.
            return parent.children.first?.kind == "." ? nil : .plain
        default:
            if node.fieldName == "bound_identifier" { return nil }
            return .plain
        }
    }

    /// Whether a declaration (a direct child of a scope) gives the name its own meaning.
    static func declares(_ child: Node, _ name: String) -> Bool {
        switch child.kind {
        case "type_parameters":
            return child.namedChildren.contains { $0.kind == "type_parameter" && $0.namedChildren.first.map { unescaped($0.text) } == name }
        case "class_declaration":
            return !child.isExtension && child.declaredName.map(unescaped) == name
        case "protocol_declaration", "typealias_declaration", "associatedtype_declaration":
            return child.declaredName.map(unescaped) == name
        case "enum_entry":
            return child.children(field: "name").contains { unescaped($0.text) == name }
        default:
            return false
        }
    }

    /// The types of a file whose declaration declares the name inside (nested type, enum case,
    /// associated type, generic parameter): their extensions see that meaning too.
    /// The types of a file (named in full: `Outer.Inner`) that declare the name inside, as a type
    /// (a nested type, a generic parameter, an associated type), and as an enum case. What is
    /// declared inside `#if` is left out (see `Fact.shadowedConditionally`).
    static func typesDeclaring(_ name: String, in tree: SyntaxTree) -> (types: Set<String>, cases: Set<String>) {
        var types = Set<String>(), cases = Set<String>()
        tree.root.walk { node in
            guard node.kind == "class_declaration" || node.kind == "protocol_declaration" else { return true }
            let body = node.child(field: "body")?.namedChildren ?? []
            for child in node.namedChildren + body where declares(child, name) && !child.isInsideConditionalCompilation {
                if child.kind == "enum_entry" { cases.insert(qualifiedName(of: node)) } else { types.insert(qualifiedName(of: node)) }
            }
            return true
        }
        return (types, cases)
    }

    /// A type declaration's name in full (`Outer.Inner` for a type nested in `Outer`, or in an
    /// extension of it); an extension's is the type it extends, as written.
    static func qualifiedName(of declaration: Node) -> String {
        let own = unescaped(declaration.declaredName ?? "")
        if declaration.isExtension { return own }
        var current = declaration.parent
        while let node = current {
            if node.kind == "class_declaration" || node.kind == "protocol_declaration" {
                return qualifiedName(of: node) + "." + own
            }
            current = node.parent
        }
        return own
    }


    /// The insertion of `import Module` on the line after the file's last unconditional import
    /// (never inside `#if`), unless it is imported unconditionally already. Without imports, it
    /// goes before the first declaration and its doc comment, below the file's header comment.
    static func importEdit(for module: String, in tree: SyntaxTree) -> Edit? {
        guard !module.isEmpty else { return nil }
        // The depth of `#if` blocks, counted in one pass (`conditionalCompilationDepth` per
        // child would be quadratic).
        var depth = 0
        var imports: [Node] = []
        for child in tree.root.namedChildren {
            switch child.conditionalCompilationDirective {
            case .if: depth += 1
            case .endif: depth -= 1
            case .elseif, .else: break
            case nil: if child.kind == "import_declaration", depth == 0 { imports.append(child) }
            }
        }
        if imports.contains(where: { declaration in
            declaration.namedChildren.contains { $0.kind == "identifier" && $0.text == module }
        }) {
            return nil
        }
        let source = tree.source
        if let last = imports.last {
            let line = source.line(containing: last.byteRange.upperBound)
            if line < source.lineCount {
                let next = source.lineStarts[line]
                return Edit(range: next..<next, replacement: "import \(module)\n")
            }
            return Edit(range: source.bytes.count..<source.bytes.count, replacement: "\nimport \(module)")
        }
        let children = tree.root.namedChildren
        guard let firstIndex = children.firstIndex(where: { !$0.isComment }) else {
            return Edit(range: source.bytes.count..<source.bytes.count, replacement: "import \(module)\n")
        }
        // Walk back over doc comments attached to the declaration (no blank line in between); a
        // plain `//` comment above is the file's header and stays first.
        var start = children[firstIndex]
        var index = firstIndex - 1
        while index >= 0, children[index].isComment,
              children[index].text.hasPrefix("///") || children[index].text.hasPrefix("/**"),
              source.line(containing: start.byteRange.lowerBound) - source.line(containing: children[index].byteRange.upperBound) <= 1 {
            start = children[index]
            index -= 1
        }
        let offset = source.lineStarts[source.line(containing: start.byteRange.lowerBound) - 1]
        return Edit(range: offset..<offset, replacement: "import \(module)\n\n")
    }
}
