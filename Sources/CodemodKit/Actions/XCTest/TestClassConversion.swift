import SwiftTree

/// One `XCTestCase` subclass written as a Swift Testing suite: `final class FooTests: XCTestCase`
/// becomes `struct FooTests` (a `final class` when it has stored `var`s, which a test may assign),
/// each `func testBar()` becomes `@Test func bar()`, its assertions become `#expect`/`#require`
/// (`AssertionConversion`), and a Linux `static var allTests` list goes.
///
/// A class is converted whole or not at all, so that what is left still builds and runs as
/// XCTest: one that uses XCTestCase's own API (setUp and tearDown, expectations, `measure`,
/// `continueAfterFailure`, skips), inherits from another base, or holds an assertion without a
/// Swift Testing form stays as it is, with the reason.
public enum TestClassConversion {
    public enum Outcome {
        /// The edits, in source order, and how many tests and assertions they convert.
        case converted(edits: [Edit], tests: Int, assertions: Int)
        case notConverted(reason: String)
    }

    /// XCTestCase members whose use keeps a class as XCTest (for now).
    static let caseAPI: Set<String> = [
        "setUp", "setUpWithError", "tearDown", "tearDownWithError", "addTeardownBlock", "measure", "measureMetrics",
        "expectation", "wait", "waitForExpectations", "fulfillment", "continueAfterFailure", "executionTimeAllowance", "XCTContext", "XCTAttachment", "XCTWaiter",
        "keyValueObservingExpectation", "addUIInterruptionMonitor", "XCUIApplication", "XCUIElement", "XCUIDevice",
    ]

    /// Whether a declaration is a class that inherits from XCTestCase itself.
    static func isTestClass(_ declaration: Node) -> Bool {
        guard declaration.kind == "class_declaration", declaration.children.contains(where: { $0.kind == "class" }),
              let base = declaration.children.first(where: { $0.kind == "inheritance_specifier" }) else { return false }
        return isXCTestCase(base)
    }

    /// Whether an inherited type is XCTestCase (`XCTestCase`, `XCTest.XCTestCase`).
    static func isXCTestCase(_ base: Node) -> Bool {
        base.text == "XCTestCase" || base.text == "XCTest.XCTestCase"
    }

    /// Why a class stays XCTest, from its own code, or nil when it converts.
    static func problem(_ declaration: Node) -> String? {
        if case let .notConverted(reason) = convert(declaration) { return reason }
        return nil
    }

    public static func convert(_ declaration: Node) -> Outcome {
        convert(declaration, reserved: [])
    }

