import SwiftTree

/// The edits that write a piece of test code (a test class's body, a helper function, a type
/// that stores a location) in Swift Testing: its XCTest assertions (`AssertionConversion`), the
/// `file:`/`line:` parameters of its functions as one `sourceLocation:`, the locations it hands
/// on, and the location a type stores (`LocationForwarding`). All of it converts, or none.
enum HelperConversion {
    enum Outcome {
        /// The edits, how many assertions they convert, and the traits tests take (by the
        /// offset where the test starts).
        case converted([Edit], assertions: Int, traits: [Int: String] = [:])
        case notConverted(String)
    }

    /// - Parameter requiring: where assertions stop their test on failure (after
    ///   `continueAfterFailure = false`): `try #require` instead of `#expect`.
    static func edits(in code: Node, requiring: [Range<Int>] = []) -> Outcome {
        // Code the parser could not read is left as it is.
        // (As the safety net counts them: the grammar's `()` quirk is no error.)
        if let region = code.tree.errorRegions.first(where: { $0.byteRange.overlaps(code.byteRange) }) {
            return .notConverted("it holds a syntax error (line \(code.tree.source.location(ofByte: region.byteRange.lowerBound).line))")
        }
        var edits: [Edit] = []
        var assertions = 0
        var traits: [Int: String] = [:]
        var problem: String?
        let source = code.tree.source
        code.walk { node in
            guard problem == nil else { return false }
            switch node.kind {
            case "call_expression":
                guard let function = node.child(at: 0) else { return true }
                if SkipConversion.names.contains(function.text) {
                    switch SkipConversion.convert(node) {
                    case let .converted(edit, trait):
                        edits.append(edit)
                        if let trait { traits[trait.test] = trait.text }
                    case let .notConverted(reason):
                        problem = "\(function.text) at line \(node.start.line): \(reason)"
                    }
                    return false
                }
                if function.text == "XCTExpectFailure" {
                    // `XCTExpectFailure("why") { … }` → `withKnownIssue("why") { … }`; its assertions below.
                    guard let known = Self.knownIssue(node) else {
                        problem = "XCTExpectFailure at line \(node.start.line): only its form with a closure (and a reason, `strict:`) has a Swift Testing form, `withKnownIssue`"
                        return false
                    }
                    edits += known
                    return true
                }
                if AssertionConversion.names.contains(function.text) {
                    switch Self.assertionEdit(node, requiring: requiring) {
                    case let .converted(edit, throwing, count):
                        edits.append(edit)
                        if let throwing, !edits.contains(throwing) { edits.append(throwing) }
                        assertions += count
                    case let .notConverted(reason):
                        problem = reason
                    }
                    return false
                }
                if let passed = LocationArguments.of(node, scope: LocationNames.around(node)), let replacement = passed.replacement {
                    edits.append(Edit(range: passed.range, replacement: replacement))
                }
                return true
            case "function_declaration":
                if let parameters = LocationParameters.of(node) {
                    if let why = parameters.problem {
                        problem = "`\(node.child(field: "name")?.text ?? "?")`: \(why)"
                        return false
                    }
                    edits.append(Edit(range: parameters.range, replacement: parameters.replacement))
                }
                return true
            case "class_declaration":
                if let stored = StoredLocation.of(node) {
                    if let why = StoredLocation.problem(of: node) {
                        problem = why
                        return false
                    }
                    edits += XCTestFileConversion.storedLocationEdits(stored, in: source)
                }
                return true
            default:
                return true
            }
        }
        if let problem { return .notConverted(problem) }
        return .converted(edits, assertions: assertions, traits: traits)
    }

    /// One assertion's conversion: its edit, the edit that makes its function throw when it
    /// needs one, and how many assertions it converts (an `XCTUnwrap` inside counts too).
    enum AssertionEdit {
        case converted(Edit, throwing: Edit?, assertions: Int)
        case notConverted(String)
    }

