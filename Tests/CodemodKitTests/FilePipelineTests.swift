import Foundation
@testable import CodemodKit
import SwiftTree
import Testing
import Workspace
import TestSupport

/// The one way from a path to an answer, shared by `run`, the scanner and the tracker.
@Suite struct FilePipelineTests {
    /// Records which question answered each file.
    struct Recorder: FileConsumer {
        var needle: [UInt8] = Array("target".utf8)
        var cached: Set<String> = []

        func reuse(_ file: PipelineFile) -> String? {
            cached.contains((file.path as NSString).lastPathComponent) ? "cached" : nil
        }
        func needsTree(_ bytes: [UInt8]) -> Bool { ByteSearch.contains(bytes, needle) }
        func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> String { "unparsed" }
        func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> String {
            "parsed \(tree.root.kind)\(file.status == nil ? " without status" : "")"
        }
        func unreadable(_ file: PipelineFile, error: SourceFileError) -> String {
            error.isSkip ? "skipped" : "unreadable: \(error.reason)"
        }
    }

    @Test func everyFileIsAnsweredOnceByTheRightQuestion() throws {
        let folder = try TemporaryFolder()
        let hit = try folder.write("Hit.swift", "let target = 1\n")
        let miss = try folder.write("Miss.swift", "let other = 1\n")
        let cached = try folder.write("Cached.swift", "let target = 1\n")
        let big = try folder.write("Big.swift", String(repeating: "// target\n", count: 200))
        let latin1 = try folder.write("Latin1.swift", bytes: Array("let caf".utf8) + [0xE9])
        let fifo = folder.path + "/Pipe.swift"
        #expect(mkfifo(fifo, 0o644) == 0)
        let missing = folder.path + "/Missing.swift"
        var pipeline = FilePipeline(maxFileSize: 1_000, jobs: 2)
        pipeline.jobs = 2
        let answers = pipeline.run([hit, miss, cached, big, latin1, fifo, missing], through: Recorder(cached: ["Cached.swift"]))
        #expect(answers[0] == "parsed source_file")
        #expect(answers[1] == "unparsed")
        #expect(answers[2] == "cached")
        #expect(answers[3] == "skipped")
        // Not parsed (no needle), but still said not to be UTF-8.
        #expect(answers[4].hasPrefix("unreadable: not valid UTF-8"))
        // A FIFO is never opened, so it cannot hang the run.
        #expect(answers[5] == "unreadable: is a FIFO, not a regular file; not read")
        #expect(answers[6] == "unreadable: no such file")
    }
}
