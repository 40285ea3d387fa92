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

final class CachingStore: ModernStore {
    override class var kind: String { "caching-" + super.kind }
}

struct Holder<Store> { let store: Store }
typealias AnyStore = ModernStore

func describe<T>(_ value: T) -> String where T: ModernStore { "described \(value.get("d"))" }

let annotated: ModernStore = ModernStore()
let viaInit = ModernStore.init(name: "init")
let shared = ModernStore.shared
let metatype: ModernStore.Type = ModernStore.self
let optional: ModernStore? = ModernStore(name: "optional")
let array: [ModernStore] = [ModernStore(name: "a"), CachingStore(name: "b")]
let dictionary: [String: ModernStore] = ["k": ModernStore(name: "dict")]
let holder = Holder<ModernStore>(store: ModernStore(name: "held"))
let transform: (ModernStore) -> String = { $0.get("closure") }
let tuple: (ModernStore, Int) = (ModernStore(name: "tuple"), 1)
let alias: AnyStore = AnyStore(name: "alias")
let anything: Any = CachingStore(name: "cast")

print(annotated.get("x"))
print(viaInit, shared, metatype.kind, optional?.name ?? "-")
print(array.map { $0.get("each") })
print(dictionary["k"]!, holder.store, transform(annotated), tuple.0, alias)
print(anything is ModernStore, (anything as? ModernStore)?.get("cast") ?? "-", (anything as! ModernStore).name)
print(describe(CachingStore(name: "generic")))
print(String(describing: ModernStore.self), "LegacyStore stays in strings")
print(annotated.legacyOnly())
// LegacyStore in a comment stays.
