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

    /// The symbols of a node kind (a kind may have several: a named rule and an alias of it); empty
    /// when the grammar has no such kind.
    public static func symbols(ofKind kind: String) -> Set<UInt16> {
        let language = pointer
        var result = Set<UInt16>()
        for named in [true, false] {
            let symbol = kind.withCString { ts_language_symbol_for_name(language, $0, UInt32(kind.utf8.count), named) }
            if symbol != 0 { result.insert(symbol) }
        }
        return result
    }

    /// The named node kinds (those `kind:` rules and constraints can name), sorted.
    public static var namedKinds: [String] {
        let language = pointer
        var kinds = Set<String>()
        for symbol in 0..<ts_language_symbol_count(language) where ts_language_symbol_type(language, TSSymbol(symbol)) == TSSymbolTypeRegular {
            if let name = ts_language_symbol_name(language, TSSymbol(symbol)) { kinds.insert(String(cString: name)) }
        }
        return kinds.sorted()
    }

    /// The id of a field name (0 when the grammar has no such field): comparing ids is cheaper
    /// than comparing names.
    public static func fieldID(_ name: String) -> UInt16 {
        name.withCString { ts_language_field_id_for_name(pointer, $0, UInt32(name.utf8.count)) }
    }

    /// Whether a field name is one of the grammar's.
    public static func isField(_ name: String) -> Bool { fieldNames.contains(name) }
}
