import Foundation
import SwiftTree

/// A test class's setup and teardown in Swift Testing, where a suite makes one instance per test:
/// `setUp()`/`setUpWithError()` (also `async`) becomes `init()` (`throws`, `async` as they were),
/// `tearDown()` becomes `deinit` (so the suite is a `final class`), without their `super` calls.
/// An implicitly unwrapped property that `init` sets before anything else runs
/// (`var parser: Parser!` with `parser = Parser()`) becomes non-optional (`var parser: Parser`),
/// and its `parser = nil` in teardown goes (the instance goes with the test).
struct LifecycleConversion {
    var edits: [Edit] = []
    /// Where XCTestCase's names are taken care of (the methods' names, their `super` calls): not
    /// uses of XCTestCase's API that keep the class.
    var handled: Set<Int> = []
    /// Whether the suite needs a `deinit`, hence a class.
    var needsClass = false
    /// Whether the suite sets up or tears down (an `init` or a `deinit` made of them).
    var hasSetUpOrTearDown = false

    static let setUps: Set<String> = ["setUp", "setUpWithError"]
    static let tearDowns: Set<String> = ["tearDown", "tearDownWithError"]

    /// The conversion, or why the class stays XCTest.
    /// - Parameter keepingOptionals: leave implicitly unwrapped properties as they are (the class
    ///   has extensions, which may unwrap them).
    static func of(_ body: Node, keepingOptionals: Bool = false) -> Result<LifecycleConversion, LifecycleProblem> {
        var result = LifecycleConversion()
        let source = body.tree.source
        let methods = body.children.filter { member in
            member.kind == "function_declaration" && (setUps.union(tearDowns)).contains(member.child(field: "name")?.text ?? "")
        }
        guard !methods.isEmpty else { return .success(result) }
        if body.children.contains(where: { $0.kind == "init_declaration" || $0.kind == "deinit_declaration" }) {
            return .failure(LifecycleProblem("it has an `init` or `deinit` of its own beside `setUp`/`tearDown`"))
        }
        for method in methods where modifierWords(method).contains(where: { $0 == "class" || $0 == "static" }) {
            return .failure(LifecycleProblem("its `class func \(method.child(field: "name")?.text ?? "")` runs once for all its tests, which a suite has no hook for here"))
        }
        let setUp = methods.filter { setUps.contains($0.child(field: "name")?.text ?? "") }
        let tearDown = methods.filter { tearDowns.contains($0.child(field: "name")?.text ?? "") }
        guard setUp.count <= 1, tearDown.count <= 1 else {
            return .failure(LifecycleProblem("it has both `setUp` and `setUpWithError` (or both teardowns)"))
        }
        var nonOptional: Set<String> = []
        if let method = setUp.first {
            guard let header = header(of: method), let statements = statements(of: method) else {
                return .failure(LifecycleProblem("its `setUp` is not in a form this converts"))
            }
            let name = method.child(field: "name")?.text ?? "setUp"
            result.handled.insert(method.child(field: "name")!.byteRange.lowerBound)
            let isAsync = method.children.contains { $0.kind == "async" }
            let throwing = name == "setUpWithError" || method.children.contains { $0.kind == "throws" }
            let effects = (isAsync ? " async" : "") + (throwing ? " throws" : "")
            // `super.setUp()` goes, and so does `continueAfterFailure = false` (its assertions become `#require`).
            let supers = statements.filter { isSuperCall($0, to: setUps) || isStopOnFailure($0) }
            for statement in supers { result.handled.formUnion(identifierOffsets(statement)) }
            if supers.count == statements.count {
                // Nothing to set up but XCTestCase's own: no init.
                result.edits.append(.removal(memberRemoval(method, in: source)))
            } else {
                result.edits.append(Edit(range: header, replacement: attributes(of: method) + "init()" + effects + " "))
                result.hasSetUpOrTearDown = true
                for statement in supers { result.edits.append(.removal(TidyRemoval.range(removing: statement.byteRange, in: source))) }
            }
            nonOptional = keepingOptionals ? [] : implicitlyUnwrappedSetFirst(in: body, by: statements.filter { !isSuperCall($0, to: setUps) && !isStopOnFailure($0) })
            for property in nonOptional.sorted() {
                guard let declaration = storedProperty(named: property, in: body),
                      let bang = declaration.children.first(where: { $0.kind == "type_annotation" })?.children.last, bang.kind == "!" else { continue }
                result.edits.append(.removal(bang.byteRange))
            }
        }
        if let method = tearDown.first {
            guard let header = header(of: method), let statements = statements(of: method) else {
                return .failure(LifecycleProblem("its `tearDown` is not in a form this converts"))
            }
            let name = method.child(field: "name")?.text ?? "tearDown"
            if method.children.contains(where: { $0.kind == "async" }) {
                return .failure(LifecycleProblem("its `\(name)` is async, which `deinit` cannot be"))
            }
            var tried = false
            method.walk { node in
                if node.kind == "try_expression", node.child(at: 0)?.text == "try", !isSuperCall(node, to: tearDowns) { tried = true }
                return !tried
            }
            if tried { return .failure(LifecycleProblem("its `\(name)` throws, which `deinit` cannot")) }
            result.handled.insert(method.child(field: "name")!.byteRange.lowerBound)
            var kept = 0
            var removals: [Edit] = []
            for statement in statements {
                if isSuperCall(statement, to: tearDowns) {
                    result.handled.formUnion(identifierOffsets(statement))
                    removals.append(.removal(TidyRemoval.range(removing: statement.byteRange, in: source)))
                } else if let assigned = nilAssignment(statement), nonOptional.contains(assigned) {
                    removals.append(.removal(TidyRemoval.range(removing: statement.byteRange, in: source)))
                } else {
                    kept += 1
                }
            }
            if kept == 0 {
                // Nothing left to do when the test ends: no deinit, the instance goes with the test.
                result.edits.append(.removal(memberRemoval(method, in: source)))
            } else {
                result.edits.append(Edit(range: header, replacement: "deinit "))
                result.hasSetUpOrTearDown = true
                result.edits += removals
                result.needsClass = true
            }
        }
        return .success(result)
    }