    /// - Parameters:
    ///   - reserved: names its tests may not take (those its extensions declare or use).
    ///   - extended: whether the class has extensions (in any file of the run).
    ///   - keepsAClass: whether code elsewhere needs it to be a class (`Bundle(for: FooTests.self)`).
    static func convert(_ declaration: Node, reserved: Set<String>, extended: Bool = false, keepsAClass: Bool = false) -> Outcome {
        guard declaration.kind == "class_declaration", let keyword = declaration.children.first(where: { $0.kind == "class" }),
              let body = declaration.child(field: "body") else {
            return .notConverted(reason: "not a class")
        }
        let children = declaration.children
        let inheritance = children.filter { $0.kind == "inheritance_specifier" }
        guard let base = inheritance.first, isXCTestCase(base) else {
            let other = inheritance.first?.text ?? "nothing"
            return .notConverted(reason: "it inherits from \(other), not XCTestCase: convert the base class first")
        }
        if let problem = availabilityProblem(declaration) { return .notConverted(reason: problem) }
        let lifecycle: LifecycleConversion
        switch LifecycleConversion.of(body, keepingOptionals: extended) {
        case let .success(conversion): lifecycle = conversion
        case let .failure(problem): return .notConverted(reason: problem.reason)
        }
        let outcome = members(of: body, handled: lifecycle.handled, reserved: reserved)
        guard case .converted(var edits, let tests, let assertions) = outcome else { return outcome }
        edits += lifecycle.edits
        let members = body.children
        // `struct`, unless a stored `var` may be assigned by a test, or the class relies on being
        // one (class members, `deinit`, a weak or unowned `self`, its identity).
        let storedVar = members.contains { member in
            member.kind == "property_declaration" && member.children.contains { $0.kind == "value_binding_pattern" && $0.text == "var" }
                && !(member.children.first { $0.kind == "modifiers" }?.text.contains("static") ?? false)
                && !member.children.contains { $0.kind == "computed_property" }
        } || Self.needsAClass(body) || keepsAClass
        let modifiers = children.first { $0.kind == "modifiers" }
        let final = modifiers?.children.first { $0.kind == "inheritance_modifier" && $0.text == "final" }
        // XCTest runs synchronous tests on the main thread, Swift Testing does not: a suite in a
        // file that imports a UI framework (main-actor API) runs on the main actor.
        let mainActor = modifiers?.children.contains { $0.kind == "attribute" && $0.text.hasSuffix("MainActor") } ?? false
        let addsMainActor = !mainActor && Self.importsUIFramework(declaration.tree)
        // `open` is for classes others subclass, which a suite is not.
        if let open = modifiers?.children.first(where: { $0.text == "open" }) {
            edits.append(Edit(range: open.byteRange, replacement: "public"))
        }
        if storedVar || lifecycle.needsClass {
            if final == nil { edits.append(Edit(range: keyword.byteRange.lowerBound..<keyword.byteRange.lowerBound, replacement: "final ")) }
        } else {
            if let final { edits.append(.removal(final.byteRange.lowerBound..<Self.nextStart(after: final, in: declaration.tree.source))) }
            edits.append(Edit(range: keyword.byteRange, replacement: "struct"))
        }
        // XCTest runs a class's tests one after the other, Swift Testing in parallel: a suite that
        // sets up or tears down (shared state, most likely) keeps them one at a time.
        let added = (lifecycle.hasSetUpOrTearDown ? ["@Suite(.serialized)"] : []) + (addsMainActor ? ["@MainActor"] : [])
        if !added.isEmpty {
            let start = modifiers?.byteRange.lowerBound ?? keyword.byteRange.lowerBound
            // (Where `final ` goes, the attributes take its place.)
            edits.insertText(added.map { $0 + "\n" + Self.indentation(of: declaration) }.joined(), at: start)
        }
        // `: XCTestCase` (and its comma when other types follow).
        if let index = children.firstIndex(of: base) {
            if index + 1 < children.count, children[index + 1].kind == "," {
                let next = index + 2 < children.count ? children[index + 2].byteRange.lowerBound : children[index + 1].byteRange.upperBound
                edits.append(.removal(base.byteRange.lowerBound..<next))
            } else if index > 0, children[index - 1].kind == ":" {
                let start = index > 1 ? children[index - 2].byteRange.upperBound : children[index - 1].byteRange.lowerBound
                edits.append(.removal(start..<base.byteRange.upperBound))
            }
        }
        return .converted(edits: edits.sorted { $0.range.lowerBound < $1.range.lowerBound }, tests: tests, assertions: assertions)
    }

