import ArgumentParser
import BundledCodemods
import CodemodKit
import Foundation
import Migrations
import Workspace

/// `swiftmod init`: writes a starter `.swiftmod.yml`.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter .swiftmod.yml at the repository's root (never over an existing one).",
        discussion: """
        The bundled codemods become migrations (those that need parameters, commented examples); \
        the modules and CODEOWNERS found are noted in comments, with a module-types example. \
        The root is the git work tree's top folder, else the current folder.

        Guide: docs/configuration.md
        """
    )

    @Option(help: ArgumentHelp("Where to write it (default: the repository's root).", valueName: "folder"), completion: .directory)
    var root: String?

    func run() throws {
        let here = FileManager.default.currentDirectoryPath
        let folder = root.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? Git.topLevel(of: here) ?? here
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure(message: "\(folder): no such folder", exitCode: ExitStatus.usage)
        }
        let path = (folder as NSString).appendingPathComponent(Configuration.fileName)
        guard !FileManager.default.fileExists(atPath: path), (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil else {
            throw CommandFailure(message: "\(DisplayPath()(path)) exists already; it was left as it is (edit it, or remove it first)",
                                 exitCode: ExitStatus.usage)
        }
        let catalog: CodemodCatalog
        do {
            catalog = try CodemodCatalog(bundled: BundledCodemods.definitions)
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let text = StarterConfiguration.text(root: folder, definitions: catalog.definitions)
        // Created, never replaced: a file that appears meanwhile is not overwritten. Written whole
        // or not at all: a failed write removes what it created.
        let handle = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard handle >= 0 else {
            throw CommandFailure(message: "\(DisplayPath()(path)): cannot create it (\(String(cString: strerror(errno))))", exitCode: ExitStatus.failure)
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(handle, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let complete = written == bytes.count && fsync(handle) == 0
        close(handle)
        guard complete else {
            unlink(path)
            throw CommandFailure(message: "\(DisplayPath()(path)): could not be written in full (\(String(cString: strerror(errno)))); nothing was left behind",
                                 exitCode: ExitStatus.failure)
        }
        print("Wrote \(DisplayPath()(path)). Next:")
        print("  swiftmod scan                 # today's uses")
        print("  swiftmod baseline             # record them; commit .swiftmod.yml and .swiftmod-baseline.jsonl")
        print("  swiftmod check                # in CI: fails on new uses only")
        print("Add .swiftmod/ (the cache and the history) to .gitignore.")
    }
}
