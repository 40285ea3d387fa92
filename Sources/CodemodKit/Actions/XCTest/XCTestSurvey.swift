import SwiftTree

/// What one file tells the XCTest conversion of the other files of a run: its test classes, its
/// helpers (functions that hold XCTest assertions) and the types that store a test's location,
/// each by name with the names it calls.
///
/// The conversion needs it because the two frameworks do not see each other's assertions: an
/// `XCTAssert…` in a Swift Testing test, or an `#expect` in an XCTest test, fails silently (seen
/// with Swift 6.3.1 on Linux). So a helper is converted only when every test that calls it is.
struct XCTestSurvey: Sendable {
    /// A test class, a function, or a type that stores a location.
    struct Unit: Sendable {
        enum Kind: Sendable { case testClass, `extension`, function, locationHolder, subclass }
        var kind: Kind
        var name: String
        /// Why it cannot be converted, from its own code.
        var problem: String?
        /// The names it calls (functions, methods, initialisers), a class's own methods left out.
        var calls: Set<String> = []
        /// The names it hands its location to (`file: file, line: line`), assertions left out.
        var handsLocationTo: Set<String> = []
        /// Whether it holds XCTest assertions itself.
        var asserts = false
        /// A function's: the type whose extension declares it.
        var owner: String?
        /// A function's: the class that declares it. A subclass's: the class it inherits from.
        var container: String?
        /// A class's or an extension's: the methods it declares.
        var members: Set<String> = []
        /// A class's: the names of its file that clash with Swift Testing's.
        var clash: TestingNameClash?
        /// A class's or an extension's: the names it declares or uses bare (its tests may not take them).
        var names: Set<String> = []
    }

    var units: [Unit] = []
    /// The names of Swift Testing's types that the file declares itself, and those of them it
    /// declares outside functions.
    var declaredTypes: Set<String> = []
    var declaredOutsideFunctions: Set<String> = []
    /// The names an `extension XCTestCase` declares: a suite, not an XCTestCase, has none of them.
    var testCaseExtensionNames: Set<String> = []
    /// The classes the file uses as class objects (`Bundle(for: FooTests.self)`).
    var classObjects: Set<String> = []
    /// A file the run could not read (its path): it may hold helpers, unseen.
    var unreadable: String?

    /// A file the run could not survey.
    init(unreadable path: String) { unreadable = path }

