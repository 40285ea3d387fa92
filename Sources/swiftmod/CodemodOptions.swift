import ArgumentParser
import BundledCodemods
import CodemodKit

/// `--codemods DIR`: extra definition folders, shared by the commands that load codemods.
struct CodemodOptions: ParsableArguments {
    @Option(name: .customLong("codemods"), help: ArgumentHelp("A folder of extra codemod definitions (*.yml); repeatable.", valueName: "dir"))
    var directories: [String] = []

    /// The bundled codemods and those of the folders.
    func catalog() throws -> CodemodCatalog {
        do {
            let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions, directories: directories)
            for (id, origin) in catalog.overrides {
                printError("note: \(origin) replaces the bundled codemod '\(id)'")
            }
            return catalog
        } catch let error as DefinitionError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }
}
