import Foundation
import SwiftTree
import Workspace
import Yams

/// Runs ast-grep's rule tests (`rule-tests/*.yml`): for the rule with the test's `id`, every
/// `valid` snippet must hold no use and every `invalid` snippet at least one. ast-grep's snapshots
/// (`__snapshots__`) are not compared: swiftmod's own `examples:` check fixes.
public struct RuleTestRunner {
    public init() {}

    /// One test file's cases.
    public struct TestCase {
        public var id: String
        public var origin: String
        public var valid: [(code: String, line: Int)]
        public var invalid: [(code: String, line: Int)]
    }

    public static func load(_ path: String) throws -> TestCase {
        guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw LocatedError(file: path, line: nil, field: nil, message: "cannot be read")
        }
        let root = try FieldReader.compose(text, origin: path)
        let fields = FieldReader(origin: path)
        let top = try fields.mapping(root, nil)
        try fields.checkKeys(top, allowed: ["id", "valid", "invalid"], at: nil)
        guard let idNode = top["id"] else { throw fields.fail(root, "id", "is required") }
        func cases(_ key: String) throws -> [(String, Int)] {
            guard let node = top[key] else { return [] }
            guard let list = node.sequence else { throw fields.fail(node, key, "must be a list of code snippets") }
            return try list.enumerated().map { (try fields.string($1, "\(key)[\($0)]"), $1.mark?.line ?? 0) }
        }
        return TestCase(id: try fields.string(idNode, "id"), origin: path, valid: try cases("valid"), invalid: try cases("invalid"))
    }

    /// The failures of a test against its rule, and how many snippets ran.
    public func run(_ test: TestCase, definition: CodemodDefinition) -> (failures: [ExampleRunner.Failure], count: Int) {
        var failures: [ExampleRunner.Failure] = []
        let codemod: Codemod
        do { codemod = try Codemod(definition) } catch {
            return ([ExampleRunner.Failure(origin: test.origin, line: 1, example: "id", message: "\(error)")], 0)
        }
        let parser = Parser()
        for (key, snippets, wantsUse) in [("valid", test.valid, false), ("invalid", test.invalid, true)] {
            for (code, line) in snippets {
                let shown = SafeText.oneLine(code.split(separator: "\n").first.map(String.init) ?? "", limit: 60)
                do {
                    let uses = try codemod.uses(in: parser.parse(code))
                    if wantsUse, uses.isEmpty {
                        failures.append(.init(origin: test.origin, line: line, example: key, message: "no use found in `\(shown)`"))
                    } else if !wantsUse, let use = uses.first {
                        failures.append(.init(origin: test.origin, line: line, example: key,
                                              message: "unexpected use `\(SafeText.oneLine(use.text, limit: 40))` at \(use.start) in `\(shown)`"))
                    }
                } catch {
                    failures.append(.init(origin: test.origin, line: line, example: key, message: "\(error)"))
                }
            }
        }
        return (failures, test.valid.count + test.invalid.count)
    }
}
