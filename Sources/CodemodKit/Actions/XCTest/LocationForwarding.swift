import Foundation
import SwiftTree

/// How an XCTest helper passes its caller's location on, and the Swift Testing form of it.
///
/// XCTest helpers take `file: StaticString = #filePath, line: UInt = #line` and hand them to
/// their assertions (`XCTAssertEqual(a, b, file: file, line: line)`), so that a failure points at
/// the test that called the helper. Swift Testing has one value for both:
/// `sourceLocation: SourceLocation = #_sourceLocation`, handed on as
/// `sourceLocation: sourceLocation`. A type that stores the two (`let file: StaticString`,
/// `let line: UInt`) stores one `let sourceLocation: SourceLocation`.
struct LocationNames: Equatable {
    /// The names the file and the line go by where an argument pair is read.
    var file: String
    var line: String

    /// The Swift Testing name for both.
    static let sourceLocation = "sourceLocation"
    static let parameter = "sourceLocation: SourceLocation = #_sourceLocation"
    static let argument = "sourceLocation: sourceLocation"

    /// The location a node inside a helper can hand on: the parameters of the nearest function
    /// that declares them (nested functions capture their outer function's), else the stored
    /// properties of the nearest type that holds them.
    static func around(_ node: Node) -> LocationNames? {
        var current = node.parent
        while let ancestor = current {
            if ancestor.kind == "function_declaration", let parameters = LocationParameters.of(ancestor), parameters.problem == nil {
                return LocationNames(file: parameters.fileName, line: parameters.lineName)
            }
            if ancestor.kind == "class_declaration", let stored = StoredLocation.of(ancestor) ?? StoredLocation.extended(by: ancestor) {
                return LocationNames(file: stored.fileName, line: stored.lineName)
            }
            current = ancestor.parent
        }
        return nil
    }
}

/// A function's `file:` and `line:` parameters, when it declares a `file: StaticString`.
struct LocationParameters {
    var fileName: String
    var lineName: String
    /// From the start of `file:` to the end of `line`'s default value: what one
    /// `sourceLocation:` parameter replaces.
    var range: Range<Int>
    /// Why the two are not in a form this converts, or nil.
    var problem: String?
    /// Whether they have defaults (`= #filePath`, `= #line`): the one parameter has one too.
    var hasDefaults = true

    /// The Swift Testing parameter that replaces them.
    var replacement: String { hasDefaults ? LocationNames.parameter : "sourceLocation: SourceLocation" }

    static func of(_ function: Node) -> LocationParameters? {
        let children = function.children
        guard let fileIndex = children.firstIndex(where: { isParameter($0, label: "file", type: "StaticString") }) else { return nil }
        let fileName = children[fileIndex].child(field: "name")?.text ?? "file"
        var result = LocationParameters(fileName: fileName, lineName: "line", range: children[fileIndex].byteRange)
        guard let lineIndex = children.firstIndex(where: { isParameter($0, label: "line", type: "UInt") }) else {
            result.problem = "it takes `file:` without `line:`"
            return result
        }
        result.lineName = children[lineIndex].child(field: "name")?.text ?? "line"
        // `file: StaticString = #filePath, line: UInt = #line`: the defaults, and nothing between.
        let defaults = function.children(field: "default_value")
        func isDefault(_ node: Node) -> Bool { defaults.contains(node) }
        let between = children[(fileIndex + 1)..<lineIndex].filter { $0.kind != "=" && $0.kind != "comment" }
        guard between.count == 1 && between[0].kind == "," || between.count == 2 && isDefault(between[0]) && between[1].kind == "," else {
            result.problem = "its `file:` and `line:` parameters are not side by side"
            return result
        }
        func defaultValue(after index: Int) -> Node? {
            children[(index + 1)...].prefix { $0.kind != "," && $0.kind != ")" && $0.kind != "parameter" }.first(where: isDefault)
        }
        let fileDefault = defaultValue(after: fileIndex)
        let lineDefault = defaultValue(after: lineIndex)
        result.range = children[fileIndex].byteRange.lowerBound..<(lineDefault ?? children[lineIndex]).byteRange.upperBound
        if fileDefault == nil, lineDefault == nil {
            result.hasDefaults = false
        } else if fileDefault == nil || lineDefault == nil {
            result.problem = "only one of its `file:` and `line:` has a default"
        } else if let fileDefault, !["#file", "#filePath", "#fileID"].contains(stripped(fileDefault.text)) {
            result.problem = "its `file:` defaults to `\(fileDefault.text)`"
        }
        return result
    }

    /// A use of the `file` or `line` parameter other than in a pair handed on (`"at \(line)"`),
    /// or nil.
    static func otherUse(of parameters: LocationParameters, in function: Node) -> String? {
        guard let body = function.child(field: "body") else { return nil }
        var handed: Set<Int> = []
        body.walk { node in
            if node.kind == "call_expression", let pair = LocationArguments.of(node, scope: LocationNames.around(node), assertion: true),
               pair.replacement != nil {
                node.walk { inner in
                    if inner.byteRange.lowerBound >= pair.range.lowerBound, inner.byteRange.upperBound <= pair.range.upperBound { handed.insert(inner.byteRange.lowerBound) }
                    return true
                }
            }
            return true
        }
        var other: String?
        body.walk { node in
            if other == nil, node.kind == "simple_identifier", node.text == parameters.fileName || node.text == parameters.lineName,
               node.parent?.kind != "navigation_suffix", node.parent?.kind != "value_argument_label", !handed.contains(node.byteRange.lowerBound) {
                other = node.text
            }
            return other == nil
        }
        return other
    }

