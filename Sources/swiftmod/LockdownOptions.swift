import ArgumentParser
import BundledCodemods
import CodemodKit
import Foundation
import Lockdown

/// The options shared by `scan`, `baseline` and `check`: the configuration, which migrations,
/// which paths, how many jobs.
struct LockdownOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file (default: .swiftmod.yml here or in a folder above).", valueName: "path"))
    var config: String?

    @Option(name: .customLong("migration"), help: ArgumentHelp("Only this migration; repeatable.", valueName: "id"))
    var only: [String] = []

    @Option(name: .shortAndLong, help: "How many files to process at once (default: all cores).")
    var jobs: Int?

    @Argument(help: "Files or folders to look at (default: the whole repository).")
    var paths: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The configuration, its migrations, and the files to scan.
    func load() throws -> (Configuration, [Migration], [String]) {
        let configuration = try ConfigurationLoading.load(config)
        var migrations: [Migration]
        do {
            let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions, directories: configuration.codemodFolderPaths)
            migrations = try Migration.resolve(configuration, catalog: catalog)
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        if !only.isEmpty {
            for id in only where !migrations.contains(where: { $0.id == id }) {
                throw CommandFailure(message: "no migration '\(id)' in \(configuration.path) (known: \(migrations.map(\.id).joined(separator: ", ")))",
                                     exitCode: ExitStatus.usage)
            }
            migrations = migrations.filter { only.contains($0.id) }
        }
        let files: [String]
        do {
            files = try Scanner.files(of: configuration, under: paths)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        for path in paths where Scanner.relativePath(URL(fileURLWithPath: path).standardizedFileURL.path, root: configuration.root) == nil
            && URL(fileURLWithPath: path).standardizedFileURL.path != configuration.root {
            throw CommandFailure(message: "\(path) is outside the repository at \(configuration.root)", exitCode: ExitStatus.usage)
        }
        return (configuration, migrations, files)
    }

    /// Scans, reporting unreadable files on stderr.
    func scan(_ configuration: Configuration, _ migrations: [Migration], _ files: [String]) -> ScanResult {
        let result = Scanner(root: configuration.root, migrations: migrations,
                             jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                             knownIDs: Set(configuration.migrations.map(\.id))).scan(files)
        for failure in result.failures { printError("error: \(failure)") }
        return result
    }
}

/// Finds and reads `.swiftmod.yml`.
enum ConfigurationLoading {
    static func load(_ explicit: String?) throws -> Configuration {
        guard let path = explicit ?? Configuration.find() else {
            throw CommandFailure(message: "no \(Configuration.fileName) in \(FileManager.default.currentDirectoryPath) or any folder above it; create one (see README: Lock-down) or pass --config",
                                 exitCode: ExitStatus.usage)
        }
        do {
            return try Configuration.load(path)
        } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