    init(_ tree: SyntaxTree) {
        let parts = XCTestFileConversion.Parts(tree.root)
        let clash = TestingNameClash(tree)
        declaredTypes = clash.declared
        declaredOutsideFunctions = clash.declaredOutsideFunctions
        let hasXCTest = ByteSearch.contains(tree.source.bytes, Array("XCT".utf8))
        units = parts.classes.filter(TestClassConversion.isTestClass).map { Self.testClass($0, clash: clash) }
        units += parts.extensions.map(Self.extensionUnit)
        units += (parts.classes.filter { !TestClassConversion.isTestClass($0) } + parts.subclasses).map(Self.subclass)
        units += parts.functions.map { Self.function($0, inFileWithXCTest: hasXCTest) }
        units += parts.holders.map(Self.holder)
        units += parts.others.filter(XCTestFileConversion.holdsXCTest).map { declaration in
            Unit(kind: .function, name: XCTestFileConversion.reachName(of: declaration), problem: Self.opaqueReason(declaration),
                 calls: Self.references(declaration), asserts: true)
        }
        let text = tree.source.text(in: 0..<tree.source.bytes.count)
        for match in text.matches(of: #/Bundle\(for:\s*([A-Za-z_][A-Za-z0-9_]*)\.self\s*\)/#) { classObjects.insert(String(match.1)) }
        for declaration in parts.extensions where XCTestFileConversion.extendedName(declaration) == "XCTestCase" {
            declaration.child(field: "body")?.children.forEach { member in
                if let name = member.child(field: "name")?.text { testCaseExtensionNames.insert(name) }
            }
        }
    }

    /// Why assertions in an initialiser, a subscript or a property are not converted.
    static func opaqueReason(_ declaration: Node) -> String {
        let what = ["init_declaration": "an `init`", "deinit_declaration": "a `deinit`", "subscript_declaration": "a subscript"][declaration.kind]
            ?? "the property `\(declaration.child(field: "name")?.text ?? "?")`"
        return "assertions in \(what), which this conversion does not rewrite (move them into a function)"
    }

    /// A class that inherits from something, maybe a test class.
    static func subclass(_ declaration: Node) -> Unit {
        let body = declaration.child(field: "body")
        let own = body.map(declaredFunctions) ?? []
        let handed = body.map(locationTargets) ?? []
        return Unit(kind: .subclass, name: declaration.child(field: "name")?.text ?? "?", calls: body.map(references) ?? [],
                    handsLocationTo: handed.subtracting(own), container: XCTestFileConversion.base(of: declaration), members: own)
    }

    /// A type that stores a location: converted with its methods.
    static func holder(_ declaration: Node) -> Unit {
        let methods = declaration.child(field: "body")?.children.filter { $0.kind == "function_declaration" }.compactMap { $0.child(field: "name")?.text } ?? []
        let name = declaration.child(field: "name")?.text ?? "?"
        return Unit(kind: .locationHolder, name: name, problem: StoredLocation.problem(of: declaration), calls: Set(methods))
    }

    /// An extension, which belongs to its test class when it extends one.
    static func extensionUnit(_ declaration: Node) -> Unit {
        let body = declaration.child(field: "body")
        let own = body.map(declaredFunctions) ?? []
        let handed = body.map(locationTargets) ?? []
        var problem = TestClassConversion.availabilityProblem(declaration)
        if problem == nil, let body, case let .notConverted(reason) = TestClassConversion.members(of: body) { problem = reason }
        return Unit(kind: .extension, name: XCTestFileConversion.extendedName(declaration) ?? "?", problem: problem,
                    calls: body.map(references) ?? [], handsLocationTo: handed.subtracting(own), asserts: true, members: own,
                    names: body.map { TestClassConversion.bareNames(in: $0).union($0.children.compactMap { $0.child(field: "name")?.text }) } ?? [])
    }

    static func testClass(_ declaration: Node, clash: TestingNameClash) -> Unit {
        let name = declaration.child(field: "name")?.text ?? "?"
        let body = declaration.child(field: "body")
        let own = body.map(declaredFunctions) ?? []
        let handed = body.map(locationTargets) ?? []
        return Unit(kind: .testClass, name: name, problem: TestClassConversion.problem(declaration),
                    calls: body.map(references) ?? [], handsLocationTo: handed.subtracting(own), asserts: true, members: own, clash: clash,
                    names: body.map { TestClassConversion.bareNames(in: $0).union($0.children.compactMap { $0.child(field: "name")?.text }) } ?? [])
    }

    static func function(_ declaration: Node, inFileWithXCTest hasXCTest: Bool) -> Unit {
        let name = XCTestFileConversion.reachName(of: declaration)
        var problem: String?
        let extending = XCTestFileConversion.owner(of: declaration)
        let asserts = XCTestFileConversion.holdsXCTest(declaration)
        let parameters = LocationParameters.of(declaration)
        if extending == "XCTestCase" {
            problem = "`\(name)` is declared in an extension of XCTestCase, which a suite is not"
        } else if declaration.child(field: "name")?.text == "callAsFunction", asserts {
            problem = "`\(name)` holds assertions in `callAsFunction`, reached through its instances, which this conversion does not follow"
        } else if let why = parameters?.problem {
            problem = "`\(name)`: \(why)"
        } else if parameters != nil, !hasXCTest {
            problem = "`\(name)` takes `file:`/`line:` in a file without XCTest code, which this run does not rewrite"
        } else if let parameters, let use = LocationParameters.otherUse(of: parameters, in: declaration) {
            problem = "`\(name)` uses its `\(use)` other than to hand it on, which one `sourceLocation` cannot replace"
        } else if case let .notConverted(reason) = HelperConversion.edits(in: declaration) {
            // What the conversion itself would refuse, known before anything is decided.
            problem = reason
        }
        return Unit(kind: .function, name: name, problem: problem, calls: references(declaration), handsLocationTo: locationTargets(declaration),
                    asserts: asserts, owner: extending, container: XCTestFileConversion.container(of: declaration))
    }

    /// The names of the functions a class body declares, nested ones too (a test's local
    /// `func check(…)`).
    static func declaredFunctions(_ body: Node) -> Set<String> {
        var names: Set<String> = []
        body.walk { node in
            if node.kind == "function_declaration", let name = node.child(field: "name")?.text { names.insert(name) }
            return true
        }
        return names
    }

    /// Every name a piece of code mentions (identifiers, types, custom operators), XCTest's
    /// assertions left out: a helper may be reached by a call, a reference (`forEach(check)`), a
    /// type (`Checker(x)`) or an operator.
    static func references(_ code: Node) -> Set<String> {
        var names: Set<String> = []
        code.walk { node in
            switch node.kind {
            case "simple_identifier", "type_identifier", "custom_operator":
                if !AssertionConversion.names.contains(node.text) { names.insert(node.text) }
            default:
                break
            }
            return true
        }
        return names
    }

    /// The names a piece of code hands a location to (`f(x, file: file, line: line)`).
    static func locationTargets(_ code: Node) -> Set<String> {
        var handed: Set<String> = []
        code.walk { node in
            guard node.kind == "call_expression", let name = calleeName(node), !AssertionConversion.names.contains(name) else { return true }
            if LocationArguments.of(node, scope: LocationNames.around(node))?.forwardsScope == true { handed.insert(name) }
            return true
        }
        return handed
    }

    /// `f` of `f(…)`, `x.f(…)` and `Type<T>.f(…)`.
    static func calleeName(_ call: Node) -> String? {
        guard let callee = call.child(at: 0) else { return nil }
        switch callee.kind {
        case "simple_identifier": return callee.text
        case "navigation_expression":
            return callee.child(field: "suffix")?.child(field: "suffix")?.text
        default: return nil
        }
    }
}

/// What the surveys of a run decide: which test classes and helpers are converted, and why the
/// others stay XCTest.
struct XCTestPlan: Sendable {
    /// The test classes of the run, by name.
    var testClasses: Set<String> = []
    /// Classes that inherit from a test class (not from XCTestCase itself), with their base: they
    /// stay XCTest with it.
    var subclassesOfTests: [String: String] = [:]
    /// Test classes that stay XCTest, by name, with the reason.
    var classesLeft: [String: String] = [:]
    /// A test class's parts (the class and its extensions, in every file), by name: the names
    /// they declare or use bare, which its tests may not take.
    var partNames: [String: Set<String>] = [:]

