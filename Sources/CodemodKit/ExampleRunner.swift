import SwiftTree
import Workspace

/// Runs a definition's examples, the way SwiftLint runs a rule's: every `match` example must be
/// found, every `no-match` example must be left alone (with a note, when it names one), every
/// `fix` example's `before` must become its `after`, and a second run over each `after` must
/// change nothing.
///
/// As in SwiftLint, a `↓` in a `match` example or a `fix` example's `before` marks where a use
/// must be reported: just before the start of the use's node (its `use` capture). The markers are
/// removed before the code is parsed; an example with markers then holds only when the uses start
/// exactly at the marked places, one use per marker. An example without markers only needs a use.
public struct ExampleRunner {
    /// The marker that states where a use must be reported.
    public static let marker = "↓"

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
        /// Checks the uses of marked code against its markers, or, without markers, that it has one.
        func checkUses(_ found: [Use], marked: MarkedCode, _ line: Int, _ example: String, none: String) {
            guard !marked.markers.isEmpty else {
                if found.isEmpty { fail(line, example, none) }
                return
            }
            // One failure per example (`swiftmod test` counts them as failing examples).
            let problems = Self.positionProblems(marked: marked.markers, found: found.map(\.range.lowerBound), in: SourceText(marked.code))
            if !problems.isEmpty { fail(line, example, problems.joined(separator: "; ")) }
        }
        for (index, example) in definition.matchExamples.enumerated() {
            let name = "examples.match[\(index)]"
            guard let codemod = codemod(example.params, example.line, name) else { continue }
            let marked = MarkedCode(example.code)
            guard let found = uses(codemod, parser.parse(marked.code), example.line, name) else { continue }
            checkUses(found, marked: marked, example.line, name, none: "expected at least one match, found none")
        }
        for (index, example) in definition.noMatchExamples.enumerated() {
            let name = "examples.no-match[\(index)]"
            guard let codemod = codemod(example.params, example.line, name) else { continue }
            if example.code.contains(Self.marker) {
                fail(example.line, name, "a no-match example has no use to mark: remove its \(Self.marker)")
                continue
            }
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
            let marked = MarkedCode(example.before)
            let beforeTree = parser.parse(marked.code)
            guard let found = uses(codemod, beforeTree, example.line, name) else { continue }
            checkUses(found, marked: marked, example.line, name, none: "'before' has no match")
            if found.isEmpty { continue }
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

    /// Example code with its `↓` markers taken out.
    public struct MarkedCode: Equatable {
        /// The code without markers: what is parsed.
        public var code: String
        /// The byte offsets in `code` where the markers stood, in order.
        public var markers: [Int]

        public init(_ text: String) {
            let marker = Array(ExampleRunner.marker.utf8)
            var bytes: [UInt8] = []
            var markers: [Int] = []
            let input = Array(text.utf8)
            bytes.reserveCapacity(input.count)
            var index = 0
            while index < input.count {
                if input[index] == marker[0], input[index...].starts(with: marker) {
                    markers.append(bytes.count)
                    index += marker.count
                } else {
                    bytes.append(input[index])
                    index += 1
                }
            }
            code = String(decoding: bytes, as: UTF8.self)
            self.markers = markers
        }
    }

    /// What differs between the marked starts of uses and the starts of the uses found (byte
    /// offsets), as messages with positions in the example (`line:column`, columns in UTF-8
    /// bytes, as `run` and `scan` report them): a marked place and a use found elsewhere are
    /// paired ("expected a use at 3:14, found at 3:10"); the rest is "no use reported at 5:2" or
    /// "unexpected use at 7:1". Empty when every marker has its use and every use its marker.
    static func positionProblems(marked: [Int], found: [Int], in source: SourceText) -> [String] {
        var unmatched = found.sorted()
        var missing: [Int] = []
        for offset in marked.sorted() {
            if let index = unmatched.firstIndex(of: offset) { unmatched.remove(at: index) } else { missing.append(offset) }
        }
        func at(_ offset: Int) -> String { "\(source.location(ofByte: offset))" }
        let paired = min(missing.count, unmatched.count)
        return (0..<paired).map { "expected a use at \(at(missing[$0])), found at \(at(unmatched[$0]))" }
            + missing.dropFirst(paired).map { "no use reported at \(at($0))" }
            + unmatched.dropFirst(paired).map { "unexpected use at \(at($0))" }
    }

    /// The text of a tree after a codemod's edits.
    static func rewrite(_ tree: SyntaxTree, with codemod: Codemod) throws -> String {
        let transformation = try codemod.transform(tree)
        if let refusal = transformation.refusals.first { throw refusal }
        let edits = try EditSet(transformation.edits, in: tree.source)
        return String(decoding: edits.apply(to: tree.source), as: UTF8.self)
    }

    /// The whole difference: the lines between the common start and end, as expected (`-`) and
    /// as the fix made them (`+`), with their line numbers.
    static func describeDifference(expected: String, actual: String) -> String {
        let want = expected.components(separatedBy: "\n")
        let got = actual.components(separatedBy: "\n")
        var start = 0
        while start < want.count, start < got.count, want[start] == got[start] { start += 1 }
        var wantEnd = want.count, gotEnd = got.count
        while wantEnd > start, gotEnd > start, want[wantEnd - 1] == got[gotEnd - 1] { wantEnd -= 1; gotEnd -= 1 }
        if start == wantEnd, start == gotEnd { return "    (they differ in line endings only)" }
        var lines = ["    from line \(start + 1) (- expected, + actual):"]
        lines += want[start..<wantEnd].map { "    - \($0)" }
        lines += got[start..<gotEnd].map { "    + \($0)" }
        return lines.joined(separator: "\n")
    }
}