    /// The members of a test class's body, or of an extension of it: XCTestCase's own API keeps
    /// them XCTest; otherwise their assertions and locations (`HelperConversion`), `@Test` on each
    /// test, and the Linux `allTests` list removed.
    /// - Parameter handled: where XCTestCase's names are converted already (setUp, tearDown).
    ///   - reserved: names a test may not take (those its class's other parts declare or use).
    static func members(of body: Node, handled: Set<Int> = [], reserved: Set<String> = []) -> Outcome {
        // `continueAfterFailure = false`: in setUp, every assertion stops its test on failure
        // (`try #require`); in a test, those after it.
        var handled = handled
        var requiring: [Range<Int>] = []
        var stopEdits: [Edit] = []
        var stopProblem: String?
        body.walk { node in
            guard node.kind == "assignment", LifecycleConversion.assignedName(node) == "continueAfterFailure" else { return true }
            guard LifecycleConversion.isStopOnFailure(node), node.parent?.kind == "statements",
                  let function = node.ancestors.first(where: { $0.kind == "function_declaration" }) else {
                stopProblem = "its `continueAfterFailure` at line \(node.start.line) is not `continueAfterFailure = false` as a statement of its own"
                return false
            }
            handled.formUnion(LifecycleConversion.identifierOffsets(node))
            if LifecycleConversion.setUps.contains(function.child(field: "name")?.text ?? "") {
                requiring.append(body.byteRange)
            } else {
                requiring.append(node.byteRange.upperBound..<function.byteRange.upperBound)
                stopEdits.append(.removal(TidyRemoval.range(removing: node.byteRange, in: body.tree.source)))
            }
            return false
        }
        if let stopProblem { return .notConverted(reason: stopProblem) }
        // A test `@Test` would refuse (in the class or in an extension of it).
        for member in body.children where member.kind == "function_declaration" {
            guard let name = member.child(field: "name")?.text, isTest(member, named: name),
                  let modifiers = member.children.first(where: { $0.kind == "modifiers" }), hasAvailability(modifiers) else { continue }
            return .notConverted(reason: "its test `\(name)` is marked `@available` beyond Swift Testing's own minimums, which `@Test` refuses (test `#available` inside it instead)")
        }
        // Expectations a test fulfils in its own statements: `confirmation`.
        let expectations: ExpectationConversion
        switch ExpectationConversion.of(body) {
        case let .success(conversion):
            expectations = conversion
            handled.formUnion(conversion.handled)
        case let .failure(problem):
            return .notConverted(reason: problem.reason)
        }
        var used: Node?
        body.walk { node in
            if used == nil, node.kind == "simple_identifier", caseAPI.contains(node.text), !handled.contains(node.byteRange.lowerBound),
               usesTestCaseAPI(node) { used = node }
            return used == nil
        }
        // A member that overrides XCTestCase's (`invokeTest`), or reads one (`name`).
        let handledNames = Set(body.children.filter { handled.contains($0.child(field: "name")?.byteRange.lowerBound ?? -1) }.compactMap { $0.child(field: "name")?.text })
        for member in body.children where member.children.first(where: { $0.kind == "modifiers" })?.children.contains(where: { $0.text == "override" }) == true {
            let name = member.child(field: "name")?.text ?? "a member"
            if !handledNames.contains(name), !LifecycleConversion.setUps.union(LifecycleConversion.tearDowns).contains(name) {
                return .notConverted(reason: "it overrides XCTestCase's `\(name)`, which a suite does not have")
            }
        }
        let declared = Set(body.children.compactMap { $0.child(field: "name")?.text })
        if let member = bareNames(in: body).subtracting(declared).intersection(testCaseMembers).sorted().first {
            return .notConverted(reason: "it reads XCTestCase's `\(member)`, which a suite does not have")
        }
        // XCTest runs every test one after the other, on the main thread; Swift Testing runs them
        // in parallel, elsewhere. A class that sets state others share, or needs the main thread,
        // could pass or fail by chance once converted.
        if let shared = sharedStateAssignment(in: body, declared: declared) {
            return .notConverted(reason: "it sets shared state (`\(shared)`), and Swift Testing runs suites in parallel where XCTest ran them one at a time")
        }
        if let handed = selfHandedOver(in: body) {
            return .notConverted(reason: "it hands `self` to other code (line \(handed.start.line)), which may need an XCTestCase or keep it as a delegate")
        }
        if let mainThread = mainThreadUse(in: body) {
            return .notConverted(reason: "it relies on the main thread (`\(mainThread)`), on which XCTest ran its synchronous tests and Swift Testing does not")
        }
        if let used {
            if used.text.hasPrefix("XCUI") {
                return .notConverted(reason: "it is a UI test (`\(used.text)`, line \(used.start.line)), which Swift Testing does not run")
            }
            return .notConverted(reason: "it uses XCTestCase's `\(used.text)` (line \(used.start.line)), which has no Swift Testing form here")
        }
        var edits: [Edit] = []
        var assertions = 0
        var traits: [Int: String] = [:]
        switch HelperConversion.edits(in: body, requiring: requiring) {
        case let .converted(bodyEdits, count, testTraits):
            edits = bodyEdits + stopEdits
            assertions = count
            traits = testTraits
        case let .notConverted(reason):
            return .notConverted(reason: reason)
        }
        let members = body.children
        // Tests, and the Linux list of them.
        // A test keeps its name where the new one is a name the class declares or uses bare (a
        // global function `product` called in `testProduct`, which a method `product` would
        // shadow), here or in its extensions (`reserved`), or one another test took.
        var names = Set(members.compactMap { $0.child(field: "name")?.text }).union(bareNames(in: body)).union(reserved)
        // A test that code calls (`testA()` in `testB`, `self.testA()`) keeps its name (the Linux
        // `allTests` list, which goes, does not count).
        var referenced: Set<String> = []
        body.walk { node in
            if node.kind == "simple_identifier", node.parent?.kind != "function_declaration" { referenced.insert(node.text) }
            return !(node.kind == "property_declaration" && node.text.contains("allTests"))
        }
        var tests = 0
        for member in members {
            if member.kind == "property_declaration", member.text.contains("allTests"),
               member.children.contains(where: { $0.kind == "modifiers" && $0.text.contains("static") }) {
                edits.append(.removal(LifecycleConversion.memberRemoval(member, in: body.tree.source)))
                continue
            }
            guard member.kind == "function_declaration", let nameNode = member.child(field: "name"),
                  Self.isTest(member, named: nameNode.text) else { continue }
            let trait = traits[member.byteRange.lowerBound].map { "(\($0))" } ?? ""
            edits.append(Edit(range: member.byteRange.lowerBound..<member.byteRange.lowerBound, replacement: "@Test\(trait) "))
            let renamed = Self.testName(nameNode.text)
            if renamed != nameNode.text, !names.contains(renamed), !Self.keywords.contains(renamed), !referenced.contains(nameNode.text) {
                edits.append(Edit(range: nameNode.byteRange, replacement: renamed))
                names.insert(renamed)
            }
            tests += 1
        }
        switch expectations.fold(into: edits, source: body.tree.source) {
        case let .success(folded): edits = folded
        case let .failure(problem): return .notConverted(reason: problem.reason)
        }
        return .converted(edits: edits, tests: tests, assertions: assertions)
    }

