import SwiftTree

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
            name == from || (!module.isEmpty && name == "\(module).\(from)")
        }

        /// What a module-qualified use (`OldKit.Client`) becomes.
        var qualifiedReplacement: String { to.contains(".") ? to : "\(module).\(toName)" }
    }

    /// Declarations that introduce a type name.
    static let typeDeclarations: Set<String> = ["class_declaration", "protocol_declaration", "typealias_declaration"]

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let node = context.match["name"] else { return .ignore }
        let names = Names(context.params)
        let ancestors = node.ancestors
        if ancestors.contains(where: { $0.kind == "selector_expression" || $0.kind == "key_path_string_expression" }) {
            return .ignore
        }
        // Declarations named like the old type.
        for declaration in ancestors where Self.typeDeclarations.contains(declaration.kind) {
            guard names.isOldType(Self.declaredName(of: declaration)) else { continue }
            let inName = declaration.child(field: "name").map { $0.byteRange.contains(node.byteRange.lowerBound) } ?? false
            if !inName { return .ignore }                    // inside the old type or its extension
            if Self.isExtension(declaration) { return .use }  // reported by edits(in:)
            if declaration.parent?.kind == "source_file" { return .ignore }  // the old type itself
            return .note("a local type `\(names.from)` is declared here; uses of `\(names.from)` in its scope mean it and are left alone")
        }
        if node.parent?.kind == "type_parameter" {
            return .note("a generic parameter `\(names.from)` is declared here; uses of `\(names.from)` in its scope mean it and are left alone")
        }
        if Self.isShadowed(node, ancestors: ancestors, name: names.from) { return .ignore }
        return Self.position(of: node, names: names) == nil ? .ignore : .use
    }

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let node = context.match["name"] else { return [] }
        let names = Names(context.params)
        if let declaration = node.ancestors.first(where: { $0.kind == "class_declaration" }), Self.isExtension(declaration),
           names.isOldType(Self.declaredName(of: declaration)) {
            throw SiteRefusal(location: node.start, message: "an extension of `\(names.from)`: its members do not exist on `\(names.toName)`; port them by hand (callers of these members will now see `\(names.toName)`)")
        }
        guard let position = Self.position(of: node, names: names) else { return [] }
        var edits: [Edit]
        switch position {
        case .plain:
            edits = [Edit(range: node.byteRange, replacement: names.toName)]
        case let .qualified(qualifier):
            edits = [Edit(range: qualifier.byteRange.lowerBound..<node.byteRange.upperBound, replacement: names.qualifiedReplacement)]
        }
        if let importEdit = Self.importEdit(for: names.importModule, in: context.tree) { edits.append(importEdit) }
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
                  target.text == names.module else { return nil }
            return .qualified(target)
        case "user_type":
            // `OldKit.Client` as a type: a qualifier precedes it.
            let components = parent.namedChildren.filter { $0.kind == "type_identifier" }
            guard let index = components.firstIndex(of: node), index > 0 else { return .plain }
            guard index == 1, !names.module.isEmpty, components[0].text == names.module else { return nil }
            return .qualified(components[0])
        case "enum_entry", "value_argument_label", "function_declaration", "parameter", "lambda_parameter",
             "pattern", "type_parameter", "class_declaration", "protocol_declaration", "typealias_declaration":
            return nil
        case "prefix_expression":
            // `.Client` is an implicit member, not the type.
            return parent.children.first?.kind == "." ? nil : .plain
        default:
            if node.fieldName == "bound_identifier" { return nil }
            return .plain
        }
    }

    /// The name a type declaration declares (`Client` of `class Client`, `extension Client`).
    static func declaredName(of declaration: Node) -> String? {
        guard let name = declaration.child(field: "name") else { return nil }
        return name.text
    }

    static func isExtension(_ declaration: Node) -> Bool {
        declaration.child(field: "declaration_kind")?.text == "extension"
    }

    /// Whether a scope around the node declares its own type or generic parameter of the name.
    static func isShadowed(_ node: Node, ancestors: [Node], name: String) -> Bool {
        for scope in ancestors {
            for child in scope.namedChildren where !child.byteRange.contains(node.byteRange.lowerBound) || child.kind == "type_parameters" {
                if child.kind == "type_parameters",
                   child.namedChildren.contains(where: { $0.kind == "type_parameter" && $0.namedChildren.first?.text == name }) {
                    return true
                }
                if scope.kind != "source_file", typeDeclarations.contains(child.kind), declaredName(of: child) == name,
                   !(child.kind == "class_declaration" && isExtension(child)) {
                    return true
                }
            }
        }
        return false
    }

    /// The insertion of `import Module` after the file's last import, unless it is there already.
    static func importEdit(for module: String, in tree: SyntaxTree) -> Edit? {
        guard !module.isEmpty else { return nil }
        let imports = tree.root.namedChildren.filter { $0.kind == "import_declaration" }
        if imports.contains(where: { declaration in
            declaration.namedChildren.contains { $0.kind == "identifier" && $0.text == module }
        }) {
            return nil
        }
        if let last = imports.last {
            return Edit(range: last.byteRange.upperBound..<last.byteRange.upperBound, replacement: "\nimport \(module)")
        }
        let first = tree.root.namedChildren.first { $0.kind != "comment" && $0.kind != "multiline_comment" }
        let offset = first?.byteRange.lowerBound ?? tree.source.bytes.count
        return Edit(range: offset..<offset, replacement: "import \(module)\n\n")
    }
}
