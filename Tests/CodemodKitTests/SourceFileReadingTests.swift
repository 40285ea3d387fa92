import Foundation
import SwiftTree
import Testing
import Workspace
@testable import CodemodKit

/// Reading Swift sources from files: one byte reader (Workspace), decoded here.
@Suite struct SourceFileReadingTests {
    @Test func readingFilesReportsClearErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttree-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.swift").path
        #expect(throws: SourceFileError.notFound(path: missing)) { try SourceText(contentsOfFile: missing) }
        #expect(throws: SourceFileError.isDirectory(path: directory.path)) {
            try SourceText(contentsOfFile: directory.path)
        }
        let latin1 = directory.appendingPathComponent("latin1.swift")
        try Data([0x6C, 0x65, 0x74, 0x20, 0x63, 0x61, 0x66, 0xE9]).write(to: latin1)
        do {
            _ = try SourceText(contentsOfFile: latin1.path)
            Issue.record("expected a decoding error")
        } catch let error as SourceFileError {
            #expect(error.description.contains("latin1.swift"))
            #expect(error.description.contains("not valid UTF-8"))
        }
    }
}
