import Foundation
import InterfaceBuilder
import SwiftTree
import Workspace

/// A repository's outlets judged against its storyboards and xibs: every Swift, storyboard and
/// xib file under a root (by the file walker's rules), read in parallel.
public struct OutletRepository: Sendable {
    public var classification: OutletClassification
    /// Interface Builder files that could not be read, with why: the verdicts of the classes
    /// they use may be wrong.
    public var unreadable: [String] = []
    /// Member names other code reads on something other than `self` (`cell.titleLabel`), with
    /// where: an outlet of that name cannot become optional without knowing that code's types.
    public var foreignReferences: [String: String] = [:]
    public var root: String

    /// - Parameter display: how to name a file in verdicts (relative to the working folder, say).
    public init(root: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, display: (String) -> String = { $0 }) {
        self.root = root
        let walk = (try? FileWalker(endings: [".swift", ".storyboard", ".xib"]).walk([root]))?.files ?? []
        let ibPaths = walk.filter(IBDocument.isInterfaceBuilderFile)
        let swiftPaths = walk.filter { $0.hasSuffix(".swift") }
        let read: [Result<IBDocument, Error>] = ParallelMap.map(ibPaths, jobs: jobs, worker: { () }) { _, path in
            Result { try IBDocument(contentsOf: path) }
        }
        var documents: [IBDocument] = []
        for (index, result) in read.enumerated() {
            switch result {
            case var .success(document):
                document.path = display(document.path)
                documents.append(document)
            case let .failure(error as IBDocument.ReadError):
                unreadable.append("\(display(ibPaths[index])):\(error.line): \(error.reason)")
            case let .failure(error):
                unreadable.append("\(display(ibPaths[index])): \(error)")
            }
        }
        let swift: [(path: String, outlets: SwiftOutlets)] = ParallelMap.map(swiftPaths, jobs: jobs, worker: { Parser() }) { parser, path -> (path: String, outlets: SwiftOutlets)? in
            // A Swift file that cannot be read declares nothing here (`scan` says why).
            guard let source = try? SourceText(contentsOfFile: path) else { return nil }
            return (display(path), SwiftOutlets(parser.parse(source)))
        }.compactMap { $0 }
        classification = OutletClassification(documents: documents, swift: swift)
        for (path, file) in swift {
            for (name, line) in file.foreignReferences where foreignReferences[name] == nil {
                foreignReferences[name] = "\(path):\(line)"
            }
        }
    }

    /// One file alone (an example, a file in the editor): no storyboard or xib is known, so only
    /// what its own code does (an outlet it removes from its superview) is judged.
    public init(tree: SyntaxTree) {
        root = ""
        let outlets = SwiftOutlets(tree)
        classification = OutletClassification(documents: [], swift: [(path: "", outlets: outlets)])
        for (name, line) in outlets.foreignReferences { foreignReferences[name] = "line \(line)" }
    }

    /// The repository around a run's files: the git top level of the working folder (or of the
    /// folder of the run's first file), every storyboard, xib and Swift file under it.
    public static func around(_ files: [String]) -> OutletRepository {
        let here = FileManager.default.currentDirectoryPath
        let start = files.first.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: here)).deletingLastPathComponent().path } ?? here
        let root = Git.topLevel(of: start) ?? Git.topLevel(of: here) ?? here
        return OutletRepository(root: root)
    }

    /// The repository of an action's run; without a run (an example, `scan`, one file in the
    /// editor), the file's own (no storyboard is known: only what its code removes is judged).
    public static func of(_ context: ActionContext) -> OutletRepository {
        context.run as? OutletRepository ?? context.memo.value("outlets.file") { OutletRepository(tree: context.tree) }
    }

    /// The verdict of an outlet, by its class and name.
    public func entry(className: String, outlet: String) -> OutletClassification.Entry? {
        classification.entries.first { $0.outlet.className == className && $0.outlet.name == outlet }
    }
}
