import SwiftTree

/// The names Swift Testing declares that code may also take from another module: beside
/// `import Testing`, a bare `Tag` that meant `Yams.Tag` is ambiguous and the file no longer builds.
/// The conversion writes such names with their module (`Yams.Tag`) when the file imports one
/// module that can be it; otherwise the file's tests stay XCTest.
struct TestingNameClash: Sendable {
    /// Swift Testing's public types.
    static let names: Set<String> = [
        "Tag", "Test", "Trait", "Issue", "Comment", "Bug", "Attachment", "Attachable", "Confirmation", "Expectation",
        "SourceLocation", "TimeLimitTrait", "ConditionTrait", "ParallelizationTrait", "SuiteTrait", "TestTrait", "TestScoping",
    ]
    /// Modules whose names do not clash: Apple's that declare none of them.
    static let plainModules: Set<String> = ["XCTest", "Testing", "Foundation", "Dispatch", "Darwin", "Glibc", "Musl", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CoreFoundation", "UIKit", "AppKit", "SwiftUI", "Combine"]

    /// The names used bare in the file (not after a dot).
    var uses: [(name: String, offset: Int)] = []
    /// The types the file declares.
    var declared: Set<String> = []
    /// Those it declares outside functions (at file scope or in a type), which the converted
    /// code's `@Test` or `Issue` would meet.
    var declaredOutsideFunctions: Set<String> = []
    /// The modules the file imports that may declare them.
    var modules: [String] = []

    init(_ tree: SyntaxTree) {
        var found: [(String, Int)] = []
        var declared: Set<String> = []
        var outside: Set<String> = []
        tree.root.walk { node in
            if node.kind == "import_declaration" { return false }
            if (node.kind == "type_identifier" || node.kind == "simple_identifier"), Self.names.contains(node.text) {
                if let parent = node.parent, parent.kind == "class_declaration" || parent.kind == "typealias_declaration" || parent.kind == "protocol_declaration" {
                    if parent.child(field: "name") == node {
                        declared.insert(node.text)
                        if !parent.ancestors.contains(where: { ["function_declaration", "init_declaration", "lambda_literal", "computed_property"].contains($0.kind) }) {
                            outside.insert(node.text)
                        }
                    }
                } else if Self.isBare(node) {
                    found.append((node.text, node.byteRange.lowerBound))
                }
            }
            return true
        }
        uses = found
        self.declared = declared
        declaredOutsideFunctions = outside
        modules = tree.root.children.filter { $0.kind == "import_declaration" }.compactMap { XCTestFileConversion.module(of: $0) }
            .filter { !Self.plainModules.contains($0) }
    }

    /// Whether a name is not a member (`x.Tag`) or an inner part of a qualified type (`Yams.Tag`).
    static func isBare(_ node: Node) -> Bool {
        guard let parent = node.parent else { return true }
        if parent.kind == "navigation_suffix" { return false }
        if parent.kind == "user_type", parent.children.first(where: { $0.kind == "type_identifier" }) != node { return false }
        return true
    }

    /// The names used that the run does not declare.
    func clashing(declaredInRun: Set<String>) -> Set<String> {
        Set(uses.map(\.name)).subtracting(declared).subtracting(declaredInRun)
    }

    /// Why the file cannot import Testing, or nil.
    func problem(declaredInRun: Set<String>) -> String? {
        let names = clashing(declaredInRun: declaredInRun)
        guard let first = names.sorted().first, modules.count != 1 else { return nil }
        return "`\(first)` would be ambiguous beside Swift Testing's `\(first)`, and the file imports \(modules.isEmpty ? "no module" : "several modules") it may come from"
    }

    /// `Tag` → `Yams.Tag` for the names the run does not declare: insertions of the module.
    func qualifications(declaredInRun: Set<String>) -> [Edit] {
        let names = clashing(declaredInRun: declaredInRun)
        guard let module = modules.first, modules.count == 1, !names.isEmpty else { return [] }
        return uses.filter { names.contains($0.name) }.map { Edit(range: $0.offset..<$0.offset, replacement: module + ".") }
    }
}
