import SwiftTree

/// A whole file of XCTest tests in Swift Testing, class by class (`TestClassConversion`) and
/// helper by helper (`HelperConversion`), as the run's `XCTestPlan` decides: what converts does,
/// the rest stays XCTest with its reason, and the imports follow — `import XCTest` becomes
/// `import Testing` when nothing of XCTest is left in the file (with `import Foundation`, which
/// XCTest brought in), and `import Testing` is added beside it when something is.
public struct XCTestFileConversion {
    /// A test class or helper left as XCTest: its name, where it is, and why.
    public struct Left: Equatable {
        public var name: String
        public var range: Range<Int>
        public var location: SourceLocation
        public var reason: String
    }

    /// The edits, in source order.
    public private(set) var edits: [Edit] = []
    /// How many tests and assertions the edits convert.
    public private(set) var tests = 0
    public private(set) var assertions = 0
    /// The code converted: test classes and helpers.
    public private(set) var converted: [Range<Int>] = []
    /// The XCTestCase subclasses and helpers left as they were.
    public private(set) var left: [Left] = []

    /// Converts a file on its own (its helpers are converted when its tests are).
    public init(_ tree: SyntaxTree) {
        self.init(tree, plan: XCTestPlan([XCTestSurvey(tree)]))
    }

    init(_ tree: SyntaxTree, plan: XCTestPlan) {
        // Beside `import Testing`, a `Tag` from another module is written with it (`Yams.Tag`):
        // the file is converted as if it were written so, and the edits mapped back.
        let qualifications = TestingNameClash(tree).qualifications(declaredInRun: plan.declaredTypes)
        guard !qualifications.isEmpty, let qualified = try? EditSet(qualifications, in: tree.source).apply(to: tree.source) else {
            self.init(converting: tree, plan: plan)
            return
        }
        let inner = XCTestFileConversion(converting: Parser().parse(SourceText(String(decoding: qualified, as: UTF8.self))), plan: plan)
        guard !inner.converted.isEmpty else {
            self.init(converting: tree, plan: plan)
            return
        }
        let map = InsertionMap(qualifications)
        self = inner
        tests = inner.tests
        assertions = inner.assertions
        converted = inner.converted.map(map.original)
        left = inner.left.map { item in
            var item = item
            item.range = map.original(item.range)
            item.location = tree.source.location(ofByte: item.range.lowerBound)
            return item
        }
        edits = inner.edits.map { Edit(range: map.original($0.range), replacement: $0.replacement) }
        // The qualifications that no edit rewrites are edits of their own.
        let edits = self.edits
        self.edits += qualifications.filter { insertion in
            !edits.contains { $0.range.lowerBound <= insertion.range.lowerBound && insertion.range.lowerBound < $0.range.upperBound }
        }
        self.edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    private init(converting tree: SyntaxTree, plan: XCTestPlan) {
        let parts = Parts(tree.root)
        let classes = parts.classes
        for declaration in classes {
            let name = declaration.child(field: "name")?.text ?? "?"
            guard TestClassConversion.isTestClass(declaration) else {
                // A subclass of a test class of its own: it follows its base.
                left.append(Left(name: name, range: declaration.byteRange, location: declaration.start,
                                 reason: "it inherits from \(declaration.children.first { $0.kind == "inheritance_specifier" }?.text ?? "another class"), not XCTestCase: convert the base class first"))
                continue
            }
            if let reason = plan.classesLeft[name] {
                left.append(Left(name: name, range: declaration.byteRange, location: declaration.start, reason: reason))
                continue
            }
            take(TestClassConversion.convert(declaration, reserved: plan.names(of: name), extended: plan.extendedClasses.contains(name),
                                             keepsAClass: plan.classObjects.contains(name)),
                 of: declaration, named: name)
        }
        for declaration in parts.extensions {
            guard let name = Self.extendedName(declaration), plan.testClasses.contains(name),
                  let body = declaration.child(field: "body") else { continue }
            if let reason = plan.classesLeft[name] {
                left.append(Left(name: name, range: declaration.byteRange, location: declaration.start, reason: reason))
                continue
            }
            take(TestClassConversion.members(of: body, reserved: plan.names(of: name)), of: declaration, named: name)
        }
        // Assertions in an initialiser, a subscript or a property: not rewritten.
        for declaration in parts.others where Self.holdsXCTest(declaration) {
            let name = Self.reachName(of: declaration)
            left.append(Left(name: name, range: declaration.byteRange, location: declaration.start,
                             reason: plan.helpersLeft[name] ?? XCTestSurvey.opaqueReason(declaration)))
        }
        // A subclass of a test class follows its base, which is not converted.
        for declaration in parts.subclasses {
            guard let name = declaration.child(field: "name")?.text, let base = plan.subclassesOfTests[name] else { continue }
            left.append(Left(name: name, range: declaration.byteRange, location: declaration.start,
                             reason: "it inherits from \(base), a test class, not from XCTestCase: convert the base class first"))
        }
        for declaration in parts.functions + parts.holders {
            if let owner = Self.owner(of: declaration), plan.testClasses.contains(owner) || plan.subclassesOfTests[owner] != nil { continue }
            if let container = Self.container(of: declaration), plan.subclassesOfTests[container] != nil { continue }
            let name = declaration.kind == "function_declaration" ? Self.reachName(of: declaration) : declaration.child(field: "name")?.text ?? "?"
            if let reason = plan.helpersLeft[name] {
                left.append(Left(name: name, range: declaration.byteRange, location: declaration.start, reason: reason))
                continue
            }
            guard plan.helpersConverted.contains(name) else { continue }
            // A type that stores a location: only its stored properties (its methods are helpers of their own).
            if declaration.kind == "class_declaration", let stored = StoredLocation.of(declaration) {
                edits += Self.storedLocationEdits(stored, in: tree.source)
                converted.append(stored.file.byteRange)
                converted.append(stored.line.byteRange)
                continue
            }
            switch HelperConversion.edits(in: declaration) {
            case let .converted(helperEdits, count, _):
                edits += helperEdits
                assertions += count
                converted.append(declaration.byteRange)
            case let .notConverted(reason):
                left.append(Left(name: name, range: declaration.byteRange, location: declaration.start, reason: reason))
            }
        }
        // Linux manifests (`testCase(ListTests.allTests)`) lose the entries of the suites converted,
        // whose `allTests` went.
        var entries: [Node] = []
        for entry in Self.manifestEntries(in: tree) {
            guard let name = entry.name, plan.testClasses.contains(name) else { continue }
            if let reason = plan.classesLeft[name] {
                left.append(Left(name: name, range: entry.call.byteRange, location: entry.call.start, reason: reason))
            } else if ListRemoval.isElement(entry.call) {
                entries.append(entry.call)
                converted.append(entry.call.byteRange)
            } else {
                left.append(Left(name: name, range: entry.call.byteRange, location: entry.call.start,
                                 reason: "a manifest entry that is not an element of a list: remove it by hand once `\(name)` is converted"))
            }
        }
        for entry in entries {
            // The entry and its comma.
            var end = entry.byteRange.upperBound
            if let next = entry.nextSibling, next.kind == "," { end = next.byteRange.upperBound }
            edits.append(.removal(TidyRemoval.range(removing: entry.byteRange.lowerBound..<end, in: tree.source)))
        }
        left.sort { $0.range.lowerBound < $1.range.lowerBound }
        guard !converted.isEmpty else { return }
        // Whatever of XCTest is outside the converted code keeps its import.
        var stillXCTest = false
        let converted = self.converted
        tree.root.walk { node in
            guard !stillXCTest else { return false }
            if converted.contains(where: { $0.lowerBound <= node.byteRange.lowerBound && node.byteRange.upperBound <= $0.upperBound }) { return false }
            if node.kind == "import_declaration" { return false }
            if node.kind == "simple_identifier" || node.kind == "type_identifier", node.text.hasPrefix("XCT") { stillXCTest = true }
            return !stillXCTest
        }
        let imports = tree.root.children.filter { $0.kind == "import_declaration" }
        let hasTesting = imports.contains { Self.module(of: $0) == "Testing" }
        // XCTest brought Foundation in; Swift Testing does not.
        let hasFoundation = imports.contains { Self.module(of: $0) == "Foundation" }
        if let xctest = imports.first(where: { Self.module(of: $0) == "XCTest" }), let module = xctest.children.last(where: { $0.kind == "identifier" }) {
            // `@_exported import XCTest` serves other files: it stays.
            let plain = xctest.text.hasPrefix("import")
            if !plain {
                if !hasTesting { edits.append(Edit(range: xctest.byteRange.upperBound..<xctest.byteRange.upperBound, replacement: "\nimport Testing")) }
            } else if !stillXCTest, !hasTesting {
                edits.append(Edit(range: module.byteRange, replacement: hasFoundation ? "Testing" : "Foundation\nimport Testing"))
            } else if !stillXCTest {
                edits.append(.removal(TidyRemoval.range(removing: xctest.byteRange, in: tree.source)))
            } else if !hasTesting {
                edits.append(Edit(range: xctest.byteRange.upperBound..<xctest.byteRange.upperBound, replacement: "\nimport Testing"))
            }
        } else if !hasTesting, let first = imports.first {
            edits.append(Edit(range: first.byteRange.lowerBound..<first.byteRange.lowerBound, replacement: "import Testing\n"))
        } else if !hasTesting, let first = tree.root.children.first(where: { $0.kind != "comment" && $0.kind != "multiline_comment" }) {
            // No import at the top (XCTest came through another file's `@_exported import`); an
            // edit that starts there (`final ` removed) takes the import in front.
            edits.insertText("import Testing\n\n", at: first.byteRange.lowerBound)
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// A test class's (or its extension's) conversion, or why it is left.
    private mutating func take(_ outcome: TestClassConversion.Outcome, of declaration: Node, named name: String) {
        switch outcome {
        case let .converted(classEdits, classTests, classAssertions):
            edits += classEdits
            tests += classTests
            assertions += classAssertions
            converted.append(declaration.byteRange)
        case let .notConverted(reason):
            left.append(Left(name: name, range: declaration.byteRange, location: declaration.start, reason: reason))
        }
    }

    /// `testCase(Name.allTests)` calls, with the class they name.
    static func manifestEntries(in tree: SyntaxTree) -> [(call: Node, name: String?)] {
        var entries: [(Node, String?)] = []
        tree.root.walk { node in
            guard node.kind == "call_expression", node.child(at: 0)?.text == "testCase" else { return true }
            entries.append((node, manifestClass(node)))
            return false
        }
        return entries
    }

    /// `ListTests` of `testCase(ListTests.allTests)`.
    static func manifestClass(_ call: Node) -> String? {
        let arguments = call.child(at: 1)?.children.first { $0.kind == "value_arguments" }?.children.filter { $0.kind == "value_argument" } ?? []
        // `ListTests.allTests`, or what `swift test --generate-linuxmain` writes: `ListTests.__allTests__ListTests`.
        guard arguments.count == 1, let text = arguments[0].child(field: "value")?.text,
              let dot = text.lastIndex(of: "."), text[dot...].contains("allTests") else { return nil }
        return String(text[..<dot].split(separator: ".").last ?? "")
    }

    /// The parts of a file the conversion looks at, as `XCTestSurvey` sees them too.
    struct Parts {
        /// Classes that inherit from a test case.
        var classes: [Node] = []
        /// Extensions (which may extend a test class).
        var extensions: [Node] = []
        /// Functions outside test classes, not nested in other functions.
        var functions: [Node] = []
        /// Types that store a location.
        var holders: [Node] = []
        /// Other classes that inherit from something: subclasses of a test class, maybe.
        var subclasses: [Node] = []
        /// Initialisers, subscripts and properties outside test classes: code the conversion
        /// does not rewrite, which may hold assertions.
        var others: [Node] = []

        init(_ root: Node) { collect(root) }

        private mutating func collect(_ node: Node) {
            for child in node.children {
                switch child.kind {
                case "class_declaration":
                    let inheritsFromATestCase = child.children.contains { $0.kind == "inheritance_specifier" && $0.text.hasSuffix("TestCase") }
                    if TestClassConversion.isTestClass(child) || (inheritsFromATestCase && child.children.contains { $0.kind == "class" }) {
                        classes.append(child)
                        continue
                    }
                    if child.children.contains(where: { $0.kind == "extension" }) { extensions.append(child) }
                    if StoredLocation.of(child) != nil { holders.append(child) }
                    if child.children.contains(where: { $0.kind == "class" }), child.children.contains(where: { $0.kind == "inheritance_specifier" }) {
                        subclasses.append(child)
                    }
                    collect(child)
                case "function_declaration":
                    functions.append(child)
                case "init_declaration", "deinit_declaration", "subscript_declaration", "property_declaration":
                    others.append(child)
                case "protocol_declaration", "lambda_literal":
                    continue
                default:
                    collect(child)
                }
            }
        }
    }

    /// The name of the type an extension extends, without its module or outer types.
    static func extendedName(_ declaration: Node) -> String? {
        declaration.child(field: "name")?.text.split(separator: ".").last.map(String.init)
    }

    /// The name by which other code reaches a declaration that holds assertions: a function's
    /// or a property's own name; an initialiser's, a subscript's or `callAsFunction`'s type.
    static func reachName(of declaration: Node) -> String {
        let name = declaration.child(field: "name")?.text
        switch declaration.kind {
        case "function_declaration" where name != "callAsFunction", "property_declaration":
            return name ?? "?"
        default:
            return owner(of: declaration) ?? container(of: declaration) ?? "?"
        }
    }

    /// Whether code holds XCTest's assertions, skips or expected failures.
    static func holdsXCTest(_ code: Node) -> Bool {
        var found = false
        code.walk { node in
            if node.kind == "call_expression", let name = node.child(at: 0)?.text,
               AssertionConversion.names.contains(name) || SkipConversion.names.contains(name) || name == "XCTExpectFailure" {
                found = true
            }
            return !found
        }
        return found
    }

    /// The name of the class (not an extension) a node is declared in.
    static func container(of node: Node) -> String? {
        node.ancestors.first { $0.kind == "class_declaration" && !$0.children.contains { $0.kind == "extension" } }
            .flatMap { $0.child(field: "name")?.text }
    }

    /// The first type a class inherits from, without its module.
    static func base(of declaration: Node) -> String? {
        declaration.children.first { $0.kind == "inheritance_specifier" }?.text.split(separator: ".").last.map(String.init)
    }

    /// The type an extension around a node extends.
    static func owner(of node: Node) -> String? {
        node.ancestors.first { $0.kind == "class_declaration" && $0.children.contains { $0.kind == "extension" } }.flatMap(extendedName)
    }

    /// `let file: StaticString` and `let line: UInt` as one `let sourceLocation: SourceLocation`.
    static func storedLocationEdits(_ stored: StoredLocation, in source: SourceText) -> [Edit] {
        guard let name = stored.file.child(field: "name"),
              let type = stored.file.children.last(where: { $0.kind == "type_annotation" }) else { return [] }
        return [Edit(range: name.byteRange.lowerBound..<type.byteRange.upperBound, replacement: "sourceLocation: SourceLocation"),
                .removal(TidyRemoval.range(removing: stored.line.byteRange, in: source))]
    }

    /// Offsets of a text with insertions made, back in the text without them.
    struct InsertionMap {
        /// Each insertion: where it is in the original, and where it spans in the new text.
        private var spans: [(original: Int, start: Int, end: Int)] = []

        init(_ insertions: [Edit]) {
            var shift = 0
            for insertion in insertions.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                let length = insertion.replacement.utf8.count
                spans.append((insertion.range.lowerBound, insertion.range.lowerBound + shift, insertion.range.lowerBound + shift + length))
                shift += length
            }
        }

        func original(_ offset: Int) -> Int {
            var shift = 0
            for span in spans {
                if offset >= span.end { shift += span.end - span.start } else if offset > span.start { return span.original } else { break }
            }
            return offset - shift
        }

        func original(_ range: Range<Int>) -> Range<Int> { original(range.lowerBound)..<max(original(range.lowerBound), original(range.upperBound)) }
    }

    /// The module an import names (`import XCTest`, `@testable import Yams` → `Yams`).
    static func module(of declaration: Node) -> String? {
        declaration.children.last { $0.kind == "identifier" }?.text
    }
}
