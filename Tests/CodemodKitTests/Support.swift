import Foundation
@testable import CodemodKit
import SwiftTree
import Workspace


/// Loads a definition from YAML text.
func definition(_ yaml: String, origin: String = "test.yml") throws -> CodemodDefinition {
    try DefinitionLoader().load(yaml: yaml, origin: origin)
}

/// The text of a source after a codemod.
func rewritten(_ source: String, with codemod: Codemod) throws -> String {
    try ExampleRunner.rewrite(Parser().parse(source), with: codemod)
}

