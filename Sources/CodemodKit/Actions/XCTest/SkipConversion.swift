import SwiftTree

/// XCTest's skips in Swift Testing: `try XCTSkipIf(cond, "m")` as the first statement of a test,
/// with a condition that needs no instance, is the test's trait `.disabled(if: cond, "m")`
/// (`XCTSkipUnless`: `.enabled(if:)`); anywhere else it is `if cond { try Test.cancel("m") }`, and
/// `throw XCTSkip("m")` is `try Test.cancel("m")` (Swift 6.3).
enum SkipConversion {
    static let names: Set<String> = ["XCTSkip", "XCTSkipIf", "XCTSkipUnless"]

    enum Outcome {
        /// Replace the statement; `trait` (for the test at `test`) when it became one.
        case converted(Edit, trait: (test: Int, text: String)?)
        case notConverted(String)
    }

    static func convert(_ call: Node) -> Outcome {
        guard let name = call.child(at: 0)?.text, names.contains(name) else { return .notConverted("not a skip") }
        let arguments = call.child(at: 1)?.children.first { $0.kind == "value_arguments" }?.children.filter { $0.kind == "value_argument" } ?? []
        if arguments.contains(where: { $0.child(field: "name") != nil }) {
            return .notConverted("\(name) with `file:`/`line:` has no Swift Testing form")
        }
        let values = arguments.compactMap { $0.child(field: "value") }
        if name == "XCTSkip" {
            // `throw XCTSkip("m")`.
            guard let thrown = call.parent, thrown.kind == "control_transfer_statement",
                  thrown.children.first?.kind == "throw_keyword" else {
                return .notConverted("an `XCTSkip` that is not thrown where it is made")
            }
            guard values.count <= 1 else { return .notConverted("XCTSkip with \(values.count) arguments") }
            return .converted(Edit(range: thrown.byteRange, replacement: "try Test.cancel(\(values.first.map(AssertionConversion.comment) ?? ""))"), trait: nil)
        }
        guard let statement = call.parent, statement.kind == "try_expression", statement.parent?.kind == "statements",
              (1...2).contains(values.count) else {
            return .notConverted("an `\(name)` that is not a statement of its own (`try \(name)(condition, message)`)")
        }
        let condition = values[0]
        let message = values.count > 1 ? AssertionConversion.comment(values[1]) : nil
        // The first statement of a test, with a condition that needs no instance: a trait.
        if let test = statement.ancestors.first(where: { $0.kind == "function_declaration" }),
           let testName = test.child(field: "name")?.text, TestClassConversion.isTest(test, named: testName),
           test.child(field: "body")?.children.first(where: { $0.kind == "statements" })?.children.first(where: { $0.isNamed && $0.kind != "comment" }) == statement,
           let members = test.parent.map(memberNames), !usesInstance(condition, members: members),
           !values.dropFirst().contains(where: { usesInstance($0, members: members) }),
           // A trait is read before the suite is made: not when its setUp could decide it.
           !(test.parent?.children.contains { $0.kind == "init_declaration" || LifecycleConversion.setUps.contains($0.child(field: "name")?.text ?? "") } ?? true) {
            let trait = name == "XCTSkipIf" ? "disabled" : "enabled"
            let text = ".\(trait)(if: \(condition.text)\(message.map { ", " + $0 } ?? ""))"
            return .converted(.removal(TidyRemoval.range(removing: statement.byteRange, in: call.tree.source)), trait: (test.byteRange.lowerBound, text))
        }
        let test = name == "XCTSkipIf" ? condition.text : "!" + AssertionConversion.wrapped(condition, beforeLooseness: 190)
        return .converted(Edit(range: statement.byteRange, replacement: "if \(test) { try Test.cancel(\(message ?? "")) }"), trait: nil)
    }

    /// The names a type body declares.
    static func memberNames(_ body: Node) -> Set<String> {
        Set(body.children.compactMap { $0.child(field: "name")?.text })
    }

    /// Whether a condition may read the instance: `self`, a member by its name, or any bare name
    /// that is not a type's (a member an extension declares, elsewhere, looks like a global).
    static func usesInstance(_ condition: Node, members: Set<String>) -> Bool {
        var uses = false
        condition.walk { node in
            if node.kind == "self_expression" { uses = true }
            if node.kind == "simple_identifier", members.contains(node.text) || node.text == "self" || node.text.first?.isUppercase != true { uses = true }
            if node.kind == "navigation_suffix" { return false }
            return !uses
        }
        return uses
    }
}
