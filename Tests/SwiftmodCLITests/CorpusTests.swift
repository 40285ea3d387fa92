import Foundation
import Testing

/// Runs every codemod over its fixtures in `Corpus/<codemod>/`: each `<case>.swift` must become
/// `<case>.expected.swift` byte for byte (line endings, BOM and all), a second run must change
/// nothing, the dry-run diff must apply with `git apply` to the same result, and every output must
/// parse with `swiftc -frontend -parse` (but for `broken*` fixtures, which do not parse on purpose).
/// A variant runs the same input with the arguments in `<case>.<variant>.args` (such as
/// `--param binding=this`) and must give `<case>.<variant>.expected.swift`. When there is a
/// `<case>.notes` (or `<case>.<variant>.notes`), the run's notes (`note: Input.swift:…` lines)
/// must be exactly its lines.
@Suite struct CorpusTests {
    struct Fixture: CustomStringConvertible {
        var codemod: String
        /// The input is `<name>.swift`.
        var name: String
        /// The expected output is `<name><expected>`.
        var expected: String
        var arguments: [String]
        var description: String { "\(codemod)/\(name)\(expected.dropLast(".swift".count))" }
        /// The expected notes are in `<name><notes>`: `.notes`, or `.this.notes` for a variant.
        var notes: String { String(expected.dropLast(".expected.swift".count)) + ".notes" }
    }

    static let fixtures: [Fixture] = {
        let corpus = CLI.packageRoot + "/Corpus"
        let manager = FileManager.default
        var result: [Fixture] = []
        for codemod in ((try? manager.contentsOfDirectory(atPath: corpus)) ?? []).sorted() where codemod != "parse" {
            let folder = corpus + "/" + codemod
            let files = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for file in files where file.hasSuffix(".swift") && !file.hasSuffix(".expected.swift") {
                let name = String(file.dropLast(".swift".count))
                if files.contains(name + ".expected.swift") {
                    result.append(Fixture(codemod: codemod, name: name, expected: ".expected.swift", arguments: []))
                }
                for variant in files where variant.hasPrefix(name + ".") && variant.hasSuffix(".args") {
                    let label = variant.dropFirst(name.count).dropLast(".args".count)  // ".this"
                    let args = (try? String(contentsOfFile: folder + "/" + variant, encoding: .utf8))?
                        .split(whereSeparator: \.isWhitespace).map(String.init) ?? []
                    result.append(Fixture(codemod: codemod, name: name, expected: "\(label).expected.swift", arguments: args))
                }
            }
        }
        return result
    }()

    static func corpusFile(_ fixture: Fixture, _ suffix: String) -> URL {
        URL(fileURLWithPath: "\(CLI.packageRoot)/Corpus/\(fixture.codemod)/\(fixture.name)\(suffix)")
    }

    @Test func corpusIsThere() {
        #expect(Self.fixtures.contains { $0.codemod == "strong-iboutlet" })
        #expect(Self.fixtures.contains { $0.description == "backtick-self/program.this.expected" })
        // Every expected file belongs to a fixture that runs.
        let corpus = CLI.packageRoot + "/Corpus"
        for codemod in (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? [] where codemod != "parse" {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: "\(corpus)/\(codemod)")) ?? []
            where file.hasSuffix(".expected.swift") || file.hasSuffix(".notes") {
                #expect(Self.fixtures.contains { "\($0.name)\($0.expected)" == file || "\($0.name)\($0.notes)" == file },
                        "\(codemod)/\(file) is not run")
            }
        }
    }

    @Test(arguments: fixtures)
    func fixtureBecomesExpected(_ fixture: Fixture) throws {
        let scratch = try Scratch()
        let input = try Data(contentsOf: Self.corpusFile(fixture, ".swift"))
        let expected = try Data(contentsOf: Self.corpusFile(fixture, fixture.expected))
        let file = try scratch.write("Input.swift", data: input)

        // The dry run prints a diff and writes nothing; the diff applies with git apply.
        let dry = try CLI.swiftmod(["run", fixture.codemod, "Input.swift"] + fixture.arguments, in: scratch.path)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try scratch.read("Input.swift") == input)
        if input != expected {
            try dry.stdoutBytes.write(to: scratch.url("change.diff"))
            let apply = try CLI.run("git", ["apply", "--whitespace=nowarn", "change.diff"], in: scratch.path)
            #expect(apply.status == 0, "git apply: \(apply.stderr)")
            #expect(try scratch.read("Input.swift") == expected, "the applied diff differs from the expected file")
            try input.write(to: URL(fileURLWithPath: file))
        } else {
            #expect(dry.stdout.isEmpty)
        }

        // --write produces the expected bytes.
        let write = try CLI.swiftmod(["run", fixture.codemod, "Input.swift", "--write"] + fixture.arguments, in: scratch.path)
        #expect(write.status == 0, "\(write.stderr)")
        let output = try scratch.read("Input.swift")
        #expect(output == expected, "got:\n\(String(decoding: output, as: UTF8.self))")
        if let notes = try? String(contentsOf: Self.corpusFile(fixture, fixture.notes), encoding: .utf8) {
            let said = write.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }
            #expect(said == notes.split(separator: "\n"), "notes:\n\(said.joined(separator: "\n"))")
        }

        // A second run changes nothing.
        let again = try CLI.swiftmod(["run", fixture.codemod, "Input.swift"] + fixture.arguments, in: scratch.path)
        #expect(again.stdout.isEmpty, "second run wants to change:\n\(again.stdout)")
        #expect(again.stderr.contains("0 to change"))

        // Every output parses with the compiler's parser, but for fixtures that are broken on purpose.
        if !fixture.name.hasPrefix("broken") {
            #expect(try CLI.swiftcParseErrors([file]) == "")
        }
    }
}
