import Foundation
import LegacyShop
import Catalog

// The old module's `LegacyShop.Item` moves to `Catalog.Product`; however the qualified name is
// spaced, it is the old type, and `Wishlist.Item` (a member type) is not.
struct Wishlist {
    struct Item {}
}

// Members of the old type must be ported by hand: reported, not rewritten.
extension LegacyShop . Item {
    var isOnSale: Bool { price < listPrice }
}

final class ShelfViewModel {
    let hero: Catalog . Product                       // the old type, spaced
    let saved: [Wishlist . Item]                      // a member type: stays
    let related = Catalog . Product.all()             // the spacing stays as written
    let others = Catalog
        .Product.featured

    init(hero: Catalog.Product, saved: [Wishlist .Item]) {
        self.hero = hero
        self.saved = saved
    }
}
