import CTreeSitter
import CTreeSitterSwift

/// The tree-sitter-swift grammar.
public enum SwiftLanguage {
    /// The grammar as a tree-sitter language pointer.
    static var pointer: OpaquePointer { tree_sitter_swift()! }

    /// The grammar's ABI version (15 for tree-sitter-swift 0.7.4).
    public static var abiVersion: Int { Int(ts_language_abi_version(pointer)) }

    /// The version of the tree-sitter runtime compiled in.
    public static let runtimeVersion = "0.25.2"

    /// The version of the tree-sitter-swift grammar compiled in.
    public static let grammarVersion = "0.7.4"

    /// Every node kind the grammar knows, named or not.
    public static var nodeKinds: Set<String> {
        let language = pointer
        var kinds = Set<String>()
        for symbol in 0..<ts_language_symbol_count(language) {
            if let name = ts_language_symbol_name(language, TSSymbol(symbol)) {
                kinds.insert(String(cString: name))
            }
        }
        return kinds
    }

    /// Every field name the grammar knows.
    public static var fieldNames: Set<String> {
        let language = pointer
        var names = Set<String>()
        let count = ts_language_field_count(language)
        guard count > 0 else { return names }
        for field in 1...count {
            if let name = ts_language_field_name_for_id(language, TSFieldId(field)) {
                names.insert(String(cString: name))
            }
        }
        return names
    }
}
