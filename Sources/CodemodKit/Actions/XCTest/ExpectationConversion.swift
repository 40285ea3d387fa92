import SwiftTree

/// XCTest's expectations in Swift Testing, where the structure of a test allows it: an
/// expectation that the test fulfils in its own body, then waits for, is a `confirmation`.
///
///     let done = expectation(description: "parsed")        await confirmation("parsed") { done in
///     parser.parse(text)                                →      parser.parse(text)
///     if parser.finished { done.fulfill() }                    if parser.finished { done() }
///     wait(for: [done], timeout: 1)                        }
///
/// `confirmation` checks its count when its body returns and has no timeout, so it keeps a test's
/// result only where every fulfilment happens before the wait: in the test's own statements, or
/// in a closure that a synchronous function runs (`forEach`, `map`, …). An expectation fulfilled
/// in a callback (a completion handler, `DispatchQueue.async`, a delegate) may be fulfilled later,
/// while XCTest waits; there its class stays XCTest, with that reason.
///
/// Counts follow XCTest: `expectedFulfillmentCount = n` is `expectedCount: n`, `isInverted = true`
/// is `expectedCount: 0`, and an expectation that tolerates being fulfilled more often (one made
/// with `XCTestExpectation(description:)`, or `assertForOverFulfill = false`) is `expectedCount: n...`.
struct ExpectationConversion {
    /// One wait and the expectations it waits for: the statements from the first expectation's
    /// line to the wait become the body of nested `confirmation`s.
    struct Group {
        /// From the line of the first expectation to the end of the wait.
        let region: Range<Int>
        /// Where the wait's line starts (the body ends there).
        let bodyEnd: Int
        /// `confirmation("…") { name in`, one per expectation, outermost first (no `try await`).
        let headers: [String]
        let indentation: String
        let unit: String
        let lineEnding: String
        /// Declarations and settings removed, `name.fulfill()` → `name()`.
        let edits: [Edit]
        /// Whether the statements moved into the closure throw (`try`, `throw`).
        let `throws`: Bool
        /// Comments of what goes, written before the confirmation.
        let comments: [String]
    }

    /// The groups, by test.
    var groups: [Group] = []
    /// Where XCTestCase's names are converted (`expectation`, `wait`, `fulfillment`).
    var handled: Set<Int> = []
    /// ` async` for tests that were synchronous.
    var asyncEdits: [Edit] = []

    struct Problem: Error { let reason: String }

    /// Functions known to run a closure argument before they return, whatever they are called on.
    /// (Not `map`, `filter`, `first(where:)`, …: on a lazy sequence, an async sequence or a
    /// publisher they run it later, and the type is not known here.)
    static let synchronousCallers: Set<String> = [
        "forEach", "withExtendedLifetime", "autoreleasepool", "withUnsafePointer", "withUnsafeMutablePointer",
        "withUnsafeBytes", "withUnsafeMutableBytes", "withUnsafeBufferPointer", "withUnsafeMutableBufferPointer",
    ]

    static let waits: Set<String> = ["wait", "fulfillment", "waitForExpectations"]

    /// Whether a conversion's text holds `try` (not `try?` nor `try!`) or `throw` as a word.
    static func throwsIn(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        func isWord(_ index: Int) -> Bool {
            index >= 0 && index < scalars.count && (scalars[index].properties.isAlphabetic || scalars[index] == "_" || ("0"..."9").contains(scalars[index]))
        }
        for start in scalars.indices where !isWord(start - 1) {
            for word in ["try", "throw"] {
                let end = start + word.unicodeScalars.count
                guard end <= scalars.count, String(String.UnicodeScalarView(scalars[start..<end])) == word, !isWord(end) else { continue }
                if word == "try", end < scalars.count, scalars[end] == "?" || scalars[end] == "!" { continue }
                return true
            }
        }
        return false
    }

    /// The expectations of a test class's tests (or an extension's), or why one has no
    /// Swift Testing form.
    static func of(_ body: Node) -> Result<ExpectationConversion, Problem> {
        var conversion = ExpectationConversion()
        for member in body.children where member.kind == "function_declaration" {
            guard let name = member.child(field: "name")?.text, TestClassConversion.isTest(member, named: name) else { continue }
            do {
                try conversion.add(test: member)
            } catch let problem as Problem {
                return .failure(problem)
            } catch {
                return .failure(Problem(reason: "\(error)"))
            }
        }
        return .success(conversion)
    }