    /// `file: StaticString` (no other outer label).
    static func isParameter(_ node: Node, label: String, type: String) -> Bool {
        guard node.kind == "parameter", let name = node.child(field: "name"), name.kind == "simple_identifier" else { return false }
        let external = node.child(field: "external_name")?.text
        guard external == nil ? name.text == label : external == label else { return false }
        let typeNode = node.children(field: "name").last
        return typeNode?.kind == "user_type" && (typeNode?.text == type || typeNode?.text == "Swift.\(type)")
    }

    /// A default or an argument without its parentheses (`(#file)` is `#file`).
    static func stripped(_ text: String) -> String {
        var text = Substring(text)
        while text.hasPrefix("("), text.hasSuffix(")") { text = text.dropFirst().dropLast() }
        return text.trimmingCharacters(in: .whitespaces)
    }
}

/// A type's stored `file: StaticString` and `line: UInt` (a validator that keeps the location of
/// the test that made it).
struct StoredLocation {
    var fileName: String
    var lineName: String
    var file: Node
    var line: Node

    /// The stored location of the type an extension extends, when it is declared in the same file.
    static func extended(by declaration: Node) -> StoredLocation? {
        // (Most files store no location: a byte search spares them the walk.)
        guard declaration.children.contains(where: { $0.kind == "extension" }),
              ByteSearch.contains(declaration.tree.source.bytes, Array("StaticString".utf8)),
              let name = declaration.child(field: "name")?.text.split(separator: ".").last.map(String.init) else { return nil }
        var found: StoredLocation?
        declaration.tree.root.walk { node in
            guard found == nil else { return false }
            if node.kind == "class_declaration", !node.children.contains(where: { $0.kind == "extension" }),
               node.child(field: "name")?.text == name, let stored = of(node) {
                found = stored
            }
            return found == nil && node.kind != "function_declaration"
        }
        return found
    }

    /// Why a type's stored location is not in a form this converts: an `init` of its own sets it.
    static func problem(of type: Node) -> String? {
        guard type.child(field: "body")?.children.contains(where: { $0.kind == "init_declaration" }) == true else { return nil }
        return "`\(type.child(field: "name")?.text ?? "?")` stores the location in an `init` of its own, which this conversion does not rewrite"
    }

    static func of(_ type: Node) -> StoredLocation? {
        guard let body = type.child(field: "body") else { return nil }
        var file: (String, Node)?
        var line: (String, Node)?
        for member in body.children where member.kind == "property_declaration" {
            guard let name = member.child(field: "name")?.text,
                  let annotation = member.children.first(where: { $0.kind == "type_annotation" })?.child(field: "name")?.text else { continue }
            if annotation == "StaticString", file == nil { file = (name, member) }
            if annotation == "UInt", name == "line" || name.lowercased().hasSuffix("line") { line = (name, member) }
        }
        guard let file, let line else { return nil }
        return StoredLocation(fileName: file.0, lineName: line.0, file: file.1, line: line.1)
    }
}

/// The `file: …, line: …` arguments of a call, when they hand on a location.
struct LocationArguments {
    /// From `file:` to the end of `line:`'s value.
    var range: Range<Int>
    /// What replaces them: `sourceLocation: sourceLocation` for the names of the location in
    /// scope, `sourceLocation: #_sourceLocation` for `#filePath`/`#line` written out, nil for
    /// anything else (they are then another API's `file:`/`line:`, left alone).
    var replacement: String?

    /// Whether they hand on a location.
    var forwardsScope: Bool { replacement != nil }

    /// - Parameter assertion: whether the call is an XCTest assertion, whose `line:` alone is a location too.
    static func of(_ call: Node, scope: @autoclosure () -> LocationNames?, assertion: Bool = false) -> LocationArguments? {
        guard let suffix = call.children.first(where: { $0.kind == "call_suffix" }),
              let list = suffix.children.first(where: { $0.kind == "value_arguments" }) else { return nil }
        let arguments = list.children.filter { $0.kind == "value_argument" }
        // (The scope, a walk up the tree, only for calls that pass a location.)
        guard arguments.contains(where: { ["file", "line"].contains($0.child(field: "name")?.text) }) else { return nil }
        let scope = scope()
        guard let fileIndex = arguments.firstIndex(where: { $0.child(field: "name")?.text == "file" }) else {
            guard assertion, let line = arguments.first(where: { $0.child(field: "name")?.text == "line" }), let value = line.child(field: "value") else { return nil }
            // `line: sample.line` alone: this file, at that line.
            let text = LocationParameters.stripped(value.text)
            return LocationArguments(range: line.byteRange, replacement: text == "#line" ? "sourceLocation: #_sourceLocation"
                : "sourceLocation: SourceLocation(fileID: #fileID, filePath: #filePath, line: Int(\(text)), column: 1)")
        }
        let file = arguments[fileIndex]
        guard fileIndex + 1 < arguments.count, arguments[fileIndex + 1].child(field: "name")?.text == "line" else {
            return LocationArguments(range: file.byteRange, replacement: nil)
        }
        let line = arguments[fileIndex + 1]
        let fileValue = file.child(field: "value").map { LocationParameters.stripped($0.text) }
        let lineValue = line.child(field: "value").map { LocationParameters.stripped($0.text) }
        let forwards = scope.map { fileValue == $0.file || fileValue == "self.\($0.file)" } == true
            && scope.map { lineValue == $0.line || lineValue == "self.\($0.line)" } == true
        let literal = ["#file", "#filePath", "#fileID"].contains(fileValue ?? "") && lineValue == "#line"
        return LocationArguments(range: file.byteRange.lowerBound..<line.byteRange.upperBound,
                                 replacement: forwards ? LocationNames.argument : literal ? "sourceLocation: #_sourceLocation" : nil)
    }
}
