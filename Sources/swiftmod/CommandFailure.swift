import ArgumentParser
import Foundation

/// An error that the CLI reports as `error: message` on stderr before exiting with a code.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    var description: String { message }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    fflush(stdout)  // keep what was printed to stdout before this line ahead of it on a terminal
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The exit codes of every subcommand.
enum ExitStatus {
    /// Success, whether or not anything changed.
    static let success: Int32 = 0
    /// Some file was refused or failed, or `check` found new uses.
    static let failure: Int32 = 1
    /// Usage errors: unknown codemod, missing path, bad parameter, broken configuration.
    static let usage: Int32 = 2
    /// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
    static let interrupted: Int32 = 130
}