    // MARK: - Reading a test

    /// One expectation: where it is declared, how it counts.
    struct Expectation {
        let name: String
        let declaration: Node
        let callee: Node
        let comment: String
        /// Whether the description is a string literal without interpolation.
        let isPlainDescription: Bool
        var count = 1
        var inverted = false
        var strict: Bool
        var settings: [Node] = []
        var fulfilments: [Node] = []
    }

    mutating func add(test: Node) throws {
        var expectations: [Expectation] = []
        test.walk { node in
            if node.kind == "property_declaration", let expectation = Self.declaration(node) { expectations.append(expectation) }
            return true
        }
        var unread: Node?
        test.walk { node in
            if unread == nil, node.kind == "property_declaration", Self.declaration(node) == nil,
               node.children(field: "value").contains(where: { value in
                   value.kind == "call_expression" && ["expectation", "XCTestExpectation"].contains(value.child(at: 0).map(Self.lastName) ?? "")
               }) { unread = node }
            return unread == nil
        }
        if let unread, let testName = test.child(field: "name")?.text {
            throw Problem(reason: "an expectation of `\(testName)` (line \(unread.start.line)) is made in a form this conversion does not read (one `let` and `description:` per expectation)")
        }
        let waitCalls = Self.waitCalls(in: test)
        guard !expectations.isEmpty || !waitCalls.isEmpty else { return }
        guard let testName = test.child(field: "name")?.text else { return }
        if test.children.contains(where: { $0.kind == "throws_clause" }) {
            throw Problem(reason: "`\(testName)` has typed throws, which `try await confirmation` does not keep")
        }
        if let body = test.parent {
            var called = false
            body.walk { node in
                if node.kind == "simple_identifier", node.text == testName, node != test.child(field: "name") { called = true }
                return !called && !(node.kind == "property_declaration" && node.text.contains("allTests"))
            }
            if called { throw Problem(reason: "`\(testName)` is called by other code, which would have to await it once it waits for a `confirmation`") }
            var clash: Node?
            body.walk { node in
                if clash == nil, node.kind == "simple_identifier", node.text == "confirmation" { clash = node }
                return clash == nil
            }
            if let clash { throw Problem(reason: "the class names something `confirmation` (line \(clash.start.line)), which would hide Swift Testing's") }
        }
        // Every use of each expectation: a setting, a fulfilment, or a wait's list.
        var listed: [Int: [String]] = [:]
        for (index, expectation) in expectations.enumerated() {
            let site = "the expectation `\(expectation.name)` of `\(testName)` (line \(expectation.declaration.start.line))"
            guard expectation.declaration.parent?.kind == "statements", Self.function(around: expectation.declaration) == test else {
                throw Problem(reason: "\(site) is made inside a closure or a nested function")
            }
            guard expectation.declaration.children.first(where: { $0.kind == "value_binding_pattern" })?.text == "let" else {
                throw Problem(reason: "\(site) is a `var`")
            }
            var declarations = 0
            test.walk { node in
                if node.kind == "simple_identifier", node.text == expectation.name, Self.isDeclaration(node) { declarations += 1 }
                return true
            }
            if declarations > 1 { throw Problem(reason: "\(site): the name `\(expectation.name)` is declared again in the test") }
            var uses: [Node] = []
            test.walk { node in
                if node.kind == "simple_identifier", node.text == expectation.name,
                   node.parent != expectation.declaration.child(field: "name"), Self.isBareReference(node) { uses.append(node) }
                return true
            }
            for use in uses {
                if let setting = Self.setting(use, in: expectation.declaration.parent) {
                    let value = setting.child(field: "result")?.text ?? ""
                    switch use.parent?.child(field: "suffix")?.child(field: "suffix")?.text {
                    case "expectedFulfillmentCount":
                        guard let count = Int(value), count >= 1 else { throw Problem(reason: "\(site) has an `expectedFulfillmentCount` that is not a number") }
                        expectations[index].count = count
                    case "isInverted":
                        guard value == "true" || value == "false" else { throw Problem(reason: "\(site) is inverted by a condition") }
                        expectations[index].inverted = value == "true"
                    default:
                        guard value == "true" || value == "false" else { throw Problem(reason: "\(site) sets `assertForOverFulfill` by a condition") }
                        expectations[index].strict = value == "true"
                    }
                    expectations[index].settings.append(setting)
                } else if let fulfilment = Self.fulfilment(use) {
                    if let why = Self.laterRun(fulfilment, in: test) {
                        throw Problem(reason: "\(site) is fulfilled \(why) (line \(fulfilment.start.line)), which may run after the test has reached its wait: `confirmation` counts only what happens before its body returns, and has no timeout")
                    }
                    expectations[index].fulfilments.append(fulfilment)
                } else if let wait = Self.listingWait(use), waitCalls.contains(wait) {
                    listed[wait.byteRange.lowerBound, default: []].append(expectation.name)
                } else {
                    throw Problem(reason: "\(site) is used other than by `fulfill()` and a wait (line \(use.start.line)): handed to other code, it may be fulfilled later")
                }
            }
            if let firstFulfilment = expectations[index].fulfilments.map(\.byteRange.lowerBound).min(),
               let late = expectations[index].settings.first(where: { $0.byteRange.lowerBound > firstFulfilment }) {
                throw Problem(reason: "\(site) is set up after it is first fulfilled (line \(late.start.line))")
            }
            if expectations[index].inverted, expectations[index].count != 1 {
                throw Problem(reason: "\(site) is inverted with an `expectedFulfillmentCount`")
            }
        }
        // Each wait, with the expectations it waits for.
        var waited: Set<String> = []
        var groups: [Group] = []
        for wait in waitCalls {
            let callee = wait.child(at: 0)
            let waitName = callee.map(Self.lastName) ?? ""
            var statement = wait
            while let parent = statement.parent, parent.kind == "await_expression" || parent.kind == "try_expression" { statement = parent }
            let site = "the `\(waitName)` of `\(testName)` (line \(wait.start.line))"
            guard let block = statement.parent, block.kind == "statements", Self.function(around: statement) == test else {
                throw Problem(reason: "\(site) is not a statement of the test's own")
            }
            let arguments = Self.arguments(of: wait)
            if wait.child(at: 1)?.children.contains(where: { $0.kind == "lambda_literal" || $0.kind == "annotated_lambda" }) == true
                || arguments.contains(where: { ["handler", "enforceOrder"].contains($0.label) && !($0.label == "enforceOrder" && $0.value.text == "false") }) {
                throw Problem(reason: "\(site) has a handler or enforces an order, which `confirmation` has no form for")
            }
            guard arguments.allSatisfy({ ["for", "of", "timeout", "enforceOrder"].contains($0.label) }) else {
                throw Problem(reason: "\(site) has arguments `confirmation` has no form for")
            }
            var names: [String]
            if waitName == "waitForExpectations" {
                // Every expectation the test case made (not `XCTestExpectation(…)`) and has not waited for.
                names = expectations.filter { $0.callee.text != "XCTestExpectation" && $0.declaration.byteRange.upperBound <= wait.byteRange.lowerBound && !waited.contains($0.name) }.map(\.name)
            } else {
                guard let list = arguments.first(where: { $0.label == "for" || $0.label == "of" })?.value, list.kind == "array_literal",
                      list.children.filter({ $0.isNamed && $0.kind != "comment" && $0.kind != "multiline_comment" }).allSatisfy({ $0.kind == "simple_identifier" }) else {
                    throw Problem(reason: "\(site) waits for expectations it does not list by name")
                }
                names = listed[wait.byteRange.lowerBound] ?? []
                if Set(names).count != names.count { throw Problem(reason: "\(site) lists an expectation twice") }
                if names.count != list.children.filter({ $0.kind == "simple_identifier" }).count {
                    throw Problem(reason: "\(site) waits for an expectation this test does not make")
                }
            }
            guard !names.isEmpty else { throw Problem(reason: "\(site) waits for no expectation of the test's own") }
            if let twice = names.first(where: { waited.contains($0) }) { throw Problem(reason: "`\(twice)` is waited for twice in `\(testName)`") }
            waited.formUnion(names)
            let members = names.compactMap { name in expectations.first { $0.name == name } }
            groups.append(try Self.group(members, wait: statement, in: block, test: test, testName: testName))
            handled.insert(callee.map { Self.lastNameNode($0).byteRange.lowerBound } ?? -1)
        }
        if let unwaited = expectations.first(where: { !waited.contains($0.name) }) {
            throw Problem(reason: "the expectation `\(unwaited.name)` of `\(testName)` (line \(unwaited.declaration.start.line)) is not waited for in the test")
        }
        for (previous, next) in zip(groups, groups.dropFirst()) where next.region.lowerBound < previous.region.upperBound {
            throw Problem(reason: "the waits of `\(testName)` overlap (line \(test.tree.source.location(ofByte: next.region.lowerBound).line))")
        }
        for expectation in expectations { handled.insert(Self.lastNameNode(expectation.callee).byteRange.lowerBound) }
        self.groups += groups
        if !test.children.contains(where: { $0.kind == "async" }) {
            if let throwing = test.children.first(where: { $0.kind == "throws" }) {
                asyncEdits.append(Edit(range: throwing.byteRange.lowerBound..<throwing.byteRange.lowerBound, replacement: "async "))
            } else if let close = test.children.last(where: { $0.kind == ")" }) {
                asyncEdits.append(Edit(range: close.byteRange.upperBound..<close.byteRange.upperBound, replacement: " async"))
            }
        }
    }

