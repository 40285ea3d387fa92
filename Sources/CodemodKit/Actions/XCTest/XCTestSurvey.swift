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
    /// The names of Swift Testing's types that the file declares itself.
    var declaredTypes: Set<String> = []

    init(_ tree: SyntaxTree) {
        let parts = XCTestFileConversion.Parts(tree.root)
        let clash = TestingNameClash(tree)
        declaredTypes = clash.declared
        units = parts.classes.filter(TestClassConversion.isTestClass).map { Self.testClass($0, clash: clash) }
        units += parts.extensions.map(Self.extensionUnit)
        units += (parts.classes.filter { !TestClassConversion.isTestClass($0) } + parts.subclasses).map(Self.subclass)
        units += parts.functions.map(Self.function)
        units += parts.holders.map(Self.holder)
    }

    /// A class that inherits from something, maybe a test class.
    static func subclass(_ declaration: Node) -> Unit {
        let body = declaration.child(field: "body")
        let own = body.map(declaredFunctions) ?? []
        let (calls, handed) = body.map(calledNames) ?? ([], [])
        return Unit(kind: .subclass, name: declaration.child(field: "name")?.text ?? "?", calls: calls.subtracting(own),
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
        let (calls, handed) = body.map(calledNames) ?? ([], [])
        var problem: String?
        if let body, case let .notConverted(reason) = TestClassConversion.members(of: body) { problem = reason }
        return Unit(kind: .extension, name: XCTestFileConversion.extendedName(declaration) ?? "?", problem: problem,
                    calls: calls.subtracting(own), handsLocationTo: handed.subtracting(own), asserts: true, members: own,
                    names: body.map { TestClassConversion.bareNames(in: $0).union($0.children.compactMap { $0.child(field: "name")?.text }) } ?? [])
    }

    static func testClass(_ declaration: Node, clash: TestingNameClash) -> Unit {
        let name = declaration.child(field: "name")?.text ?? "?"
        let body = declaration.child(field: "body")
        let own = body.map(declaredFunctions) ?? []
        let (calls, handed) = body.map(calledNames) ?? ([], [])
        return Unit(kind: .testClass, name: name, problem: TestClassConversion.problem(declaration),
                    calls: calls.subtracting(own), handsLocationTo: handed.subtracting(own), asserts: true, members: own, clash: clash,
                    names: body.map { TestClassConversion.bareNames(in: $0).union($0.children.compactMap { $0.child(field: "name")?.text }) } ?? [])
    }

    static func function(_ declaration: Node) -> Unit {
        let name = declaration.child(field: "name")?.text ?? "?"
        var problem: String?
        let extending = XCTestFileConversion.owner(of: declaration)
        if extending == "XCTestCase" {
            problem = "`\(name)` is declared in an extension of XCTestCase, which a suite is not"
        } else if let parameters = LocationParameters.of(declaration), let why = parameters.problem {
            problem = "`\(name)`: \(why)"
        }
        var asserts = false
        declaration.walk { node in
            guard node.kind == "call_expression", let callee = node.child(at: 0), AssertionConversion.names.contains(callee.text) else { return true }
            asserts = true
            if problem == nil, case let .notConverted(reason) = AssertionConversion.convert(node) {
                problem = "\(callee.text) at line \(node.start.line): \(reason)"
            }
            return false
        }
        let (calls, handed) = calledNames(declaration)
        return Unit(kind: .function, name: name, problem: problem, calls: calls, handsLocationTo: handed, asserts: asserts, owner: extending,
                    container: XCTestFileConversion.container(of: declaration))
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

    /// The names a piece of code calls, and those it hands a location to (XCTest's assertions
    /// left out of both).
    static func calledNames(_ code: Node) -> (calls: Set<String>, handsLocationTo: Set<String>) {
        var calls: Set<String> = []
        var handed: Set<String> = []
        code.walk { node in
            guard node.kind == "call_expression", let name = calleeName(node) else { return true }
            if AssertionConversion.names.contains(name) { return true }
            calls.insert(name)
            if LocationArguments.of(node, scope: LocationNames.around(node))?.forwardsScope == true { handed.insert(name) }
            return true
        }
        return (calls, handed)
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

    /// The names the tests of a test class may not take: those its parts declare or use.
    func names(of name: String) -> Set<String> { partNames[name] ?? [] }

    /// The names of Swift Testing's types that the run declares (they shadow Swift Testing's).
    var declaredTypes: Set<String> = []
    /// The helpers converted with the tests that call them (functions and location holders).
    var helpersConverted: Set<String> = []
    /// The helpers that stay XCTest, with the reason.
    var helpersLeft: [String: String] = [:]

    init(_ surveys: [XCTestSurvey]) {
        let all = surveys.flatMap(\.units)
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
            classes[index].calls.subtract(classes[index].members)
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
        for unit in classes {
            if let problem = unit.problem ?? unit.clash?.problem(declaredInRun: declaredTypes) { classLeft[unit.name] = classLeft[unit.name] ?? problem }
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
