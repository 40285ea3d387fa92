import ArgumentParser
import SwiftTree
import Workspace

/// `swiftmod parse FILE`: prints a file's syntax tree.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print the syntax tree of a Swift file, to see what a codemod can match.",
        discussion: """
        Prints an S-expression with field names, positions (line:column, 1-based, UTF-8 columns), \
        the text of leaves, and ERROR / MISSING nodes marked. Syntax errors are listed on stderr; \
        the exit code is still 0, because the tree is still useful.

        Example:
          swiftmod parse Corpus/strong-iboutlet/basic.swift
          swiftmod parse --all Sources/App/View.swift    # show keywords and punctuation too
          swiftmod parse View.swift --query '(ownership_modifier) @weak'   # try a query
        """
    )

    @Argument(help: "The Swift file to parse.")
    var file: String

    @Flag(name: .long, help: "Show anonymous tokens (keywords, punctuation) too.")
    var all = false

    @Option(name: .shortAndLong, help: ArgumentHelp("Instead of the tree, print the captures of a tree-sitter query.", valueName: "query"))
    var query: String?

    @Option(help: ArgumentHelp("Refuse files bigger than this: bytes, or 4MB, 512KB (default: 4MB).", valueName: "size"))
    var maxFileSize: String?

    func validate() throws {
        if let maxFileSize, ByteSize.parse(maxFileSize) == nil {
            throw ValidationError("--max-file-size: '\(maxFileSize)' is not a size; write bytes or a size like 4MB or 512KB")
        }
    }

    func run() throws {
        let source: SourceText
        do {
            let limit = maxFileSize.flatMap(ByteSize.parse) ?? SourceFileReader.defaultMaxFileSize
            source = try SourceFileReader(maxFileSize: limit).source(ofFile: file)
        } catch let error as SourceFileError {
            throw CommandFailure(message: "\(error)", exitCode: error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        }
        let tree = Parser().parse(source)
        if let query {
            try printMatches(of: query, in: tree)
        } else {
            print(TreePrinter(includeAnonymous: all).render(tree), terminator: "")
        }
        let errors = tree.errorRegions
        if !errors.isEmpty {
            printError("\(file): \(errors.count) syntax error region\(errors.count == 1 ? "" : "s"):")
            for region in errors.prefix(20) {
                let what = region.isMissing ? "missing \(region.kind)" : "cannot parse"
                printError("  \(file):\(region.start.line):\(region.start.column): \(what)")
            }
        }
    }

    private func printMatches(of text: String, in tree: SyntaxTree) throws {
        let compiled: Query
        do {
            compiled = try Query(text)
        } catch let error as Query.Error {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let matches: [QueryMatch]
        do {
            matches = try compiled.matches(in: tree)
        } catch {
            throw CommandFailure(message: "--query: \(error)", exitCode: ExitStatus.usage)
        }
        for (index, match) in matches.enumerated() {
            print("match \(index + 1) (pattern \(match.patternIndex + 1)):")
            for capture in match.captures {
                let text = capture.node.text.replacingOccurrences(of: "\n", with: "⏎")
                print("  @\(capture.name) \(capture.node.kind) \(capture.node.start)-\(capture.node.end): \(text.prefix(80))")
            }
        }
        printError("\(matches.count) match\(matches.count == 1 ? "" : "es")")
    }
}