    /// A member's lines, and a blank line around it when there is one on each side (so that
    /// one blank line stays between its neighbours).
    static func memberRemoval(_ member: Node, in source: SourceText) -> Range<Int> {
        let range = TidyRemoval.range(removing: member.byteRange, in: source)
        let bytes = source.bytes
        let newline = UInt8(ascii: "\n")
        var lineBefore = range.lowerBound - 1
        while lineBefore > 0, bytes[lineBefore - 1] == 0x20 || bytes[lineBefore - 1] == 0x09 || bytes[lineBefore - 1] == 0x0D { lineBefore -= 1 }
        // Right after `{` (or a blank line), a blank line after it goes too.
        let blankBefore = range.lowerBound >= 2 && bytes[range.lowerBound - 1] == newline
            && (bytes[range.lowerBound - 2] == newline || lineBefore > 0 && bytes[lineBefore - 1] == UInt8(ascii: "{"))
        if blankBefore, range.upperBound < bytes.count, bytes[range.upperBound] == newline { return range.lowerBound..<(range.upperBound + 1) }
        if blankBefore, range.upperBound + 1 < bytes.count, bytes[range.upperBound] == 0x0D, bytes[range.upperBound + 1] == newline {
            return range.lowerBound..<(range.upperBound + 2)
        }
        return range
    }

    /// From the method's start (its attributes and modifiers) to its body.
    static func header(of method: Node) -> Range<Int>? {
        guard let body = method.child(field: "body") else { return nil }
        return method.byteRange.lowerBound..<body.byteRange.lowerBound
    }

    /// The method's attributes (`@MainActor `), without its modifiers (`override`, `public`).
    static func attributes(of method: Node) -> String {
        guard let modifiers = method.children.first(where: { $0.kind == "modifiers" }) else { return "" }
        return modifiers.children.filter { $0.kind == "attribute" }.map { $0.text + " " }.joined()
    }

    static func modifierWords(_ method: Node) -> [String] {
        method.children.first { $0.kind == "modifiers" }?.children.map(\.text) ?? []
    }

    /// The statements of a method's body (empty for an empty body).
    static func statements(of method: Node) -> [Node]? {
        guard let body = method.child(field: "body") else { return nil }
        return body.children.first { $0.kind == "statements" }?.children.filter { $0.isNamed && $0.kind != "comment" } ?? []
    }

    /// `continueAfterFailure = false` (or `self.continueAfterFailure = false`).
    static func isStopOnFailure(_ statement: Node) -> Bool {
        assignedName(statement) == "continueAfterFailure" && statement.child(field: "result")?.text == "false"
    }

    /// `super.setUp()`, `try super.setUpWithError()`, `try await super.setUp()`.
    static func isSuperCall(_ statement: Node, to names: Set<String>) -> Bool {
        let text = statement.text.filter { !$0.isWhitespace }
        return names.contains { name in
            ["", "try", "await", "tryawait"].contains { text == "\($0)super.\(name)()" }
        }
    }

    static func identifierOffsets(_ node: Node) -> Set<Int> {
        var offsets: Set<Int> = []
        node.walk { child in
            if child.kind == "simple_identifier" { offsets.insert(child.byteRange.lowerBound) }
            return true
        }
        return offsets
    }

    /// `x = nil` or `self.x = nil`: the name.
    static func nilAssignment(_ statement: Node) -> String? {
        guard statement.kind == "assignment", let target = assignedName(statement),
              statement.child(field: "result")?.text == "nil" else { return nil }
        return target
    }

    /// The property an assignment sets (`x = …`, `self.x = …`).
    static func assignedName(_ statement: Node) -> String? {
        guard statement.kind == "assignment", let target = statement.child(field: "target") else { return nil }
        let text = target.text.filter { !$0.isWhitespace }
        let name = text.hasPrefix("self.") ? String(text.dropFirst(5)) : text
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? name : nil
    }

