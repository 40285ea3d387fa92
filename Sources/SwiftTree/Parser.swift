import CTreeSitter

/// Parses Swift source into syntax trees.
///
/// A parser is not safe to share between threads: give each thread its own (they are cheap).
/// The trees it makes are independent of it and of each other.
public final class Parser {
    private let parser: OpaquePointer

    public init() {
        parser = ts_parser_new()
        // The grammar's ABI (15) is what this runtime (0.25) loads; failing here is a build error.
        let accepted = ts_parser_set_language(parser, SwiftLanguage.pointer)
        precondition(accepted, "tree-sitter runtime cannot load the Swift grammar")
    }

    deinit { ts_parser_delete(parser) }

    /// Parses source text into a syntax tree. Parsing always yields a tree: syntax errors become
    /// `ERROR` and `MISSING` nodes (see `SyntaxTree.errorRegions`).
    ///
    /// A lone carriage return (one not followed by a line feed, as old Mac files have) ends a line
    /// for swiftc, so `// note<CR>code` compiles `code`; tree-sitter would read it as part of the
    /// comment. The parser is given such a return as a line feed, which moves no offset: the tree's
    /// nodes still point into `source` as it is.
    public func parse(_ source: SourceText) -> SyntaxTree {
        let bytes = Self.loneCarriageReturnsAsLineFeeds(source.bytes)
        let tree = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                ts_parser_parse_string_encoding(parser, nil, $0, UInt32(buffer.count), TSInputEncodingUTF8)
            }
        }
        guard let tree else { preconditionFailure("tree-sitter returned no tree") }
        return SyntaxTree(pointer: tree, source: source)
    }

    /// The bytes with every carriage return that no line feed follows replaced by a line feed
    /// (the same bytes, not copied, when there is none).
    static func loneCarriageReturnsAsLineFeeds(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8]?
        var from = 0
        while let index = bytes[from...].firstIndex(of: 0x0D) {
            if index + 1 == bytes.count || bytes[index + 1] != 0x0A {
                if result == nil { result = bytes }
                result![index] = 0x0A
            }
            from = index + 1
        }
        return result ?? bytes
    }

    /// Parses a string into a syntax tree.
    public func parse(_ string: String) -> SyntaxTree { parse(SourceText(string)) }
}
