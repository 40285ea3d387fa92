import SwiftTree

/// One XCTest assertion call written in Swift Testing, following Apple's table
/// (https://developer.apple.com/documentation/testing/migratingfromxctest): `XCTAssertEqual(a, b)`
/// is `#expect(a == b)`, `XCTUnwrap(x)` is `try #require(x)`, `XCTFail("m")` is
/// `Issue.record("m")`. Operands keep their text (several lines too) and are parenthesised where
/// the new operator binds tighter (`XCTAssertFalse(a || b)` → `#expect(!(a || b))`); a message is
/// kept as the comment (`#expect(a == b, "message")`).
///
/// What has no Swift Testing form is not converted, with the reason: `accuracy:`, an error
/// `file:`/`line:` (the helper passing them on is what changes). An error handler closure
/// becomes the body of `if let error = #expect(throws: (any Error).self, performing: { … })`.
public enum AssertionConversion {
    /// The result: the new call's text, or why the call stays as it is.
    public enum Outcome: Equatable {
        case converted(String)
        case notConverted(reason: String)
    }

    /// The assertions converted, by name: the operator between two operands, or the shape.
    enum Shape {
        case truth            // XCTAssert, XCTAssertTrue
        case negation         // XCTAssertFalse
        case comparison(String, nil: Bool = false)  // XCTAssertEqual … (== nil for XCTAssertNil)
        case unwrap           // XCTUnwrap
        case fail             // XCTFail
        case noThrow          // XCTAssertNoThrow
        case throwsError      // XCTAssertThrowsError
    }

    static let shapes: [String: Shape] = [
        "XCTAssert": .truth, "XCTAssertTrue": .truth, "XCTAssertFalse": .negation,
        "XCTAssertNil": .comparison("==", nil: true), "XCTAssertNotNil": .comparison("!=", nil: true),
        "XCTAssertEqual": .comparison("=="), "XCTAssertNotEqual": .comparison("!="),
        "XCTAssertIdentical": .comparison("==="), "XCTAssertNotIdentical": .comparison("!=="),
        "XCTAssertGreaterThan": .comparison(">"), "XCTAssertGreaterThanOrEqual": .comparison(">="),
        "XCTAssertLessThan": .comparison("<"), "XCTAssertLessThanOrEqual": .comparison("<="),
        "XCTUnwrap": .unwrap, "XCTFail": .fail, "XCTAssertNoThrow": .noThrow, "XCTAssertThrowsError": .throwsError,
    ]

    /// The names of the XCTest functions this converts.
    public static var names: Set<String> { Set(shapes.keys) }

    /// The Swift Testing form of an assertion call (a `call_expression` whose function is one of
    /// `names`), or why it has none.
    /// - Parameter location: the names of the caller's location a helper hands on (`file: file,
    ///   line: line` becomes `sourceLocation: sourceLocation`); by default the one around the call.
    public static func convert(_ call: Node) -> Outcome {
        convert(call, location: LocationNames.around(call))
    }

    static func convert(_ call: Node, location: LocationNames?) -> Outcome {
        let outcome = convertOnOneLine(call, location: location)
        guard case let .converted(text) = outcome else { return outcome }
        return .converted(laidOut(text, like: call))
    }

    /// A call whose arguments start on the line after its `(`, and span several lines, keeps that shape:
    /// `#expect(\n    a\n        .count == 2\n)`, the arguments where they were.
    static func laidOut(_ text: String, like call: Node) -> String {
        let prefixes = ["#expect(", "try #require("]
        guard let prefix = prefixes.first(where: text.hasPrefix), text.hasSuffix(")"), !text.contains("performing:"),
              let list = call.child(at: 1)?.children.first(where: { $0.kind == "value_arguments" }),
              let open = list.children.first, open.kind == "(",
              let first = list.children.first(where: { $0.kind == "value_argument" }),
              first.start.line > open.start.line else { return text }
        let source = call.tree.source
        func indentation(ofLineAt offset: Int) -> String {
            var start = offset
            while start > 0, source.bytes[start - 1] != 0x0A { start -= 1 }
            var end = start
            while end < source.bytes.count, source.bytes[end] == 0x20 || source.bytes[end] == 0x09 { end += 1 }
            return String(decoding: source.bytes[start..<end], as: UTF8.self)
        }
        let inner = text.dropFirst(prefix.count).dropLast()
        // What fits on one line is written on one.
        guard inner.contains("\n") else { return text }
        return prefix + "\n" + indentation(ofLineAt: first.byteRange.lowerBound) + inner + "\n" + indentation(ofLineAt: call.byteRange.lowerBound) + ")"
    }