    /// Whether a name of XCTestCase's API is that API (`expectation(description:)`,
    /// `override func setUp()`, `self.continueAfterFailure = false`), not a local value that
    /// shares its name (`for (k, expectation) in …`).
    static func usesTestCaseAPI(_ name: Node) -> Bool {
        if name.text.hasPrefix("XCT") { return true }
        guard let parent = name.parent else { return false }
        switch parent.kind {
        case "call_expression": return parent.child(at: 0) == name
        case "function_declaration":
            // `func setUp(items:)` is a method of the suite's own.
            return parent.child(field: "name") == name && !parent.children.contains { $0.kind == "parameter" }
        case "directly_assignable_expression": return true
        case "navigation_suffix":
            let target = parent.parent?.child(field: "target")?.text
            return target == "self" || target == "super"
        default: return false
        }
    }

    static let uiFrameworks: Set<String> = ["UIKit", "AppKit", "SwiftUI", "WatchKit", "Cocoa"]

    /// Whether a file imports a framework whose API runs on the main actor.
    static func importsUIFramework(_ tree: SyntaxTree) -> Bool {
        tree.root.children.contains { $0.kind == "import_declaration" && uiFrameworks.contains(XCTestFileConversion.module(of: $0) ?? "") }
    }

    /// The blanks a declaration's line starts with.
    static func indentation(of node: Node) -> String {
        let bytes = node.tree.source.bytes
        var start = node.byteRange.lowerBound
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Why a class's or an extension's `@available` keeps it XCTest, or nil.
    static func availabilityProblem(_ declaration: Node) -> String? {
        guard let modifiers = declaration.children.first(where: { $0.kind == "modifiers" }), hasAvailability(modifiers) else { return nil }
        return "it is marked `@available` beyond Swift Testing's own minimums, which `@Test` refuses (test `#available` inside each test instead)"
    }

    /// Whether modifiers hold an `@available(…)` that `@Test` refuses: one that asks for more than
    /// Swift Testing's own minimums (macOS 10.15, iOS 13, tvOS 13, watchOS 6), in the short form
    /// or with `introduced:`, or that deprecates, obsoletes or makes unavailable.
    static func hasAvailability(_ modifiers: Node) -> Bool {
        let minimums: [String: [Int]] = ["macOS": [10, 15], "OSX": [10, 15], "iOS": [13], "macCatalyst": [13], "tvOS": [13], "watchOS": [6], "visionOS": [1]]
        for attribute in modifiers.children where attribute.kind == "attribute" && attribute.text.hasPrefix("@available") {
            let words = attribute.text.dropFirst("@available".count).split { !$0.isLetter && !$0.isNumber && $0 != "." && $0 != "*" }.map(String.init)
            if words.contains(where: { ["unavailable", "deprecated", "obsoleted", "renamed", "message", "noasync"].contains($0) }) { return true }
            for (index, word) in words.enumerated() where index + 1 < words.count {
                guard let minimum = minimums[word] else { continue }
                // `macOS 14` or `macOS, introduced: 14.0`.
                var next = index + 1
                if words[next] == "introduced", next + 1 < words.count { next += 1 }
                let version = words[next].split(separator: ".").compactMap { Int($0) }
                if version.isEmpty { continue }
                if version.lexicographicallyPrecedes(minimum) || version.starts(with: minimum) && version.dropFirst(minimum.count).allSatisfy({ $0 == 0 }) { continue }
                return true
            }
        }
        return false
    }

    /// Whether a class body relies on being a class: `class func`/`class var`, `deinit`,
    /// `[weak self]`/`[unowned self]`, `ObjectIdentifier(self)`, `self ===`.
    static func needsAClass(_ body: Node) -> Bool {
        if body.children.contains(where: { $0.kind == "deinit_declaration" }) { return true }
        if body.children.contains(where: { member in
            member.children.contains { $0.kind == "class" }
                || member.children.first { $0.kind == "modifiers" }?.children.contains { $0.text == "class" } == true
        }) { return true }
        let text = body.text
        return ["weak self", "unowned self", "unowned(unsafe) self", "ObjectIdentifier(self)", "self ===", "=== self", "self !==", "!== self",
                "Bundle(for:", "type(of: self)"]
            .contains { text.contains($0) }
    }

    /// An assignment to state outside the instance: a static member of a type (`Rainbow.enabled =
    /// true`, `Self.count += 1`) or a global (a bare name that is neither a member nor a local).
    static func sharedStateAssignment(in body: Node, declared: Set<String>) -> String? {
        var found: String?
        body.walk { node in
            guard found == nil else { return false }
            guard node.kind == "assignment", let target = node.child(field: "target") else { return true }
            let text = target.text.filter { !$0.isWhitespace }
            let first = text.split(separator: ".").first.map(String.init) ?? text
            if text.contains("."), first != "self", first.first?.isUppercase == true {
                found = text
            } else if text != "_", !caseAPI.contains(text), !testCaseMembers.contains(text), !text.contains("."), !text.contains("["),
                      !declared.contains(text), !isLocal(text, at: node) {
                found = text
            }
            return found == nil
        }
        return found
    }

    /// Whether a name is declared in a function or closure around a node (a local, a parameter).
    static func isLocal(_ name: String, at node: Node) -> Bool {
        for scope in node.ancestors where ["function_declaration", "lambda_literal", "init_declaration", "computed_property", "for_statement", "if_statement", "guard_statement"].contains(scope.kind) {
            var declares = false
            scope.walk { inner in
                if declares { return false }
                if inner.kind == "simple_identifier", inner.text == name, let parent = inner.parent,
                   parent.kind == "pattern" || parent.kind == "lambda_parameter" || parent.kind == "parameter" {
                    declares = true
                }
                return !declares
            }
            if declares { return true }
        }
        return false
    }

    /// `self` as a value given away: an argument (`register(self)`), an assigned value
    /// (`sut.delegate = self`), an element (`[self]`). A suite is a new type: code that takes the
    /// test case would no longer build, or would hold a copy.
    static func selfHandedOver(in body: Node) -> Node? {
        var found: Node?
        body.walk { node in
            guard found == nil else { return false }
            guard node.kind == "self_expression", let parent = node.parent else { return true }
            switch parent.kind {
            case "value_argument", "array_literal", "dictionary_literal", "tuple_expression": found = node
            case "assignment" where parent.child(field: "result") == node: found = node
            case "property_declaration" where parent.child(field: "value") == node: found = node
            default: break
            }
            return found == nil
        }
        return found
    }

    /// A use of the main thread: `Thread.isMainThread`, `DispatchQueue.main`, `RunLoop.main`,
    /// `RunLoop.current`, `dispatchPrecondition`, `MainActor.assumeIsolated`.
    static func mainThreadUse(in body: Node) -> String? {
        let text = body.text
        return ["Thread.isMainThread", "Thread.current.isMainThread", "DispatchQueue.main", "RunLoop.main", "RunLoop.current", "dispatchPrecondition",
                "MainActor.assumeIsolated", "MainActor.assertIsolated", "CFRunLoop"].first { text.contains($0) }
    }

    /// XCTestCase's members that a suite does not have, read by their bare name.
    static let testCaseMembers: Set<String> = ["name", "testRun", "invocation", "testRunClass", "defaultTestSuite", "testInvocations", "record", "run", "perform", "invokeTest"]

    /// Whether a method is a test XCTest runs: an instance method named `test…`, not private, with
    /// no parameters.
    static func isTest(_ function: Node, named name: String) -> Bool {
        guard name.hasPrefix("test") else { return false }
        let modifiers = function.children.first { $0.kind == "modifiers" }?.text ?? ""
        for word in ["private", "fileprivate", "static", "class"] where modifiers.split(separator: " ").contains(Substring(word)) { return false }
        // XCTest runs `func testX()` that returns nothing.
        return !function.children.contains { $0.kind == "parameter" || $0.kind == "->" }
    }

    /// `testSortedOrder` → `sortedOrder`, `test_sorted` → `sorted`; `test` stays.
    static func testName(_ name: String) -> String {
        var rest = name.dropFirst(4)
        while rest.first == "_" { rest = rest.dropFirst() }
        guard let first = rest.first, first.isLetter else { return name }
        // An acronym keeps its case (`testURLs` → `URLs`).
        let acronym = rest.count > 1 && rest.dropFirst().first?.isUppercase == true
        return acronym ? String(rest) : first.lowercased() + rest.dropFirst()
    }

    /// Swift's keywords, which a test's new name may not be.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
        "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "_",
    ]

