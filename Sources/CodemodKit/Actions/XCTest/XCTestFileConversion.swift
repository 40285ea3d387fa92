import SwiftTree

/// A whole file of XCTest tests in Swift Testing, class by class (`TestClassConversion`): the
/// classes that convert do, the others stay XCTest with their reason, and the imports follow —
/// `import XCTest` becomes `import Testing` when nothing of XCTest is left in the file (with
/// `import Foundation`, which XCTest brought in), and `import Testing` is added beside it when
/// something is.
public struct XCTestFileConversion {
    /// A class left as XCTest: its name, where it is, and why.
    public struct LeftClass: Equatable {
        public var name: String
        public var location: SourceLocation
        public var reason: String
    }

    /// The edits, in source order.
    public private(set) var edits: [Edit] = []
    /// How many tests and assertions the edits convert.
    public private(set) var tests = 0
    public private(set) var assertions = 0
    /// The XCTestCase subclasses left as they were.
    public private(set) var left: [LeftClass] = []

    public init(_ tree: SyntaxTree) {
        var converted: [Range<Int>] = []
        var classes: [Node] = []
        tree.root.walk { node in
            if node.kind == "class_declaration" {
                classes.append(node)
                return false
            }
            return true
        }
        for declaration in classes {
            let inheritsFromATestCase = declaration.children.contains { $0.kind == "inheritance_specifier" && $0.text.hasSuffix("TestCase") }
            guard inheritsFromATestCase else { continue }
            switch TestClassConversion.convert(declaration) {
            case let .converted(classEdits, classTests, classAssertions):
                edits += classEdits
                tests += classTests
                assertions += classAssertions
                converted.append(declaration.byteRange)
            case let .notConverted(reason):
                left.append(LeftClass(name: declaration.child(field: "name")?.text ?? "?", location: declaration.start, reason: reason))
            }
        }
        guard !converted.isEmpty else { return }
        // Whatever of XCTest is outside the converted classes keeps its import.
        var stillXCTest = false
        tree.root.walk { node in
            guard !stillXCTest else { return false }
            if converted.contains(where: { $0.lowerBound <= node.byteRange.lowerBound && node.byteRange.upperBound <= $0.upperBound }) { return false }
            if node.kind == "import_declaration" { return false }
            if node.kind == "simple_identifier" || node.kind == "type_identifier", node.text.hasPrefix("XCT") { stillXCTest = true }
            return !stillXCTest
        }
        let imports = tree.root.children.filter { $0.kind == "import_declaration" }
        let hasTesting = imports.contains { Self.module(of: $0) == "Testing" }
        // XCTest brought Foundation in; Swift Testing does not.
        let hasFoundation = imports.contains { Self.module(of: $0) == "Foundation" }
        if let xctest = imports.first(where: { Self.module(of: $0) == "XCTest" }), let module = xctest.children.last(where: { $0.kind == "identifier" }) {
            if !stillXCTest, !hasTesting {
                edits.append(Edit(range: module.byteRange, replacement: hasFoundation ? "Testing" : "Foundation\nimport Testing"))
            } else if !stillXCTest {
                edits.append(.removal(TidyRemoval.range(removing: xctest.byteRange, in: tree.source)))
            } else if !hasTesting {
                edits.append(Edit(range: xctest.byteRange.upperBound..<xctest.byteRange.upperBound, replacement: "\nimport Testing"))
            }
        } else if !hasTesting, let first = imports.first {
            edits.append(Edit(range: first.byteRange.lowerBound..<first.byteRange.lowerBound, replacement: "import Testing\n"))
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The module an import names (`import XCTest`, `@testable import Yams` → `Yams`).
    static func module(of declaration: Node) -> String? {
        declaration.children.last { $0.kind == "identifier" }?.text
    }
}