    /// The test classes with extensions in the run.
    var extendedClasses: Set<String> = []
    /// The classes some code uses as class objects (`Bundle(for: FooTests.self)`): they stay classes.
    var classObjects: Set<String> = []

    /// The names the tests of a test class may not take: those its parts declare or use.
    func names(of name: String) -> Set<String> { partNames[name] ?? [] }

    /// The names of Swift Testing's types that the run declares (they shadow Swift Testing's).
    var declaredTypes: Set<String> = []
    /// The helpers converted with the tests that call them (functions and location holders).
    var helpersConverted: Set<String> = []
    /// The helpers that stay XCTest, with the reason.
    var helpersLeft: [String: String] = [:]

    /// The types whose names the converted code writes (`Issue.record`, `Comment(rawValue:)`,
    /// `SourceLocation`, `@Test`): a run that declares one of them cannot be converted as written.
    static let namesWritten: Set<String> = ["Issue", "Comment", "SourceLocation", "Test"]

    init(_ surveys: [XCTestSurvey]) {
        let all = surveys.flatMap(\.units)
        // What no file decides alone: a file not read, a name the converted code needs.
        let unread = surveys.compactMap(\.unreadable)
        let taken = Set(surveys.flatMap(\.declaredOutsideFunctions)).intersection(Self.namesWritten)
        let runProblem = unread.first.map { "the run could not read \($0)\(unread.count > 1 ? " (and \(unread.count - 1) more)" : ""), which may hold helpers its tests call" }
            ?? taken.sorted().first.map { "the run declares a type `\($0)`, which the converted code needs from Swift Testing" }
        let extensionNames = Set(surveys.flatMap(\.testCaseExtensionNames))
        testClasses = Set(all.filter { $0.kind == .testClass }.map(\.name))
        // Subclasses of test classes, at any depth: left, as their bases are.
        var family = testClasses
        var grewFamily = true
        while grewFamily {
            grewFamily = false
            for unit in all where unit.kind == .subclass && !family.contains(unit.name) {
                guard let base = unit.container, family.contains(base) else { continue }
                family.insert(unit.name)
                subclassesOfTests[unit.name] = base
                grewFamily = true
            }
        }
        extendedClasses = Set(all.filter { $0.kind == .extension }.map(\.name)).intersection(testClasses)
        classObjects = Set(surveys.flatMap(\.classObjects))
        for unit in all where unit.kind == .testClass || unit.kind == .extension {
            partNames[unit.name, default: []].formUnion(unit.names)
        }
        // A test class's extensions, and the methods they declare, are the class's.
        var classes = all.filter { $0.kind == .testClass }
        for unit in all where unit.kind == .subclass {
            guard let base = subclassesOfTests[unit.name] else { continue }
            var left = unit
            left.kind = .testClass
            left.problem = "it inherits from \(base), a test class, not from XCTestCase: convert the base class first"
            classes.append(left)
        }
        for index in classes.indices {
            for part in all where part.kind == .extension && part.name == classes[index].name {
                classes[index].calls.formUnion(part.calls)
                classes[index].handsLocationTo.formUnion(part.handsLocationTo)
                classes[index].members.formUnion(part.members)
                classes[index].problem = classes[index].problem ?? part.problem
            }
            // (Its own members do not hide a helper of the same name elsewhere: calls keep them.)
            classes[index].handsLocationTo.subtract(classes[index].members)
        }
        let subclasses = subclassesOfTests
        var units = all.filter { unit in
            unit.kind == .locationHolder || unit.kind == .function && !(unit.owner.map { testClasses.contains($0) || subclasses[$0] != nil } ?? false)
                && !(unit.container.map { subclasses[$0] != nil } ?? false)
        }
        // A type that stores a location is converted with the methods its extensions declare.
        for index in units.indices where units[index].kind == .locationHolder {
            units[index].calls.formUnion(all.filter { $0.kind == .function && $0.owner == units[index].name }.map(\.name))
        }
        units += classes
        // Helpers: functions with assertions, types storing a location, and what calls them.
        var helperNames = Set(units.filter { $0.kind == .locationHolder || ($0.kind == .function && $0.asserts) }.map(\.name))
        var grew = true
        while grew {
            grew = false
            for unit in units where unit.kind == .function && !helperNames.contains(unit.name) && !unit.calls.isDisjoint(with: helperNames) {
                helperNames.insert(unit.name)
                grew = true
            }
        }
        let helpers = units.filter { $0.kind != .testClass && helperNames.contains($0.name) }
        var classLeft: [String: String] = [:]
        declaredTypes = Set(surveys.flatMap(\.declaredTypes))
        let bases = Dictionary(all.filter { $0.kind == .subclass && $0.container.map(testClasses.contains) == true }.map { ($0.container!, $0.name) },
                               uniquingKeysWith: { first, _ in first })
        for unit in classes {
            let usedFromExtension = unit.calls.intersection(extensionNames).subtracting(unit.members).sorted().first
            let problem = runProblem ?? unit.problem ?? unit.clash?.problem(declaredInRun: declaredTypes)
                ?? bases[unit.name].map { "it is the base class of `\($0)`, which would then inherit from a suite: convert them together by hand" }
                ?? usedFromExtension.map { "it uses `\($0)`, which an extension of XCTestCase declares" }
            if let problem { classLeft[unit.name] = classLeft[unit.name] ?? problem }
        }
        var helperLeft: [String: String] = [:]
        for unit in helpers {
            if let problem = unit.problem { helperLeft[unit.name] = helperLeft[unit.name] ?? problem }
            // A location handed to something this run does not convert would be lost.
            for target in unit.handsLocationTo.sorted() where !helperNames.contains(target) && helperLeft[unit.name] == nil {
                helperLeft[unit.name] = "`\(unit.name)` hands its `file:`/`line:` to `\(target)`, which this run does not convert"
            }
        }
        for unit in classes where classLeft[unit.name] == nil {
            for target in unit.handsLocationTo.sorted() where !helperNames.contains(target) {
                classLeft[unit.name] = "it hands `file:`/`line:` to `\(target)`, which this run does not convert"
                break
            }
        }
        // Whoever calls a helper that stays stays; a helper stays unless all its callers convert.
        var changed = true
        while changed {
            changed = false
            for unit in classes where classLeft[unit.name] == nil {
                if let helper = unit.calls.intersection(helperNames).sorted().first(where: { helperLeft[$0] != nil }) {
                    classLeft[unit.name] = "it calls the helper `\(helper)`, which stays XCTest (\(helperLeft[helper]!))"
                    changed = true
                } else if let other = classes.first(where: { $0.name != unit.name && classLeft[$0.name] != nil && unit.calls.contains($0.name) }) {
                    // A static helper or a nested type of another suite.
                    classLeft[unit.name] = "it uses `\(other.name)`, which stays XCTest"
                    changed = true
                } else if let other = classes.first(where: { $0.name != unit.name && classLeft[$0.name] != nil && $0.calls.contains(unit.name) })
                            ?? helpers.first(where: { helperLeft[$0.name] != nil && $0.calls.contains(unit.name) }) {
                    classLeft[unit.name] = "`\(other.name)`, which stays XCTest, uses it"
                    changed = true
                }
            }
            for name in helperNames.sorted() where helperLeft[name] == nil {
                let own = helpers.filter { $0.name == name }
                if let callee = own.flatMap({ $0.calls.intersection(helperNames) }).sorted().first(where: { $0 != name && helperLeft[$0] != nil }) {
                    helperLeft[name] = "`\(name)` calls `\(callee)`, which stays XCTest"
                    changed = true
                    continue
                }
                let callingClasses = classes.filter { $0.calls.contains(name) }
                let callingHelpers = helpers.filter { $0.name != name && $0.calls.contains(name) }
                if callingClasses.isEmpty && callingHelpers.isEmpty {
                    helperLeft[name] = "no test class of this run calls `\(name)`"
                    changed = true
                } else if let caller = callingClasses.first(where: { classLeft[$0.name] != nil }) {
                    helperLeft[name] = "`\(name)` is also called by `\(caller.name)`, which stays XCTest"
                    changed = true
                } else if let caller = callingHelpers.first(where: { helperLeft[$0.name] != nil }) {
                    helperLeft[name] = "`\(name)` is also called by `\(caller.name)`, which stays XCTest"
                    changed = true
                }
            }
        }
        classesLeft = classLeft
        helpersLeft = helperLeft
        helpersConverted = helperNames.subtracting(helperLeft.keys)
    }
}
