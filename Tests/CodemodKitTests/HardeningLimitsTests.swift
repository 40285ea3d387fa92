import BundledCodemods
@testable import CodemodKit
import Foundation
import SwiftTree
import Testing
import Workspace

/// Limits on what user input can cost: regular expressions with a time bound, and the bundled
/// actions linear in nesting depth and in the number of uses.
@Suite struct HardeningLimitsTests {
    /// A definition whose regular expression, in the given field, backtracks catastrophically.
    static func catastrophic(_ field: String) -> String {
        let query = field == "match.query"
            ? #"((property_declaration) @id (#match? @id "^(\\w+\\s?)+$"))"#
            : "(property_declaration) @id"
        let constraint = field == "match.query" ? "" : "\n  constraints:\n    id: { \(field.hasSuffix("not-matches") ? "not-matches" : "matches"): \"^(\\\\w+\\\\s?)+$\" }"
        return """
        id: slow
        summary: Slow
        why: Because.
        match:
          query: |
            \(query)\(constraint)
        """
    }

    @Test(arguments: ["match.query", "match.constraints.id.matches", "match.constraints.id.not-matches"])
    func aCatastrophicPatternFailsNamingFileAndField(field: String) throws {
        let codemod = try Codemod(try definition(Self.catastrophic(field), origin: "Tools/slow.yml"))
        let tree = Parser().parse("let thisisalongidentifierwithmanyletters = y!\n")
        let started = Date()
        do {
            _ = try codemod.uses(in: tree)
            Issue.record("expected a time-out")
        } catch let error as LocatedError {
            #expect(error.file == "Tools/slow.yml")
            #expect(error.field == field)
            #expect(error.message.contains("took more than"))
        }
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func aCatastrophicParameterPatternIsAParameterErrorNamingTheField() throws {
        let yaml = """
        id: slow
        summary: Slow
        why: Because.
        params:
          name: { pattern: "(\\\\w+\\\\s?)+" }
        match:
          query: "(simple_identifier) @id"
        """
        #expect(throws: ParameterError.self) {
            do {
                _ = try Codemod(try definition(yaml, origin: "Tools/slow.yml"), params: ["name": "thisisalongidentifierwithmanyletters!"])
            } catch let error as ParameterError {
                #expect(error.message.contains("Tools/slow.yml"))
                #expect(error.message.contains("params.name.pattern"))
                throw error
            }
        }
    }

    @Test func slowMatchesUnderTheLimitAreBoundedInAll() throws {
        // Each of these takes a good while, yet less than one match's limit: many of them must
        // still end in a time-out, not minutes later.
        let regex = try BoundedRegex("^(\\w+\\s?)+$!", timeLimit: 5)
        let started = Date()
        var timeout: RegexTimeout?
        for index in 0..<1_000 where timeout == nil {
            do {
                _ = try regex.matches(String(repeating: "a", count: 18) + "bc\(index % 10)")
            } catch let error as RegexTimeout {
                timeout = error
            }
        }
        let error = try #require(timeout)
        #expect(error.overall)
        #expect(error.description.contains("slow matches took more than 2.0 s in all"))
        #expect(Date().timeIntervalSince(started) < 30)
        // A sound pattern over as many names spends nothing of that budget.
        let sound = try BoundedRegex("^(?:[A-Z][a-z]+)+$")
        for index in 0..<20_000 { _ = try sound.matches("WebView\(index)") }
    }

    @Test func soundPatternsStillMatch() throws {
        let regex = try BoundedRegex("^(?:[A-Z][a-z]+)+$")
        #expect(try regex.matches("UIWebView") == false)
        #expect(try regex.matches("WebView"))
    }

    // MARK: Linear time

    /// The bundled codemod with an id, bound to parameters.
    static func bundled(_ id: String, _ params: [String: String] = [:]) throws -> Codemod {
        let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions)
        return try Codemod(try #require(try catalog.definition(named: id)), params: params)
    }

    /// The fastest of three runs of a codemod over a source (parsing not counted).
    /// The CPU time the codemod takes on this thread (best of five): unlike the wall clock, it
    /// hardly moves when other tests or programs keep the machine busy.
    static func seconds(_ codemod: Codemod, _ source: String) throws -> Double {
        let tree = Parser().parse(source)
        func threadTime() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var best = Double.infinity
        for _ in 0..<5 {
            let started = threadTime()
            let transformation = try codemod.transform(tree)
            #expect(!transformation.edits.isEmpty)
            best = min(best, threadTime() - started)
        }
        return best
    }

    static func nestedIfs(_ depth: Int, around body: String) -> String {
        "class A {\n  var x = true\n  func f() {\n" + String(repeating: "if x {\n", count: depth) + body + "\n"
            + String(repeating: "}\n", count: depth) + "  }\n}\n"
    }

    static func manyUses(_ count: Int) -> String {
        "func make() {\n" + (0..<count).map { "  let v\($0): UIWebView = UIWebView()\n" }.joined() + "}\n"
    }

    static func nestedRebindings(_ depth: Int) -> String {
        "class A {\n  var x = true\n  func f() {\n  run { [weak self] in\n"
            + String(repeating: "if let `self` = self {\n", count: depth) + "self.x = false\n"
            + String(repeating: "}\n", count: depth) + "  }\n  }\n}\n"
    }

    /// Doubling the input must not much more than double the time: quadratic work quadruples it.
    /// (Before, 2,500 nested `if` took 37 s in `swap-type`, and 10,000 uses in one file 4 s.)
    @Test(arguments: ["swap-type nested", "swap-type uses", "backtick-self nested", "backtick-self this nested"])
    func timeGrowsLinearly(with shape: String) throws {
        let (codemod, make): (Codemod, (Int) -> String)
        switch shape {
        case "swap-type nested":
            (codemod, make) = (try Self.bundled("uiwebview"), { Self.nestedIfs($0, around: "let w: UIWebView = UIWebView()") })
        case "swap-type uses":
            (codemod, make) = (try Self.bundled("uiwebview"), { Self.manyUses($0 * 2) })
        case "backtick-self nested":
            (codemod, make) = (try Self.bundled("backtick-self"), Self.nestedRebindings)
        default:
            (codemod, make) = (try Self.bundled("backtick-self", ["binding": "this"]),
                               { Self.nestedIfs($0, around: "run { [weak self] in guard let `self` = self else { return }; self.x = false }") })
        }
        // Best of five runs each, at sizes large enough that a busy machine's pauses matter less.
        let small = try Self.seconds(codemod, make(4_000))
        let large = try Self.seconds(codemod, make(8_000))
        // Linear: about 2; quadratic: 4. A little slack for a busy machine, and for tiny times.
        #expect(large < 3 * small + 0.05, "\(shape): \(small) s for 4,000, \(large) s for 8,000")
    }
}