    /// The group of a wait: its region must be whole lines of one block, with no `return`,
    /// `defer` or jump out of it, and declare nothing the test reads after it.
    static func group(_ members: [Expectation], wait: Node, in block: Node, test: Node, testName: String) throws -> Group {
        let source = test.tree.source
        let site = "the wait of `\(testName)` at line \(wait.start.line)"
        guard members.allSatisfy({ $0.declaration.parent == block }) else {
            throw Problem(reason: "\(site) is in another block than its expectations")
        }
        for member in members {
            for use in member.fulfilments + member.settings where use.byteRange.lowerBound >= wait.byteRange.lowerBound {
                throw Problem(reason: "the expectation `\(member.name)` of `\(testName)` is used after its wait (line \(use.start.line))")
            }
        }
        // The body starts at the statement of the first fulfilment (what comes before it stays
        // where it is); with none, the body is empty.
        var first = members.flatMap(\.fulfilments).compactMap { fulfilment in
            fulfilment.parent == block ? fulfilment : fulfilment.ancestors.first { $0.parent == block }
        }.min { $0.byteRange.lowerBound < $1.byteRange.lowerBound } ?? wait
        // A labelled loop starts at its label.
        if let label = first.previousSibling, label.kind == "statement_label" { first = label }
        guard HelperConversion.startsItsLine(first), HelperConversion.startsItsLine(wait) else {
            throw Problem(reason: "\(site): the expectation and its wait must start their lines")
        }
        let statements = block.children.filter { $0.isNamed && $0.byteRange.lowerBound >= first.byteRange.lowerBound && $0.byteRange.upperBound <= wait.byteRange.lowerBound }
        // Names the region declares (`let`, `guard let`, a local function or type) and the test
        // reads after the wait; names declared before without a value, which the region would
        // initialise inside a closure.
        var declared: Set<String> = []
        for statement in statements {
            switch statement.kind {
            case "property_declaration", "guard_statement":
                statement.walk { node in
                    if node.kind == "simple_identifier", isDeclaration(node) { declared.insert(node.text) }
                    return node.kind != "lambda_literal" && !(statement.kind == "guard_statement" && node.kind == "statements")
                }
            case "function_declaration", "class_declaration", "protocol_declaration", "typealias_declaration":
                if let name = statement.child(field: "name") { declared.insert(name.text) }
            default: break
            }
        }
        var later: Node?
        test.walk { node in
            if later == nil, node.byteRange.lowerBound >= wait.byteRange.upperBound,
               node.kind == "simple_identifier" && isBareReference(node) || node.kind == "type_identifier", declared.contains(node.text) {
                later = node
            }
            return later == nil
        }
        if let later { throw Problem(reason: "\(site): `\(later.text)` is declared before it and read after it (line \(later.start.line)), and would move into `confirmation`'s closure") }
        var uninitialised: Set<String> = []
        test.walk { node in
            if node.kind == "property_declaration", node.byteRange.upperBound <= first.byteRange.lowerBound, node.child(field: "value") == nil,
               !node.children.contains(where: { $0.kind == "computed_property" }) {
                node.walk { inner in
                    if inner.kind == "simple_identifier", isDeclaration(inner) { uninitialised.insert(inner.text) }
                    return true
                }
            }
            return node.byteRange.lowerBound < first.byteRange.lowerBound
        }
        for statement in statements {
            var set: Node?
            statement.walk { node in
                if set == nil, node.kind == "simple_identifier", uninitialised.contains(node.text), isBareReference(node) { set = node }
                return set == nil
            }
            if let set { throw Problem(reason: "\(site): `\(set.text)` is declared without a value before it and used before it (line \(set.start.line)), which a closure cannot initialise") }
        }
        let labels = Set(statements.flatMap { statement -> [String] in
            var found: [String] = []
            statement.walk { node in
                if node.kind == "statement_label" { found.append(String(node.text.dropLast())) }
                return true
            }
            return found
        })
        for statement in statements {
            if statement.kind == "defer_statement" || statement.kind == "call_expression" && statement.child(at: 0)?.text == "defer" {
                throw Problem(reason: "\(site): a `defer` before it would run when `confirmation`'s closure returns")
            }
            if let jump = Self.jumpOut(of: statement, labels: labels) {
                throw Problem(reason: "\(site): a `\(jump.text.split(separator: " ").first ?? "")` at line \(jump.start.line) would leave `confirmation`'s closure, not the test")
            }
        }
        // An early exit between the expectation and its first fulfilment: XCTest fails the test
        // (an expectation not waited for); without the expectation it would pass.
        let made = members.map(\.declaration.byteRange.lowerBound).min() ?? first.byteRange.lowerBound
        for statement in block.children where statement.isNamed && statement.byteRange.lowerBound > made && statement.byteRange.upperBound <= first.byteRange.lowerBound {
            if let jump = Self.jumpOut(of: statement, labels: []) {
                throw Problem(reason: "\(site): a `\(jump.text.split(separator: " ").first ?? "")` at line \(jump.start.line) leaves the test after the expectation is made and before it is fulfilled, which XCTest fails and a `confirmation` would not")
            }
        }
        // A description worked out in code (a call, an interpolation) is worked out where the
        // expectation was made: only when nothing runs between there and the confirmation.
        for member in members where !member.isPlainDescription {
            let between = block.children.filter { statement in
                statement.isNamed && statement.kind != "comment" && statement.kind != "multiline_comment"
                    && statement.byteRange.lowerBound > member.declaration.byteRange.lowerBound && statement.byteRange.upperBound <= first.byteRange.lowerBound
                    && !members.contains { $0.declaration == statement || $0.settings.contains(statement) }
            }
            if let statement = between.first {
                throw Problem(reason: "\(site): the description of `\(member.name)` is worked out in code, and line \(statement.start.line) runs between where it is now and where the confirmation would be")
            }
        }
        if let directive = unbalancedDirective(source.bytes[first.byteRange.lowerBound..<wait.byteRange.upperBound]) {
            throw Problem(reason: "\(site): its `\(directive)` and the statements before it are in different parts of an `#if`")
        }
        let indentation = TestClassConversion.indentation(of: first)
        // One level: what the block's statements have more than the line that opens it.
        let opener = block.parent.flatMap { $0.kind == "function_body" ? test : $0 } ?? test
        let testIndentation = TestClassConversion.indentation(of: opener)
        let unit = indentation.hasPrefix(testIndentation) && indentation.count > testIndentation.count
            ? String(indentation.dropFirst(testIndentation.count)) : "    "
        let lineStart = first.byteRange.lowerBound - indentation.utf8.count
        let waitLineStart = wait.byteRange.lowerBound - TestClassConversion.indentation(of: wait).utf8.count
        var edits: [Edit] = []
        for member in members {
            edits.append(.removal(TidyRemoval.range(removing: member.declaration.byteRange, in: source)))
            for setting in member.settings { edits.append(.removal(TidyRemoval.range(removing: setting.byteRange, in: source))) }
            for fulfilment in member.fulfilments { edits.append(Edit(range: fulfilment.byteRange, replacement: "\(member.name)()")) }
        }
        // Comments inside what goes (the expectations' declarations and settings, the wait) stay,
        // on lines of their own before the confirmation.
        var comments: [String] = []
        for node in members.flatMap({ [$0.declaration] + $0.settings }) + [wait] {
            node.walk { inner in
                if inner.kind == "comment" || inner.kind == "multiline_comment" { comments.append(inner.text) }
                return true
            }
        }
        let headers = members.map { member -> String in
            let count = member.inverted ? ", expectedCount: 0" : member.strict ? (member.count == 1 ? "" : ", expectedCount: \(member.count)") : ", expectedCount: \(member.count)..."
            return "confirmation(\(member.comment)\(count)) { \(member.fulfilments.isEmpty ? "_" : member.name) in"
        }
        let bytes = source.bytes
        let lineEnding = first.byteRange.upperBound < bytes.count && bytes[first.byteRange.upperBound...].prefix(while: { $0 != 0x0A }).last == 0x0D ? "\r\n" : "\n"
        var throwing = false
        for statement in statements {
            statement.walk { node in
                if node.kind == "try_expression", node.child(at: 0)?.text == "try" { throwing = true }
                if node.kind == "control_transfer_statement", node.children.first?.kind == "throw_keyword" { throwing = true }
                return !throwing && node.kind != "lambda_literal"
            }
        }
        return Group(region: lineStart..<wait.byteRange.upperBound, bodyEnd: waitLineStart, headers: headers, indentation: indentation,
                     unit: unit, lineEnding: lineEnding, edits: edits, throws: throwing, comments: comments)
    }

