import Foundation

// The file declares the old class itself, an extension of it, and local types of the same name.
class Cache {
    static let shared = Cache()          // inside the declaration: left alone
    func copy() -> Cache { Cache() }
}

extension Cache {                        // an extension: reported, left alone
    func purge() -> Cache { self }
}

struct ImageLoader {
    struct Cache { var limit = 10 }      // a local Cache: uses in ImageLoader mean it
    let cache = Cache()
    func fresh() -> Cache { Cache(limit: 1) }
}

func memoize<Cache>(_ cache: Cache) -> Cache { cache }   // a generic parameter named Cache

let global: Cache = Cache.shared         // the real Cache: replaced