    static func convertOnOneLine(_ call: Node, location: LocationNames?) -> Outcome {
        guard call.kind == "call_expression", let function = call.child(at: 0), let shape = shapes[function.text],
              let suffix = call.child(at: 1), suffix.kind == "call_suffix" else {
            return .notConverted(reason: "not an XCTest assertion call")
        }
        var arguments: [(label: String?, value: Node)] = []
        var closure: Node?
        for part in suffix.children {
            if part.kind == "value_arguments" {
                for argument in part.children where argument.kind == "value_argument" {
                    guard let value = argument.child(field: "value") else { continue }
                    arguments.append((argument.child(field: "name")?.text, value))
                }
            } else if part.kind == "lambda_literal" || part.kind == "annotated_lambda" {
                closure = part
            }
        }
        var handsOnLocation: String?
        for labelled in arguments where labelled.label != nil {
            switch labelled.label {
            case "accuracy":
                return .notConverted(reason: "`accuracy:` has no Swift Testing form (compare the distance yourself: #expect(abs(a - b) <= accuracy))")
            case "file", "line":
                guard let passed = LocationArguments.of(call, scope: location, assertion: true), let replacement = passed.replacement else {
                    return .notConverted(reason: "`file:`/`line:` other than a helper's own `file`/`line` handed on (which become `sourceLocation: sourceLocation`) have no Swift Testing form")
                }
                handsOnLocation = replacement
            default:
                return .notConverted(reason: "the argument `\(labelled.label ?? ""):` has no Swift Testing form")
            }
        }
        arguments.removeAll { $0.label == "file" || $0.label == "line" }
        let positional = arguments.map(\.value)
        let operandCount: Int
        switch shape {
        case .fail: operandCount = 0
        case .comparison(_, nil: false): operandCount = 2
        default: operandCount = 1
        }
        guard positional.count >= operandCount, positional.count <= operandCount + 1 else {
            return .notConverted(reason: "\(function.text) with \(positional.count) arguments is not a form this converts")
        }
        let operands = positional.prefix(operandCount).map { $0 }
        let message = positional.count > operandCount ? comment(positional[operandCount]) : nil
        let extras = (message.map { ", " + $0 } ?? "") + (handsOnLocation.map { ", " + $0 } ?? "")
        switch shape {
        case .truth:
            // `#expect` cannot expand `==` on metatypes (`Any.Type`): the comparison stays whole.
            let condition = comparesMetatypes(operands[0]) ? "Bool(\(operands[0].text))" : operands[0].text
            return .converted("#expect(\(condition)\(extras))")
        case .negation:
            return .converted("#expect(!\(wrapped(operands[0], beforeLooseness: 190))\(extras))")
        case let .comparison(op, isNil):
            let precedence = OperatorPrecedence.of(operator: op) ?? 130
            let left = wrapped(operands[0], context: OperatorContext(before: nil, after: precedence))
            let right = isNil ? "nil" : wrapped(operands[1], context: OperatorContext(before: precedence, after: nil))
            return .converted("#expect(\(left) \(op) \(right)\(extras))")
        case .unwrap:
            return .converted("try #require(\(operands[0].text)\(extras))")
        case .fail:
            let parts = [message, handsOnLocation].compactMap { $0 }
            return .converted("Issue.record(\(parts.joined(separator: ", ")))")
        case .noThrow:
            guard closure == nil else { return .notConverted(reason: "a trailing closure after XCTAssertNoThrow") }
            return .converted("#expect(throws: Never.self\(extras)) { \(tried(operands[0])) }")
        case .throwsError:
            guard let closure else {
                return .converted("#expect(throws: (any Error).self\(extras)) { \(tried(operands[0])) }")
            }
            // A handler that does nothing (`{ _ in }`) is no handler.
            if Self.isEmptyHandler(closure) {
                return .converted("#expect(throws: (any Error).self\(extras)) { \(tried(operands[0])) }")
            }
            // The handler runs with the error when one is thrown: `if let error = #expect(…) { … }`.
            return handled(closure, expecting: "#expect(throws: (any Error).self\(extras), performing: { \(tried(operands[0])) })")
        }
    }