    // MARK: - Writing

    /// The class's edits with each group's region written as one edit: its own edits and those
    /// of the conversion inside it (assertions), applied, indented one level per `confirmation`.
    func fold(into edits: [Edit], source: SourceText) -> Result<[Edit], Problem> {
        var result = edits + groups.flatMap(\.edits)
        for group in groups {
            let inside = result.filter { group.region.contains($0.range.lowerBound) || $0.range.lowerBound == group.region.lowerBound && $0.range.isEmpty }
            if let crossing = result.first(where: { !inside.contains($0) && $0.range.overlaps(group.region) }) {
                return .failure(Problem(reason: "a conversion crosses the confirmation at line \(source.location(ofByte: crossing.range.lowerBound).line)"))
            }
            guard inside.allSatisfy({ $0.range.upperBound <= group.bodyEnd }) else {
                return .failure(Problem(reason: "a wait at line \(source.location(ofByte: group.bodyEnd).line) is rewritten itself"))
            }
            result.removeAll { inside.contains($0) }
            var body: [UInt8] = []
            var cursor = group.region.lowerBound
            for edit in Array(Set(inside)).sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
                guard edit.range.lowerBound >= cursor else {
                    return .failure(Problem(reason: "two conversions overlap at line \(source.location(ofByte: edit.range.lowerBound).line)"))
                }
                body += source.bytes[cursor..<edit.range.lowerBound]
                body += Array(edit.replacement.utf8)
                cursor = edit.range.upperBound
            }
            body += source.bytes[cursor..<group.bodyEnd]
            let throwing = group.throws || inside.contains { Self.throwsIn($0.replacement) }
            let depth = group.headers.count
            let indent = String(repeating: group.unit, count: depth)
            // Every line but a blank one moves in (a multi-line string's lines too, with its end);
            // lines are split at their bytes, as `\r\n` is one character.
            var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            if lines.last == "" { lines.removeLast() }
            // (A line of blanks moves in too: inside a multi-line string it must.)
            func isEmpty(_ line: String) -> Bool { line.isEmpty || line == "\r" }
            func isBlank(_ line: String) -> Bool { line.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }
            // (A directive at the start of its line stays there.)
            let indented = lines.map { isEmpty($0) || $0.hasPrefix("#") ? $0 : indent + $0 }
            if indented.allSatisfy(isBlank), depth == 1 {
                // Nothing is fulfilled: `confirmation("…") { _ in }`.
                result.append(Edit(range: group.region, replacement: group.indentation + group.comments.map { $0 + group.lineEnding + group.indentation }.joined()
                    + (throwing ? "try " : "") + "await " + group.headers[0] + " }"))
                continue
            }
            var output = group.comments.map { $0 + group.lineEnding + group.indentation }.joined()
            for (level, header) in group.headers.enumerated() {
                output += (level == 0 ? "" : group.indentation) + String(repeating: group.unit, count: level)
                    + (throwing ? "try " : "") + "await " + header + group.lineEnding
            }
            output = group.indentation + output
            output += indented.map { $0 + "\n" }.joined()
            output += (0..<depth).reversed().map { group.indentation + String(repeating: group.unit, count: $0) + "}" }.joined(separator: group.lineEnding)
            result.append(Edit(range: group.region, replacement: output))
        }
        for edit in asyncEdits { result.insertText(edit.replacement, at: edit.range.lowerBound) }
        return .success(result)
    }

    // MARK: - Shapes

    /// `let name = expectation(description: d)` (also `self.expectation`, `XCTestExpectation(description: d)`).
    static func declaration(_ node: Node) -> Expectation? {
        guard node.children(field: "name").count == 1, node.children(field: "value").count == 1, let pattern = node.child(field: "name"), let name = pattern.child(field: "bound_identifier")?.text ?? (pattern.children.count == 1 ? pattern.child(at: 0)?.text : nil),
              let value = node.child(field: "value"), value.kind == "call_expression", let callee = value.child(at: 0),
              ["expectation", "XCTestExpectation"].contains(lastName(callee)),
              callee.kind == "simple_identifier" || callee.child(field: "target")?.kind == "self_expression" else { return nil }
        let arguments = Self.arguments(of: value)
        guard arguments.count == 1, arguments[0].label == "description" else { return nil }
        // XCTestCase's expectations fail when fulfilled too often (on Apple's platforms); those
        // made by XCTestExpectation's initializer do not.
        let description = arguments[0].value
        let plain = description.kind.hasSuffix("string_literal") && !description.children.contains { $0.kind == "interpolated_expression" }
        return Expectation(name: name, declaration: node, callee: callee, comment: AssertionConversion.comment(description), isPlainDescription: plain,
                           strict: lastName(callee) == "expectation")
    }

    /// The calls to `wait(for:)`, `fulfillment(of:)` and `waitForExpectations` in a test (on `self`).
    static func waitCalls(in test: Node) -> [Node] {
        var calls: [Node] = []
        test.walk { node in
            if node.kind == "call_expression", let callee = node.child(at: 0), waits.contains(lastName(callee)),
               callee.kind == "simple_identifier" || callee.child(field: "target")?.kind == "self_expression" {
                calls.append(node)
            }
            return true
        }
        return calls
    }

    /// The last name of a callee (`self.wait` → `wait`).
    static func lastName(_ callee: Node) -> String { lastNameNode(callee).text }

    static func lastNameNode(_ callee: Node) -> Node {
        callee.kind == "navigation_expression" ? (callee.child(field: "suffix")?.child(field: "suffix") ?? callee) : callee
    }

    /// The labelled arguments of a call.
    static func arguments(of call: Node) -> [(label: String, value: Node)] {
        let arguments = call.child(at: 1)?.children.first { $0.kind == "value_arguments" }?.children.filter { $0.kind == "value_argument" } ?? []
        return arguments.compactMap { argument in
            guard let value = argument.child(field: "value") else { return nil }
            return (argument.child(field: "name")?.text ?? "", value)
        }
    }

    /// Whether a name is declared here: a pattern's, a parameter's, `if let`'s or `guard let`'s.
    static func isDeclaration(_ node: Node) -> Bool {
        guard let parent = node.parent else { return false }
        return node.fieldName == "bound_identifier" || parent.kind == "pattern" || parent.kind == "lambda_parameter"
            || parent.kind == "parameter" && parent.child(field: "name") == node
    }

    /// The first `#if`, `#elseif`, `#else` or `#endif` of some code whose partner is outside it.
    static func unbalancedDirective(_ bytes: ArraySlice<UInt8>) -> String? {
        var depth = 0
        for line in bytes.split(separator: 0x0A) {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasPrefix("#") else { continue }
            let word = String(text.prefix { !$0.isWhitespace && $0 != "(" })
            switch word {
            case "#if": depth += 1
            case "#endif": depth -= 1
            case "#else", "#elseif": if depth == 0 { return word }
            default: continue
            }
            if depth < 0 { return word }
        }
        return depth > 0 ? "#if" : nil
    }

    /// Whether a name is a reference (not a member after a dot, a label, or a declaration).
    static func isBareReference(_ node: Node) -> Bool {
        guard let parent = node.parent else { return false }
        if parent.kind == "navigation_suffix" || parent.kind == "value_argument_label" || parent.kind == "pattern" { return false }
        if parent.kind == "value_argument", parent.children(field: "name").contains(node) { return false }
        return true
    }

    /// `name.expectedFulfillmentCount = n`, `name.isInverted = b`, `name.assertForOverFulfill = b`,
    /// a statement of the expectation's block.
    static func setting(_ use: Node, in block: Node?) -> Node? {
        guard let navigation = use.parent, navigation.kind == "navigation_expression", navigation.child(field: "target") == use,
              ["expectedFulfillmentCount", "isInverted", "assertForOverFulfill"].contains(navigation.child(field: "suffix")?.child(field: "suffix")?.text ?? ""),
              let assignable = navigation.parent, assignable.kind == "directly_assignable_expression",
              let assignment = assignable.parent, assignment.kind == "assignment", assignment.parent == block,
              assignment.children.contains(where: { $0.text == "=" }) else { return nil }
        return assignment
    }

    /// `name.fulfill()` as a statement.
    static func fulfilment(_ use: Node) -> Node? {
        guard let navigation = use.parent, navigation.kind == "navigation_expression", navigation.child(field: "target") == use,
              navigation.child(field: "suffix")?.child(field: "suffix")?.text == "fulfill",
              let call = navigation.parent, call.kind == "call_expression", call.child(at: 1)?.text.filter({ !$0.isWhitespace }) == "()",
              call.parent?.kind == "statements" else { return nil }
        return call
    }

    /// The wait whose list (`for: [a, b]`, `of: [a]`) names this use.
    static func listingWait(_ use: Node) -> Node? {
        guard let list = use.parent, list.kind == "array_literal", let argument = list.parent, argument.kind == "value_argument",
              ["for", "of"].contains(argument.child(field: "name")?.text ?? ""),
              let call = argument.parent?.parent?.parent, call.kind == "call_expression" else { return nil }
        return call
    }

    /// The function or closure a node is in.
    static func function(around node: Node) -> Node? {
        node.ancestors.first { ["function_declaration", "lambda_literal", "init_declaration", "computed_property", "deinit_declaration"].contains($0.kind) }
    }

    /// Why a fulfilment may run after the statements around it, or nil when it runs in turn: in a
    /// closure other than one a synchronous function runs, or in a nested function.
    static func laterRun(_ fulfilment: Node, in test: Node) -> String? {
        for ancestor in fulfilment.ancestors {
            if ancestor == test { return nil }
            if ancestor.kind == "function_declaration" { return "in the nested function `\(ancestor.child(field: "name")?.text ?? "?")`" }
            guard ancestor.kind == "lambda_literal" else { continue }
            // The call the closure is an argument of (trailing, or `by:`/labelled).
            var call = ancestor.parent
            while let node = call, node.kind != "call_expression" {
                guard ["call_suffix", "annotated_lambda", "value_argument", "value_arguments"].contains(node.kind) else { call = nil; break }
                call = node.parent
            }
            guard let call, let callee = call.child(at: 0), synchronousCallers.contains(lastName(callee)),
                  call.parent?.kind != "await_expression", isKnownSequence(callee) else {
                return lastName(call?.child(at: 0) ?? ancestor) == "defer" ? "in a `defer`" : "in a closure"
            }
        }
        return nil
    }

    /// Whether a synchronous caller is what it says: `forEach` on an array or dictionary literal
    /// or a range (another type's `forEach` may run its closure later), the global functions as
    /// they are.
    static func isKnownSequence(_ callee: Node) -> Bool {
        guard lastName(callee) == "forEach" else { return callee.kind == "simple_identifier" }
        guard callee.kind == "navigation_expression", var target = callee.child(field: "target") else { return false }
        while target.kind == "tuple_expression" || target.kind == "parenthesized_expression", let inner = target.namedChildren.first { target = inner }
        return ["array_literal", "dictionary_literal", "range_expression", "open_start_range_expression", "open_end_range_expression"].contains(target.kind)
    }

    /// A `return`, or a `break`/`continue` that leaves a statement (outside closures, nested
    /// functions, and the loops and switches inside it).
    static func jumpOut(of statement: Node, labels: Set<String>) -> Node? {
        var found: Node?
        func visit(_ node: Node, inLoop: Bool) {
            guard found == nil else { return }
            switch node.kind {
            case "lambda_literal", "function_declaration", "class_declaration", "protocol_declaration": return
            case "control_transfer_statement":
                let word = node.child(at: 0)?.text ?? ""
                let label = node.children.first { $0.kind == "simple_identifier" }?.text
                if word == "return" || (word == "break" || word == "continue") && (label.map { !labels.contains($0) } ?? !inLoop) {
                    found = node
                    return
                }
            default: break
            }
            let loop = inLoop || ["for_statement", "while_statement", "repeat_while_statement", "switch_statement"].contains(node.kind)
            for child in node.children { visit(child, inLoop: loop) }
        }
        visit(statement, inLoop: false)
        return found
    }
}