    /// The names a body uses bare (not after a dot), but for those it declares as locals,
    /// parameters or closure parameters: a method of the suite of such a name would shadow it.
    static func bareNames(in body: Node) -> Set<String> {
        var used: Set<String> = []
        var local: Set<String> = []
        // A name called bare (`product(…)`) counts even where a closure's parameter shares it.
        var called: Set<String> = []
        body.walk { node in
            guard node.kind == "simple_identifier", let parent = node.parent else { return true }
            // A member after a dot, an argument's or a tuple element's label.
            if parent.kind == "navigation_suffix" || parent.kind == "value_argument_label" { return true }
            if parent.kind == "tuple_expression" || parent.kind == "value_argument", parent.children(field: "name").contains(node) { return true }
            if parent.kind == "pattern" || parent.kind == "lambda_parameter" || parent.kind == "parameter" && parent.child(field: "name") == node {
                local.insert(node.text)
            } else if !(parent.kind == "function_declaration" && parent.child(field: "name") == node) {
                used.insert(node.text)
                if parent.kind == "call_expression", parent.child(at: 0) == node { called.insert(node.text) }
            }
            return true
        }
        return used.subtracting(local).union(called)
    }

    /// Where the next token after a node starts (its following blanks are removed with it).
    static func nextStart(after node: Node, in source: SourceText) -> Int {
        var end = node.byteRange.upperBound
        while end < source.bytes.count, source.bytes[end] == 0x20 || source.bytes[end] == 0x09 { end += 1 }
        return end
    }
}
