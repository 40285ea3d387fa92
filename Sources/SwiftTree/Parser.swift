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
    public func parse(_ source: SourceText) -> SyntaxTree {
        let tree = source.bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                ts_parser_parse_string_encoding(parser, nil, $0, UInt32(buffer.count), TSInputEncodingUTF8)
            }
        }
        guard let tree else { preconditionFailure("tree-sitter returned no tree") }
        return SyntaxTree(pointer: tree, source: source)
    }

    /// Parses a string into a syntax tree.
    public func parse(_ string: String) -> SyntaxTree { parse(SourceText(string)) }
}
