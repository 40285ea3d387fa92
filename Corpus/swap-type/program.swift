import Foundation

// A Foundation-only program that uses the old class in every position a type can take. After
// `swap-type --param from=LegacyStore --param to=ModernStore` it must print what ModernStore
// prints, and every string literal (like "LegacyStore") must stay as it was.

class LegacyStore: CustomStringConvertible {
    static let shared = LegacyStore(name: "shared")
    class var kind: String { "legacy" }
    let name: String
    required init(name: String) { self.name = name }
    convenience init() { self.init(name: "default") }
    func get(_ key: String) -> String { "\(Self.kind)[\(name)].\(key)" }
    var description: String { "<\(Self.kind) \(name)>" }
}

extension LegacyStore {
    // An extension of the old class: reported, never rewritten.
    func legacyOnly() -> String { "legacy extension" }
}

class ModernStore: CustomStringConvertible {
    static let shared = ModernStore(name: "shared")
    class var kind: String { "modern" }
    let name: String
    required init(name: String) { self.name = name }
    convenience init() { self.init(name: "default") }
    func get(_ key: String) -> String { "\(Self.kind)[\(name)].\(key)" }
    var description: String { "<\(Self.kind) \(name)>" }
    func legacyOnly() -> String { "modern stand-in" }
}

final class CachingStore: LegacyStore {
    override class var kind: String { "caching-" + super.kind }
}

struct Holder<Store> { let store: Store }
typealias AnyStore = LegacyStore

func describe<T>(_ value: T) -> String where T: LegacyStore { "described \(value.get("d"))" }

let annotated: LegacyStore = LegacyStore()
let viaInit = LegacyStore.init(name: "init")
let shared = LegacyStore.shared
let metatype: LegacyStore.Type = LegacyStore.self
let optional: LegacyStore? = LegacyStore(name: "optional")
let array: [LegacyStore] = [LegacyStore(name: "a"), CachingStore(name: "b")]
let dictionary: [String: LegacyStore] = ["k": LegacyStore(name: "dict")]
let holder = Holder<LegacyStore>(store: LegacyStore(name: "held"))
let transform: (LegacyStore) -> String = { $0.get("closure") }
let tuple: (LegacyStore, Int) = (LegacyStore(name: "tuple"), 1)
let alias: AnyStore = AnyStore(name: "alias")
let anything: Any = CachingStore(name: "cast")

print(annotated.get("x"))
print(viaInit, shared, metatype.kind, optional?.name ?? "-")
print(array.map { $0.get("each") })
print(dictionary["k"]!, holder.store, transform(annotated), tuple.0, alias)
print(anything is LegacyStore, (anything as? LegacyStore)?.get("cast") ?? "-", (anything as! LegacyStore).name)
print(describe(CachingStore(name: "generic")))
print(String(describing: LegacyStore.self), "LegacyStore stays in strings")
print(annotated.legacyOnly())
// LegacyStore in a comment stays.
