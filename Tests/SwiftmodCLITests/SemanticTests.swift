import Foundation
import Testing

/// Foundation-only programs in `Corpus/` (named `program*.swift`) are compiled and run before and
/// after their rewrite (each `program*.expected.swift` and `program*.<variant>.expected.swift`):
/// they must print exactly the same — or, where `program*.<variant>.stdout` exists, exactly that
/// (say, what the new class of a swap prints) — and the rewritten program must compile without new
/// warnings about unused values. (CorpusTests checks that the expected files are what swiftmod
/// produces.)
@Suite struct SemanticTests {
    static let programs: [String] = {
        let corpus = CLI.packageRoot + "/Corpus"
        var result: [String] = []
        for codemod in ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).sorted() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(corpus)/\(codemod)")) ?? []
            for file in files.sorted() where file.hasPrefix("program") && file.hasSuffix(".expected.swift") {
                result.append("\(codemod)/\(file)")
            }
        }
        return result
    }()

    struct Build {
        var output: String
        var unusedWarnings: Int
    }

    /// Compiles a file as `main.swift` and runs it.
    static func compileAndRun(_ source: String) throws -> Build {
        let scratch = try Scratch()
        try FileManager.default.copyItem(atPath: source, toPath: scratch.url("main.swift").path)
        let compile = try CLI.run("swiftc", ["-swift-version", "5", "main.swift", "-o", "program"], in: scratch.path)
        #expect(compile.status == 0, "\(source) does not compile:\n\(compile.stderr)")
        let warnings = compile.stderr.components(separatedBy: "\n")
            .filter { $0.contains("warning:") && $0.contains("never used") && $0.hasPrefix("main.swift") }.count
        let run = try CLI.run(scratch.url("program").path, [], in: scratch.path)
        #expect(run.status == 0)
        return Build(output: run.stdout, unusedWarnings: warnings)
    }

    @Test func programsExist() {
        #expect(Self.programs.contains("backtick-self/program.expected.swift"))
        #expect(Self.programs.contains("backtick-self/program.this.expected.swift"))
        #expect(Self.programs.contains("swap-type/program.swap.expected.swift"))
    }

    @Test(arguments: programs)
    func rewrittenProgramBehavesTheSame(_ program: String) throws {
        // `program.this.expected.swift` is a rewrite of `program.swift`.
        let expected = "\(CLI.packageRoot)/Corpus/\(program)"
        let folder = (expected as NSString).deletingLastPathComponent
        let name = (expected as NSString).lastPathComponent.split(separator: ".").first!
        let before = try Self.compileAndRun("\(folder)/\(name).swift")
        let after = try Self.compileAndRun(expected)
        #expect(!before.output.isEmpty)
        let stdout = expected.replacingOccurrences(of: ".expected.swift", with: ".stdout")
        if let wanted = try? String(contentsOfFile: stdout, encoding: .utf8) {
            #expect(after.output != before.output, "the rewrite was meant to change what the program prints")
            #expect(after.output == wanted)
        } else {
            #expect(after.output == before.output)
        }
        #expect(after.unusedWarnings <= before.unusedWarnings)
    }
}
