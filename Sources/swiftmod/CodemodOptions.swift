import ArgumentParser
import BundledCodemods
import CodemodKit
import Foundation
import Lockdown
import Migrations
import Workspace

/// `--codemods DIR`: extra definition folders, shared by the commands that load codemods. The
/// folders named in `.swiftmod.yml` (`codemods:`) are added when there is one.
struct CodemodOptions: ParsableArguments {
    @Option(name: .customLong("codemods"), help: ArgumentHelp("A folder of extra codemod definitions (*.yml); repeatable.", valueName: "dir"),
            completion: .directory)
    var directories: [String] = []

    /// The configuration, when the working folder or one above it has one.
    func configuration() throws -> Configuration? {
        guard let path = Configuration.find() else { return nil }
        return try ConfigurationLoading.load(path)
    }

    /// The bundled codemods and those of the folders (the configuration's too: pass it when it is
    /// already loaded, so it is not read again).
    func catalog(configuration known: Configuration?? = nil) throws -> CodemodCatalog {
        let configured = try (known ?? configuration())?.codemodFolderPaths ?? []
        do {
            let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions, directories: configured + directories)
            for (id, origin) in catalog.overrides {
                printError("note: \(DisplayPath()(origin)) replaces the bundled codemod '\(id)'")
            }
            for (id, origin, reason) in catalog.leftOut {
                printError("note: '\(id)' (\(DisplayPath()(origin))) \(reason) and is not run")
            }
            return catalog
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }
}
