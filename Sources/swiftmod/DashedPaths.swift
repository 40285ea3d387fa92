import CodemodKit
import Foundation
import Workspace

/// Paths that start with a dash (`-Login.swift`) look like options to the argument parser: a
/// group of short options that may even hold `-h` and print the help instead of doing anything.
/// Such a path is accepted after `--` (`swiftmod check -- -Login.swift`) or as `./-Login.swift`;
/// before `--` it is a usage error that says so, never a silent success.
enum DashedPaths {
    /// Options that take a value, so that a value starting with a dash is not mistaken for a path.
    static let optionsWithValues: Set<String> = [
        "--config", "--migration", "--jobs", "-j", "--param", "--format", "--color", "--codemods",
        "--output", "-o", "--history", "--date", "--changed-since", "--query",
    ]

    /// The first argument that is a path starting with a dash, in arguments before `--`, or nil.
    /// An argument counts as such a path when it names an existing file or folder, or has a `.`
    /// or a `/` (which no option of swiftmod has).
    static func misread(in arguments: [String], fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        var previous = ""
        for argument in arguments {
            if argument == "--" { return nil }
            defer { previous = argument }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2,
                  !optionsWithValues.contains(previous) else { continue }
            if fileExists(argument) || argument.contains(".") || argument.contains("/") { return argument }
        }
        return nil
    }

    /// The message for such an argument.
    static func message(for argument: String) -> String {
        let shown = SafeText.oneLine(argument)
        return "'\(shown)' starts with a dash, so it would be read as options; to name a file or folder like this, put `--` before the paths (swiftmod check -- \(shown)) or write ./\(shown)"
    }
}