    /// An XCTest assertion call in Swift Testing, in the code around it: nested assertions,
    /// comments between its arguments, `continueAfterFailure = false` (`requiring`), operands
    /// that throw, `try`, `for … in` and `return` around it.
    static func assertionEdit(_ node: Node, requiring: [Range<Int>]) -> AssertionEdit {
        let name = node.child(at: 0)?.text ?? ""
        let site = "\(name) at line \(node.start.line)"
        // `XCTAssertEqual(try XCTUnwrap(x), 4)`: the inner unwrap is `#require` inside the new
        // call; another assertion inside one has no form.
        var unwraps: [Node] = []
        var nested: Node?
        node.child(at: 1)?.walk { inner in
            guard nested == nil, inner.kind == "call_expression", let innerName = inner.child(at: 0)?.text,
                  AssertionConversion.names.contains(innerName), !isInHandler(inner, of: node) else { return nested == nil }
            // `XCTUnwrap` under its `try`, or an assertion in a closure (`XCTAssertNoThrow(try { … }())`).
            if innerName == "XCTUnwrap" && inner.parent?.kind == "try_expression"
                || inner.ancestors.contains(where: { $0.kind == "lambda_literal" && node.byteRange.contains($0.byteRange.lowerBound) }) {
                unwraps.append(inner)
            } else {
                nested = inner
            }
            return false
        }
        if let nested {
            return .notConverted("\(site) holds another assertion (\(nested.child(at: 0)?.text ?? "")) in its arguments")
        }
        // Comments between the arguments, which the new call has no place for, go on the lines
        // before it.
        let comments = argumentComments(node)
        if !comments.isEmpty, !startsItsLine(node) {
            return .notConverted("\(site) has comments between its arguments, inside an expression")
        }
        var text: String
        switch AssertionConversion.convert(node) {
        case let .converted(converted): text = converted
        case let .notConverted(reason): return .notConverted("\(site): \(reason)")
        }
        var count = 1
        for unwrap in unwraps {
            let innerName = unwrap.child(at: 0)?.text ?? ""
            guard case let .converted(inner) = AssertionConversion.convert(unwrap), !holdsAssertion(unwrap),
                  innerName != "XCTUnwrap" || inner.hasPrefix("try "), let at = text.range(of: unwrap.text) else {
                return .notConverted("\(site): the \(innerName) in its arguments is not in a form this converts")
            }
            text.replaceSubrange(at, with: innerName == "XCTUnwrap" ? String(inner.dropFirst("try ".count)) : inner)
            count += 1
        }
        if !comments.isEmpty {
            let indentation = TestClassConversion.indentation(of: node)
            text = comments.map { $0 + "\n" + indentation }.joined() + text
        }
        var throwing: Edit?
        /// Why the function around cannot be made to throw, or nil (`throwing` set when it must).
        func makeThrow(_ context: String) -> String? {
            switch throwingEdit(around: node) {
            case .none: return nil
            case let .edit(edit):
                throwing = edit
                return nil
            case let .problem(why): return "\(site)\(context)\(why)"
            }
        }
        // Stopping the test on failure (`try #require`) makes it throw.
        if requiring.contains(where: { $0.contains(node.byteRange.lowerBound) }) {
            guard let required = Self.requiring(text) else {
                return .notConverted("\(site) after `continueAfterFailure = false`: its error handler has no form that stops the test here")
            }
            text = required
            if let problem = makeThrow(" after `continueAfterFailure = false`: ") { return .notConverted(problem) }
        }
        // XCTest catches what an assertion's operands throw; `#expect(try …)` needs a test that
        // throws (and records the error as XCTest did).
        if !text.hasPrefix("try "), !text.hasPrefix("#expect(throws:"), !text.hasPrefix("if "), holdsTry(node),
           let problem = makeThrow(": ") {
            return .notConverted(problem)
        }
        // `XCTUnwrap` is called with `try` already: `try #require` once.
        var range = node.byteRange
        if text.hasPrefix("try "), let parent = node.parent, parent.kind == "try_expression", parent.child(at: 0)?.text == "try",
           parent.byteRange.upperBound == range.upperBound {
            range = parent.byteRange.lowerBound..<range.upperBound
        }
        // `for x in try #require(xs)`: parenthesised (the grammar reads the macro there as the
        // loop's body).
        if text.hasPrefix("try "), node.ancestors.first(where: { $0.kind != "try_expression" })?.kind == "for_statement" {
            text = "(" + text + ")"
        }
        // `return XCTFail("m")` (XCTFail returns nothing; `Issue.record` returns the issue).
        if text.hasPrefix("Issue.record") || text.hasPrefix("try #require(Bool(false)"), let statement = node.parent,
           statement.kind == "control_transfer_statement", statement.children.first?.text == "return" {
            range = statement.byteRange
            text += "; return"
        }
        return .converted(Edit(range: range, replacement: text), throwing: throwing, assertions: count)
    }

