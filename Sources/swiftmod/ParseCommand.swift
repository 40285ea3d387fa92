import ArgumentParser
import CodemodKit
import Dispatch
import Foundation
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
          swiftmod parse Tests.swift --pattern 'XCTAssertEqual($A, true)'  # why does it not match?
          swiftmod parse Tests.swift --rule Rules/no-assert-true.yml

        Guide: docs/writing-codemods.md
        """
    )

    @Argument(help: "The Swift file to parse.", completion: .file(extensions: ["swift"]))
    var file: String

    @Flag(name: .long, help: "Show anonymous tokens (keywords, punctuation) too.")
    var all = false

    @Option(name: .shortAndLong, help: ArgumentHelp("Instead of the tree, print the captures of a tree-sitter query.", valueName: "query"))
    var query: String?

    @Option(name: .long, help: ArgumentHelp("Show a code pattern's tree, its matches in the file, or where the closest node stops matching.", valueName: "code"))
    var pattern: String?

    @Option(name: .long, help: ArgumentHelp("Show what an ast-grep rule file finds in the file (and, for its pattern, why not).", valueName: "rule.yml"),
            completion: .file(extensions: ["yml", "yaml"]))
    var rule: String?

    @Option(name: .long, help: ArgumentHelp("The strictness of --pattern: cst, smart (default), ast, relaxed, signature.", valueName: "level"))
    var strictness: String?

    @Option(help: ArgumentHelp("Refuse files bigger than this: bytes, or 4MB, 512KB (default: 4MB).", valueName: "size"))
    var maxFileSize: String?

    // Hidden, for scripts/benchmark: the parse floor (see `runFloor`).
    @Argument(help: .hidden)
    var morePaths: [String] = []

    @Flag(help: .hidden)
    var floor = false

    @Option(name: .customLong("requires"), help: .hidden)
    var requiredTexts: [String] = []

    @Option(name: .shortAndLong, help: .hidden)
    var jobs: Int?

    func validate() throws {
        if !floor, !morePaths.isEmpty || !requiredTexts.isEmpty || jobs != nil {
            throw ValidationError("parse takes one file")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let maxFileSize, ByteSize.parse(maxFileSize) == nil {
            throw ValidationError("--max-file-size: '\(maxFileSize)' is not a size; write bytes or a size like 4MB or 512KB")
        }
    }

    func run() throws {
        if floor { return try runFloor() }
        let source: SourceText
        do {
            let limit = maxFileSize.flatMap(ByteSize.parse) ?? SourceFileReader.defaultMaxFileSize
            source = try SourceFileReader(maxFileSize: limit).source(ofFile: file)
        } catch let error as SourceFileError {
            throw CommandFailure(message: "\(error)", exitCode: error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        }
        let tree = Parser().parse(source)
        if let pattern {
            let level = try strictness.map { text -> Strictness in
                guard let level = Strictness(rawValue: text) else {
                    throw CommandFailure(message: "--strictness: '\(text)' is not one of \(Strictness.allCases.map(\.rawValue).joined(separator: ", "))", exitCode: ExitStatus.usage)
                }
                return level
            } ?? .smart
            do {
                print(PatternExplanation(try Pattern(pattern, strictness: level)).report(for: tree, file: file))
            } catch let problem as Pattern.Problem {
                throw CommandFailure(message: "--pattern: \(problem)", exitCode: ExitStatus.usage)
            }
        } else if let rule {
            try printRuleMatches(rule, in: tree)
        } else if let query {
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

    /// `parse --floor [--requires TEXT]... PATHS...`: walks the paths as every command does, reads
    /// the files on all cores, keeps those that hold any required text (all, without --requires),
    /// parses them on all cores, and prints how many files and bytes it parsed and the seconds each
    /// phase took. Nothing else: the least a scan of those files must do (scripts/benchmark).
    private func runFloor() throws {
        let clock = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        let start = clock()
        let files: [String]
        do {
            files = try FileWalker().walk([file] + morePaths).files
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let walked = clock()
        let cores = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let reader = SourceFileReader(maxFileSize: maxFileSize.flatMap(ByteSize.parse) ?? SourceFileReader.defaultMaxFileSize)
        let needles = requiredTexts.map { Array($0.utf8) }
        let texts = ParallelMap.map(files, jobs: cores, worker: {}) { _, path -> SourceText? in
            guard let bytes = try? reader.bytes(ofFile: path),
                  needles.isEmpty || needles.contains(where: { ByteSearch.contains(bytes, $0) }) else { return nil }
            return try? SourceText(utf8: bytes)
        }
        var candidates: [String: SourceText] = [:]
        for (path, text) in zip(files, texts) { candidates[path] = text }
        let read = clock()
        let paths = candidates.keys.sorted()
        let withErrors = ParallelMap.map(paths, jobs: cores, worker: { Parser() }) { parser, path in parser.parse(candidates[path]!).root.hasError }
        let parsed = clock()
        let bytes = candidates.values.reduce(0) { $0 + $1.bytes.count }
        print("parsed \(paths.count) of \(files.count) files, \(bytes) bytes (\(withErrors.filter { $0 }.count) with syntax errors); "
              + "seconds: walk \(seconds(walked - start)), read and filter \(seconds(read - walked)), parse \(seconds(parsed - read)) on \(cores) threads")
    }

    private func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    private func printRuleMatches(_ path: String, in tree: SyntaxTree) throws {
        let definition: CodemodDefinition
        do { definition = try DefinitionLoader().loadFile(path) } catch let error as LocatedError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        guard let rule = definition.patternRule else {
            throw CommandFailure(message: "\(path): not an ast-grep rule file (it has no `rule:`); use --query for a query", exitCode: ExitStatus.usage)
        }
        let transformation = try Codemod(definition).transform(tree)
        for use in transformation.uses { print("\(file):\(use.start.line):\(use.start.column): \(SafeText.oneLine(use.text, limit: 80))") }
        for refusal in transformation.refusals { print("\(file):\(refusal.location.line):\(refusal.location.column): not rewritten: \(refusal.message)") }
        printError("\(transformation.uses.count) match\(transformation.uses.count == 1 ? "" : "es")")
        if transformation.uses.isEmpty {
            for pattern in rule.patterns { print(PatternExplanation(pattern).report(for: tree, file: file)) }
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
