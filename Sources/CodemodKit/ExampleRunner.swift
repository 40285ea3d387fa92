import SwiftTree
import Workspace

/// Runs a definition's examples, the way SwiftLint runs a rule's: every `match` example must be
/// found, every `no-match` example must be left alone (with a note, when it names one), every
/// `fix` example's `before` must become its `after`, and a second run over each `after` must
/// change nothing.
public struct ExampleRunner {
    /// An example that did not hold.
    public struct Failure: CustomStringConvertible, Equatable {
        public var origin: String
        public var line: Int
        public var example: String
        public var message: String

        public var description: String { "\(origin):\(line): \(example): \(message)" }
    }

    public var actions: ActionRegistry

    public init(actions: ActionRegistry = .standard) {
        self.actions = actions
    }

    /// The failures of every example (empty when all hold), and how many examples ran.
    public func run(_ definition: CodemodDefinition) -> (failures: [Failure], examples: Int) {
        let parser = Parser()
        var failures: [Failure] = []
        func fail(_ line: Int, _ example: String, _ message: String) {
            failures.append(Failure(origin: definition.origin, line: line, example: example, message: message))
        }
        func codemod(_ params: [String: String], _ line: Int, _ example: String) -> Codemod? {
            do {
                return try Codemod(definition, params: params, actions: actions)
            } catch {
                fail(line, example, "\(error)")
                return nil
            }
        }
        // A regular expression that runs out of time fails the example, naming the field.
        func uses(_ codemod: Codemod, _ tree: SyntaxTree, _ line: Int, _ example: String) -> [Use]? {
            do { return try codemod.uses(in: tree) } catch {
                fail(line, example, "\(error)")
                return nil
            }
        }
        for (index, example) in definition.matchExamples.enumerated() {
            let name = "examples.match[\(index)]"
            guard let codemod = codemod(example.params, example.line, name) else { continue }
            guard let found = uses(codemod, parser.parse(example.code), example.line, name) else { continue }
            if found.isEmpty {
                fail(example.line, name, "expected at least one match, found none")
            }
        }
        for (index, example) in definition.noMatchExamples.enumerated() {
            let name = "examples.no-match[\(index)]"
            guard let codemod = codemod(example.params, example.line, name) else { continue }
            let tree = parser.parse(example.code)
            guard let found = uses(codemod, tree, example.line, name) else { continue }
            if let first = found.first {
                fail(example.line, name, "expected no match, found \(found.count) (first at \(first.start): `\(first.text)`)")
            }
            if let note = example.note, !((try? codemod.transform(tree))?.notes ?? []).contains(where: { $0.message.contains(note) }) {
                fail(example.line, name, "expected a note containing '\(note)', found none")
            }
        }
        for (index, example) in definition.fixExamples.enumerated() {
            let name = "examples.fix[\(index)]"
            guard let codemod = codemod(example.params, example.line, name) else { continue }
            let beforeTree = parser.parse(example.before)
            guard let found = uses(codemod, beforeTree, example.line, name) else { continue }
            if found.isEmpty {
                fail(example.line, name, "'before' has no match")
                continue
            }
            let result: String
            do {
                result = try Self.rewrite(beforeTree, with: codemod)
            } catch {
                fail(example.line, name, "\(error)")
                continue
            }
            if result != example.after {
                fail(example.line, name, "'before' did not become 'after':\n" + Self.describeDifference(expected: example.after, actual: result))
                continue
            }
            let afterTree = parser.parse(example.after)
            if afterTree.errorRegions.count > beforeTree.errorRegions.count {
                fail(example.line, name, "'after' has syntax errors that 'before' has not")
            }
            let again = (try? Self.rewrite(afterTree, with: codemod)) ?? result
            if again != example.after {
                fail(example.line, name, "not idempotent: a second run changes 'after':\n" + Self.describeDifference(expected: example.after, actual: again))
            }
        }
        let count = definition.matchExamples.count + definition.noMatchExamples.count + definition.fixExamples.count
        return (failures, count)
    }

    /// The text of a tree after a codemod's edits.
    static func rewrite(_ tree: SyntaxTree, with codemod: Codemod) throws -> String {
        let transformation = try codemod.transform(tree)
        if let refusal = transformation.refusals.first { throw refusal }
        let edits = try EditSet(transformation.edits, in: tree.source)
        return String(decoding: edits.apply(to: tree.source), as: UTF8.self)
    }

    /// The first differing line, with expected and actual text.
    static func describeDifference(expected: String, actual: String) -> String {
        let expectedLines = expected.components(separatedBy: "\n")
        let actualLines = actual.components(separatedBy: "\n")
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let want = index < expectedLines.count ? expectedLines[index] : "<end>"
            let got = index < actualLines.count ? actualLines[index] : "<end>"
            if want != got {
                return "    line \(index + 1): expected: \(want)\n    line \(index + 1): actual:   \(got)"
            }
        }
        return "    (they differ in line endings only)"
    }
}
