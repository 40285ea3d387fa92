import ArgumentParser
import Foundation
import LanguageServer

/// `swiftmod lsp`: the language server, over stdin and stdout.
struct LSPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server (LSP over stdin/stdout) for editors: diagnostics, hover, code actions.",
        discussion: """
        Editors start it; each open Swift file gets the .swiftmod.yml a check at the root of its \
        repository uses for it (the outermost above it that covers it, else the nearest). A use the \
        baseline does not allow is an error, a baselined use a hint marked deprecated, a wrong \
        allow comment a warning. Hover on a use says why, what instead, docs, contact and \
        deadline; code actions apply a codemod here or in the file, or insert an allow comment. \
        It logs to stderr only. See docs/editor.md for Neovim, VS Code and Xcode.

        Guide: docs/editor.md
        """
    )

    func run() throws {
        // A client that goes away must not kill the server with SIGPIPE before it can exit cleanly.
        signal(SIGPIPE, SIG_IGN)
        let server = LanguageServer()
        server.cacheVersion = Swiftmod.version
        let status = server.run()
        throw ExitCode(status)
    }
}
