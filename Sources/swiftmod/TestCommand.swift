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
                    let loaded = isDirectory.boolValue ? try DefinitionLoader().loadDirectory(path) : [try DefinitionLoader().loadFile(path)]
                    return try loaded.map { try catalog.resolve($0) }
                }
            } catch let error as LocatedError {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
            }
        }
        var failed = 0, passed = 0
        for definition in definitions {
            let (failures, count) = ExampleRunner().run(definition)
            if failures.isEmpty {
                passed += 1
                print("✓ \(definition.id): \(count) examples hold")
            } else {
                failed += 1
                print("✗ \(definition.id): \(failures.count) of \(count) examples fail")
                for failure in failures { print("  \(failure)") }
            }
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(ExitStatus.failure) }
    }
}