    /// `XCTExpectFailure("why", strict: false) { … }` as `withKnownIssue("why", isIntermittent: true) { … }`:
    /// the edits of its name and arguments, or nil for another form.
    static func knownIssue(_ call: Node) -> [Edit]? {
        guard let callee = call.child(at: 0), let suffix = call.child(at: 1), suffix.kind == "call_suffix",
              suffix.children.contains(where: { $0.kind == "lambda_literal" || $0.kind == "annotated_lambda" }) else { return nil }
        var edits = [Edit(range: callee.byteRange, replacement: "withKnownIssue")]
        let arguments = suffix.children.first { $0.kind == "value_arguments" }?.children.filter { $0.kind == "value_argument" } ?? []
        for argument in arguments {
            guard let value = argument.child(field: "value") else { return nil }
            switch argument.child(field: "name")?.text {
            case nil:
                if !value.kind.hasSuffix("string_literal") { edits.append(Edit(range: value.byteRange, replacement: AssertionConversion.comment(value))) }
            case "strict":
                guard value.text == "true" || value.text == "false" else { return nil }
                edits.append(Edit(range: argument.byteRange, replacement: "isIntermittent: \(value.text == "true" ? "false" : "true")"))
            default:
                return nil
            }
        }
        return edits
    }

    /// An assertion's Swift Testing form that stops the test on failure: `#expect(…)` →
    /// `try #require(…)`, `Issue.record(…)` → `try #require(Bool(false), …)`; nil for the error
    /// handler's `if let error = #expect(…)`.
    static func requiring(_ text: String) -> String? {
        if text.hasPrefix("try ") { return text }
        if text.hasPrefix("#expect(") { return "try #require(" + text.dropFirst("#expect(".count) }
        if text.hasPrefix("Issue.record(") {
            let rest = text.dropFirst("Issue.record(".count)
            return "try #require(Bool(false)" + (rest == ")" ? ")" : ", " + rest)
        }
        return nil
    }

    /// The comments between a call's arguments (not inside them), in order.
    static func argumentComments(_ call: Node) -> [String] {
        guard let suffix = call.child(at: 1) else { return [] }
        var comments: [String] = []
        for part in suffix.children {
            for child in [part] + part.children + part.children.flatMap(\.children) where child.kind == "comment" || child.kind == "multiline_comment" {
                if !comments.contains(child.text) { comments.append(child.text) }
            }
        }
        return comments
    }

    /// Whether only blanks stand before a node on its line.
    static func startsItsLine(_ node: Node) -> Bool {
        let bytes = node.tree.source.bytes
        var index = node.byteRange.lowerBound
        while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
        return index == 0 || bytes[index - 1] == 0x0A
    }

    /// Whether an assertion's arguments hold another assertion.
    static func holdsAssertion(_ call: Node) -> Bool {
        var found = false
        call.child(at: 1)?.walk { node in
            if node.kind == "call_expression", let name = node.child(at: 0)?.text, AssertionConversion.names.contains(name) { found = true }
            return !found
        }
        return found
    }

    /// Whether an assertion's arguments hold a `try` outside closures.
    static func holdsTry(_ call: Node) -> Bool {
        var found = false
        call.child(at: 1)?.walk { node in
            if node.kind == "lambda_literal" || found { return false }
            // `try?` and `try!` throw nothing.
            if node.kind == "try_expression", node.child(at: 0)?.text == "try" { found = true }
            return !found
        }
        return found
    }

    enum ThrowingEdit { case none, edit(Edit), problem(String) }

    /// What makes the function around an assertion with `try` throw: nothing when it throws, ` throws`
    /// after the parameters of a test, else why not.
    static func throwingEdit(around node: Node) -> ThrowingEdit {
        guard let function = node.ancestors.first(where: { $0.kind == "function_declaration" || $0.kind == "lambda_literal" }),
              function.kind == "function_declaration" else {
            return .problem("an assertion whose operands throw inside a closure (`#expect(try …)` would make the closure throw)")
        }
        if function.children.contains(where: { $0.kind == "throws" }) { return .none }
        guard let name = function.child(field: "name")?.text, TestClassConversion.isTest(function, named: name),
              let close = function.children.last(where: { $0.kind == ")" || $0.kind == "async" }) else {
            return .problem("an assertion whose operands throw in `\(function.child(field: "name")?.text ?? "a function")`, which does not throw")
        }
        return .edit(Edit(range: close.byteRange.upperBound..<close.byteRange.upperBound, replacement: " throws"))
    }

    /// Whether an assertion inside another's call is in its error handler closure (which the
    /// conversion converts with it).
    static func isInHandler(_ inner: Node, of outer: Node) -> Bool {
        var current = inner.parent
        while let node = current, node != outer {
            if node.kind == "lambda_literal" || node.kind == "annotated_lambda" {
                return node.parent?.kind == "call_suffix" && node.parent?.parent == outer
            }
            current = node.parent
        }
        return false
    }
}
