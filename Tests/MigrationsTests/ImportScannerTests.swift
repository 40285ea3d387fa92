import Foundation
import SwiftTree
import Testing
@testable import Migrations

/// The import lexer against what the Swift grammar says is an import declaration.
@Suite struct ImportScannerTests {
    func imports(_ source: String) -> [String] {
        ImportScanner.scan(Array(source.utf8)).imports.map { "\($0.line):\($0.start.byte) \($0.module) [\($0.text)]" }
    }

    @Test func formsOfImportDeclarations() {
        let source = """
        import Foundation
        @testable import FeedCore
        @_exported import Shared
        @_implementationOnly import Secret
        @_spi(Internal) import Kit
        import struct FeedCore.Model
        import class   UIKit.UIView
        import `Backticked`
        #if canImport(UIKit)
        import UIKit
        #elseif os(macOS)
          import AppKit
        #endif
        import
          Split
        """
        #expect(imports(source) == [
            "1:8 Foundation [import Foundation]",
            "2:18 FeedCore [import FeedCore]",
            "3:19 Shared [import Shared]",
            "4:29 Secret [import Secret]",
            "5:24 Kit [import Kit]",
            "6:15 FeedCore [import struct FeedCore.Model]",
            "7:16 UIKit [import class UIKit.UIView]",
            "8:8 Backticked [import `Backticked`]",
            "10:8 UIKit [import UIKit]",
            "12:10 AppKit [import AppKit]",
            "15:3 Split [import Split]",
        ])
    }

    @Test func importsInCommentsStringsAndLabelsAreNone() {
        let source = #"""
        // import CommentedOut
        /* import Block /* nested */ import StillComment */
        let a = "import InString"
        let b = """
            import InMultiline
            "\(x) import StillString"
            """
        let c = #"raw "import" \(y) import InRaw"#
        let d = "\(call("import Nested")) import AfterInterpolation"
        let e = #/import[a-z]/#
        func f() {
            import NotTopLevel
        }
        struct S { let x = [1, 2].map { $0 } }
        let g = obj.import
        let `import` = 1
        import Real
        """#
        // An import in a body does not compile, so counting it costs nothing; not counting it
        // would let a brace the lexer misreads (in a bare regex literal `/{/`) hide every import
        // after it.
        #expect(imports(source) == ["12:12 NotTopLevel [import NotTopLevel]", "17:8 Real [import Real]"])
        #expect(imports("let r = /{/\nimport UIKit\nfunc f(import name: Int) {}\nlet d = [import: 1]\n") == ["2:8 UIKit [import UIKit]"])
    }

    /// Found by a hostile review: what swiftc accepts between `import` and its module.
    @Test func commentsAndOddBlanksBetweenImportAndItsModule() {
        let source = "import/**/A\nimport // c\n  B\nimport struct /* x */ C.D\nimport\u{0C}E\n"
        #expect(imports(source) == ["1:11 A [import A]", "3:3 B [import B]", "4:23 C [import struct C.D]", "5:8 E [import E]"])
    }

    @Test func aOneLineRawStringOfQuotesIsNoMultilineString() {
        #expect(imports("let q = #\"\"\"#\nimport After\n") == ["2:8 After [import After]"])
        #expect(imports("let q = \"\"\"\n  import Inside\n  \"\"\"\nimport After\n") == ["4:8 After [import After]"])
    }

    @Test func aLoneCarriageReturnEndsACommentAndAString() {
        // Lines are counted by \n, as everywhere in swiftmod; a lone \r still ends the comment.
        #expect(imports("// header\rimport A\rlet s = \"open\rimport B\n") == ["1:18 A [import A]", "1:41 B [import B]"])
    }

    @Test func aLongLineOfImportsIsLinear() {
        let line = String(repeating: "import Foundation;", count: 20_000)
        let found = ImportScanner.scan(Array(line.utf8)).imports
        #expect(found.count == 20_000)
        #expect(found.last?.start.character == 19 * 0 + 18 * 19_999 + 8)
    }

    @Test func dollarImportIsAnIdentifier() {
        #expect(imports("let x = $import\nimport After\n$import Fake\n") == ["2:8 After [import After]"])
    }

    @Test func anUnterminatedStringEndsAtItsLine() {
        #expect(imports("let s = \"open\nimport After\n") == ["2:8 After [import After]"])
    }

    @Test func columnsCountBytesCharactersAndUTF16() throws {
        let found = ImportScanner.scan(Array("/* 🙂é */ import X\r\nimport Y\r\n".utf8)).imports
        #expect(found.map(\.line) == [1, 2])
        let first = try #require(found.first)
        // Before `X`: "/* 🙂é */ import " is 20 bytes, 16 characters, 17 UTF-16 units.
        #expect(first.start.byte == 21 && first.start.character == 17 && first.start.utf16 == 18)
        #expect(first.end.byte == 22)
        #expect(found[1].start.byte == 8)
    }

    @Test func allowCommentsAreLineCommentsWithTheMarker() {
        let source = """
        // swiftmod:allow module-type.Service -- legacy\r
        import UIKit // swiftmod:allow no-cycles
        let s = "// swiftmod:allow not-a-comment"
        /* swiftmod:allow block */
        // an ordinary comment
        """
        let comments = ImportScanner.scan(Array(source.utf8)).allowComments
        #expect(comments.map(\.text) == ["// swiftmod:allow module-type.Service -- legacy", "// swiftmod:allow no-cycles"])
        #expect(comments.map(\.line) == [1, 2])
        #expect(comments[1].start.byte == 14)
    }

    @Test func deepNestingDoesNotExhaustTheStack() {
        let deep = String(repeating: "\"\\(", count: 50_000) + String(repeating: ")\"", count: 50_000)
        #expect(imports("let x = \(deep)\nimport After\n") == ["2:8 After [import After]"])
    }
}

/// The lexer agrees with the parser about every import of the project's Swift fixtures.
@Suite struct ImportScannerOracleTests {
    @Test func agreesWithTheSyntaxTreeOnTheCorpus() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpus").standardized.path
        let files = try #require(FileManager.default.enumerator(atPath: corpus)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        let parser = Parser()
        var compared = 0
        for file in files {
            let path = corpus + "/" + file
            guard let source = try? SourceText(contentsOfFile: path) else { continue }
            let tree = parser.parse(source)
            guard !tree.root.hasError else { continue }
            var expected: [String] = []
            tree.root.walk { node in
                if node.kind == "import_declaration" {
                    if let name = node.namedChildren.first(where: { $0.kind == "identifier" })?.namedChildren.first {
                        expected.append("\(name.start.line):\(name.start.column) \(name.text.replacingOccurrences(of: "`", with: ""))")
                    }
                    return false
                }
                return node.kind == "source_file"
            }
            let found = ImportScanner.scan(source.bytes).imports.map { "\($0.line):\($0.start.byte) \($0.module)" }
            #expect(found == expected, "\(file)")
            compared += expected.count
        }
        #expect(compared > 20)
    }
}
