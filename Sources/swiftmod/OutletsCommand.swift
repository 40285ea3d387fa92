import ArgumentParser
import CodemodKit
import Foundation
import InterfaceBuilder
import SwiftTree
import Workspace

/// `swiftmod outlets`: every `@IBOutlet` judged against the storyboards and xibs.
struct OutletsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outlets",
        abstract: "Judge every @IBOutlet against the storyboards and xibs: guaranteed, not connected, removed, unknown.",
        discussion: """
        Reads the Swift files and the Interface Builder files (.storyboard, .xib) under the paths \
        and says, for each outlet, whether its view is guaranteed (connected wherever its class is \
        used, never removed: a strong `!` is right), may be absent (not connected in some use of \
        its class, or removed from its superview: it should be `?`), or unknown (its class is in no \
        Interface Builder file). Also lists stale connections: an outlet or action a storyboard or \
        xib connects that the class does not declare, which crashes when the scene loads.

        Examples:
          swiftmod outlets
          swiftmod outlets App --format json

        Guide: docs/interface-builder.md
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "Folders or files to read (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let paths = self.paths.isEmpty ? ["."] : self.paths
        let repository: OutletRepository
        do {
            repository = try OutletRepository(paths: paths, display: DisplayPath().callAsFunction)
        } catch let error as FileWalker.MissingPathError {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        let classification = repository.classification
        for failure in repository.unreadable { printError("note: \(SafeText.oneLine(failure)); its connections are not judged") }
        for (file, reason) in repository.unreadSwift {
            // (A reason may name the file already.)
            let said = reason.contains(file) ? reason : "\(file): \(reason)"
            printError("note: \(SafeText.oneLine(said)); what its classes declare is not judged")
        }
        for file in repository.notBuilt { printError("note: \(SafeText.oneLine(file)) is built by no target of its Xcode project: its connections are not judged") }
        switch format {
        case .json:
            struct Row: Encodable { var file: String; var line: Int; var className: String; var outlet: String; var type: String; var verdict: String; var reason: String }
            struct Stale: Encodable { var file: String; var line: Int; var className: String; var name: String; var kind: String }
            struct Output: Encodable { var outlets: [Row]; var staleConnections: [Stale]; var notBuilt: [String] }
            let output = Output(
                outlets: classification.entries.map { Row(file: $0.file, line: $0.outlet.line, className: $0.outlet.className, outlet: $0.outlet.name, type: $0.outlet.type, verdict: $0.verdict.name, reason: $0.reason) },
                staleConnections: classification.stale.map { Stale(file: $0.file, line: $0.line, className: $0.className, name: $0.name, kind: $0.kind.rawValue) },
                notBuilt: repository.notBuilt)
            print(try JSONText.pretty(output))
        case .text:
            for entry in classification.entries {
                print("\(SafeText.oneLine(entry.file)):\(entry.outlet.line): \(entry.verdict.name): `\(SafeText.oneLine(entry.outlet.className)).\(SafeText.oneLine(entry.outlet.name))`: \(SafeText.oneLine(entry.reason))")
            }
            for stale in classification.stale {
                print("\(SafeText.oneLine(stale.file)):\(stale.line): stale-connection: `\(SafeText.oneLine(stale.className))` declares no \(stale.kind == .action ? "action" : "outlet") `\(SafeText.oneLine(stale.name))`")
            }
        }
        fflush(stdout)
        let counts = Dictionary(grouping: classification.entries, by: \.verdict.name).mapValues(\.count)
        let summary = ["guaranteed", "not-connected", "removed", "removed-and-re-added", "unknown", "collection"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
        printError("swiftmod outlets: \(classification.entries.count) outlets in \(repository.swiftFiles) Swift files, \(repository.documents) Interface Builder files: \(summary); \(classification.stale.count) stale connections")
    }
}
