import ArgumentParser
import CodemodKit
import Foundation
import Workspace

/// `swiftmod test`: runs the examples of codemod definitions.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the examples of codemod definitions.",
        discussion: """
        Each `match` example must be found, each `no-match` example left alone, each `fix` \
        example's `before` must become its `after`, and a second run over `after` must change \
        nothing. Without FILES, tests every bundled codemod and those in --codemods folders. \
        Exits 1 when an example fails, 2 when a definition is malformed.

        Examples:
          swiftmod test
          swiftmod test Tools/Codemods/no-print.yml

        Guide: docs/writing-codemods.md
        """
    )

    @Argument(help: "Definition files or folders of them to test (default: all known codemods).", completion: .file(extensions: ["yml"]))
    var files: [String] = []

    @OptionGroup var codemods: CodemodOptions

    func run() throws {
        let definitions: [CodemodDefinition]
        if files.isEmpty {
            definitions = try codemods.catalog().definitions
        } else {
            let catalog = try codemods.catalog()
            do {
                definitions = try files.flatMap { path -> [CodemodDefinition] in
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                        throw CommandFailure(message: "\(path): no such file or directory", exitCode: ExitStatus.usage)
                    }
                    let loaded = isDirectory.boolValue ? try DefinitionLoader().loadDirectory(path) : try DefinitionLoader().loadDefinitions(inFile: path)
                    for definition in loaded { if let reason = definition.leftOut { printError("note: '\(definition.id)' \(reason) and is not tested") } }
                    return try loaded.filter { $0.leftOut == nil }.map { try catalog.resolve($0) }
                }
            } catch let error as LocatedError {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
            }
        }
        // ast-grep's rule tests of the folders named (or of the --codemods folders).
        let folders = files.isEmpty ? codemods.directories : files.filter { AstGrepProject.isFolder($0) }
        var ruleTests: [RuleTestRunner.TestCase] = []
        do {
            for folder in folders { ruleTests += try AstGrepProject(folder: folder).testFiles.map(RuleTestRunner.load) }
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        var failed = 0, passed = 0
        for definition in definitions {
            var (failures, count) = ExampleRunner().run(definition)
            var tested = 0
            for test in ruleTests where test.id == definition.id {
                let (testFailures, testCount) = RuleTestRunner().run(test, definition: definition)
                failures += testFailures
                tested += testCount
            }
            let total = count + tested
            let what = tested > 0 ? "\(plural(count, "example")) and \(plural(tested, "rule-test case"))" : plural(count, "example")
            if total == 0 {
                passed += 1
                print("! \(definition.id): no examples: add `examples:` (match, no-match, fix) or a rule test, so that a wrong rule shows here (\(DisplayPath()(definition.origin)))")
            } else if failures.isEmpty {
                passed += 1
                print("✓ \(definition.id): \(what) \(total == 1 ? "holds" : "hold")")
            } else {
                failed += 1
                print("✗ \(definition.id): \(failures.count) of \(total) \(tested > 0 ? "examples and rule-test cases" : "examples") fail")
                for failure in failures { print("  \(failure)") }
            }
        }
        let ids = Set(definitions.map(\.id))
        for test in ruleTests where !ids.contains(test.id) {
            failed += 1
            print("✗ \(DisplayPath()(test.origin)): tests '\(test.id)', which no codemod defines")
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(ExitStatus.failure) }
    }
}
