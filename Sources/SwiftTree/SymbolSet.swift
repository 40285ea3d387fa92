import CTreeSitter

/// Node kinds as a set of grammar symbols, asked in constant time: cheaper than comparing `kind`
/// strings, or hashing into a `Set`, on every node of a walk.
public struct SymbolSet: Sendable {
    private var members: [Bool]

    /// The symbols of some node kinds (a kind the grammar does not have adds none).
    public init(kinds: [String]) {
        members = Array(repeating: false, count: Int(ts_language_symbol_count(SwiftLanguage.pointer)) + 1)
        for kind in kinds {
            for symbol in SwiftLanguage.symbols(ofKind: kind) where Int(symbol) < members.count { members[Int(symbol)] = true }
        }
    }

    public func contains(_ symbol: UInt16) -> Bool {
        Int(symbol) < members.count && members[Int(symbol)]
    }
}