    /// A stored instance property's declaration.
    static func storedProperty(named name: String, in body: Node) -> Node? {
        body.children.first { member in
            member.kind == "property_declaration" && member.child(field: "name")?.text == name
                && !(member.children.first { $0.kind == "modifiers" }?.text.contains("static") ?? false)
        }
    }

    /// The implicitly unwrapped `var`s that setUp assigns first, before anything else runs (so a
    /// non-optional one is set before `self` is used), that nothing else assigns but a `nil` in
    /// teardown, and that no code unwraps or binds as an optional.
    static func implicitlyUnwrappedSetFirst(in body: Node, by statements: [Node]) -> Set<String> {
        let candidates = Set(body.children.compactMap { member -> String? in
            guard member.kind == "property_declaration", let name = member.child(field: "name")?.text,
                  member.children.contains(where: { $0.kind == "value_binding_pattern" && $0.text == "var" }),
                  !member.children.contains(where: { $0.kind == "computed_property" || $0.kind == "=" }),
                  !(member.children.first { $0.kind == "modifiers" }.map { $0.text.contains("static") || $0.text.contains("weak") || $0.text.contains("@") || $0.text.contains("lazy") } ?? false),
                  member.children.first(where: { $0.kind == "type_annotation" })?.children.last?.kind == "!" else { return nil }
            return name
        })
        guard !candidates.isEmpty else { return [] }
        let members = Set(body.children.compactMap { $0.child(field: "name")?.text })
        // The assignments setUp starts with, whose values use no member of the suite.
        var first: [String: Node] = [:]
        var assignedAsIs: Set<String> = []
        for statement in statements {
            guard let name = assignedName(statement), candidates.contains(name), first[name] == nil, !assignedAsIs.contains(name),
                  let value = statement.child(field: "result") else { break }

            var usesMember = false
            value.walk { node in
                if node.kind == "simple_identifier", members.contains(node.text) || node.text == "self" { usesMember = true }
                if node.kind == "self_expression" { usesMember = true }
                return !usesMember
            }
            if usesMember { break }
            // A value that cannot be optional: a literal, or `Type()` (no failable `init?` without
            // arguments is common); `URL(string:)` may be nil, and `parser = makeParser()` may be
            // too, so that property stays as it is (it is set, and the next may be converted).
            if isSurelyNonOptional(value) { first[name] = statement } else { assignedAsIs.insert(name) }
        }
        var result = Set(first.keys)
        // Not assigned elsewhere (but `= nil` in teardown), never unwrapped or bound.
        let source = body.tree.source
        body.walk { node in
            guard node.kind == "simple_identifier", result.contains(node.text), let parent = node.parent else { return true }
            if parent.kind == "pattern", parent.parent?.kind == "property_declaration" { return true }
            let after = node.byteRange.upperBound
            if after < source.bytes.count, source.bytes[after] == UInt8(ascii: "?") || source.bytes[after] == UInt8(ascii: "!") {
                result.remove(node.text)
                return true
            }
            var statement: Node? = node
            while let current = statement, current.kind != "assignment", current.parent?.kind != "statements" { statement = current.parent }
            if let statement, statement.kind == "assignment", assignedName(statement) == node.text,
               first[node.text] != statement, nilAssignment(statement) == nil || !isInTearDown(statement) {
                result.remove(node.text)
            }
            if node.ancestors.contains(where: { $0.kind == "if_statement" || $0.kind == "guard_statement" || $0.kind == "while_statement" }),
               let condition = node.ancestors.first(where: { $0.kind == "if_statement" || $0.kind == "guard_statement" || $0.kind == "while_statement" }),
               condition.text.range(of: "(let|var)\\s+(\(node.text)\\b|\\w+\\s*=\\s*(self\\.)?\(node.text)\\s*[,{])", options: .regularExpression) != nil {
                result.remove(node.text)
            }
            return true
        }
        return result
    }

    static func isSurelyNonOptional(_ value: Node) -> Bool {
        switch value.kind {
        case "array_literal", "dictionary_literal", "integer_literal", "real_literal", "boolean_literal", "line_string_literal", "multi_line_string_literal":
            return true
        case "call_expression":
            guard let callee = value.child(at: 0), callee.kind == "simple_identifier", callee.text.first?.isUppercase == true,
                  let arguments = value.child(at: 1)?.children.first(where: { $0.kind == "value_arguments" }) else { return false }
            return !arguments.children.contains { $0.kind == "value_argument" }
        default:
            return false
        }
    }

    static func isInTearDown(_ node: Node) -> Bool {
        node.ancestors.contains { $0.kind == "function_declaration" && tearDowns.contains($0.child(field: "name")?.text ?? "") }
    }
}

/// Why a class's setup or teardown keeps it XCTest.
struct LifecycleProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
