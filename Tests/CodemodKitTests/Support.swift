import Foundation
@testable import CodemodKit
import SwiftTree
import Workspace

/// A temporary folder, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file (creating folders) and returns its path.
    @discardableResult
    func write(_ relative: String, _ content: String) throws -> String {
        try write(relative, bytes: Array(content.utf8))
    }

    @discardableResult
    func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let full = (path as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    func read(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: (path as NSString).appendingPathComponent(relative))))
    }
}

/// Loads a definition from YAML text.
func definition(_ yaml: String, origin: String = "test.yml") throws -> CodemodDefinition {
    try DefinitionLoader().load(yaml: yaml, origin: origin)
}

/// The text of a source after a codemod.
func rewritten(_ source: String, with codemod: Codemod) throws -> String {
    try ExampleRunner.rewrite(Parser().parse(source), with: codemod)
}