    /// `XCTAssertThrowsError(…) { error in … }` as `if let error = #expect(throws: …) { … }`, with
    /// the handler's assertions converted too.
    static func handled(_ closure: Node, expecting expectation: String) -> Outcome {
        let children = closure.children
        guard let open = children.first, open.kind == "{", let close = children.last, close.kind == "}" else {
            return .notConverted(reason: "the error handler is not a closure literal")
        }
        // The parameter: `error in`, `(error) in`, `_ in`, or none (then `$0` would name it).
        var name = "_"
        var headerEnd = open.byteRange.upperBound
        if let inToken = children.first(where: { $0.kind == "in" }) {
            let parameters = children.first { $0.kind == "lambda_function_type" }
            let names = parameters.map { Self.parameterNames($0) } ?? []
            guard names.count == 1 else { return .notConverted(reason: "the error handler takes \(names.count) parameters") }
            name = names[0]
            headerEnd = inToken.byteRange.upperBound
        }
        if closure.text.contains("$0") { return .notConverted(reason: "the error handler uses $0: name its parameter first") }
        // A `return` in the handler leaves the handler; in an `if` it would leave the test.
        var returns = false
        closure.walk { node in
            if node != closure, ["lambda_literal", "function_declaration", "computed_property"].contains(node.kind) { return false }
            if node.kind == "control_transfer_statement", node.children.first?.text == "return" { returns = true }
            return !returns
        }
        if returns { return .notConverted(reason: "the error handler returns, which in the converted `if` would leave the test") }
        let source = closure.tree.source
        // The body, with its own assertions converted.
        var body = ""
        var cursor = headerEnd
        var problem: String?
        var calls: [Node] = []
        closure.walk { node in
            if node.kind == "call_expression", let function = node.child(at: 0), shapes[function.text] != nil {
                calls.append(node)
                return false
            }
            return true
        }
        for call in calls {
            switch convert(call, location: LocationNames.around(call)) {
            case let .converted(text):
                body += source.text(in: cursor..<call.byteRange.lowerBound) + text
                cursor = call.byteRange.upperBound
            case let .notConverted(reason):
                problem = problem ?? "in the error handler, \(call.child(at: 0)?.text ?? "an assertion"): \(reason)"
            }
        }
        if let problem { return .notConverted(reason: problem) }
        body += source.text(in: cursor..<close.byteRange.lowerBound)
        let binding = name == "_" ? "" : "let \(name) = "
        let condition = name == "_" ? "\(expectation) != nil" : "\(binding)\(expectation)"
        return .converted("if \(condition) {\(body)}")
    }

    /// Whether a closure holds no statement (`{ _ in }`, `{ }`).
    static func isEmptyHandler(_ closure: Node) -> Bool {
        guard let literal = closure.kind == "lambda_literal" ? closure : closure.children.first(where: { $0.kind == "lambda_literal" }) else { return false }
        return !literal.children.contains { $0.kind == "statements" || $0.kind == "comment" || $0.kind == "multiline_comment" }
    }

    /// The names a closure's parameter clause declares (`error`, `(error)`).
    static func parameterNames(_ type: Node) -> [String] {
        var names: [String] = []
        type.walk { node in
            if node.kind == "lambda_parameter" {
                names.append(node.child(field: "name")?.text ?? node.text)
                return false
            }
            return true
        }
        return names
    }

    /// Whether an expression compares values that the function around it declares as metatypes
    /// (`expected == actual` with `_ expected: Any.Type`).
    static func comparesMetatypes(_ node: Node) -> Bool {
        guard node.kind == "equality_expression",
              let function = node.ancestors.first(where: { $0.kind == "function_declaration" }) else { return false }
        let metatypes = Set(function.children.filter { $0.kind == "parameter" }.compactMap { parameter -> String? in
            guard let type = parameter.children(field: "name").last, type.kind == "metatype" || type.text.hasSuffix(".Type") else { return nil }
            return parameter.child(field: "name")?.text
        })
        return node.namedChildren.contains { metatypes.contains($0.text) }
    }

    /// An operand's text, in parentheses where the operators around it need them.
    static func wrapped(_ node: Node, context: OperatorContext) -> String {
        // `try` covers everything to its right, and may not stand right of an operator:
        // `!(try f().isEmpty)`, `64 == (try f().bitWidth)`, `(try? f()) == nil`.
        // (The grammar reads `try f().x` as a member of `try f()`: the text tells.)
        if node.kind == "try_expression" || node.text.hasPrefix("try ") || node.text.hasPrefix("try?") || node.text.hasPrefix("try!") {
            return "(" + node.text + ")"
        }
        guard let looseness = OperatorPrecedence.loosest(node), context.needsParentheses(looseness) else { return node.text }
        return "(" + node.text + ")"
    }

    static func wrapped(_ node: Node, beforeLooseness precedence: Int) -> String {
        wrapped(node, context: OperatorContext(before: precedence, after: nil))
    }

    /// An expression for a throwing closure: `try` in front unless it has one (`try f()`, `try? …`).
    static func tried(_ node: Node) -> String {
        let text = node.text
        return node.kind == "try_expression" || text.hasPrefix("try ") ? text : "try " + text
    }

    /// A message as a `Comment`: a string literal as it is, other expressions as `Comment(rawValue:)`.
    static func comment(_ node: Node) -> String {
        node.kind.hasSuffix("string_literal") ? node.text : "Comment(rawValue: \(node.text))"
    }
}
