import Foundation
import LegacyShop

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
    let hero: LegacyShop . Item                       // the old type, spaced
    let saved: [Wishlist . Item]                      // a member type: stays
    let related = LegacyShop . Item.all()             // the spacing stays as written
    let others = LegacyShop
        .Item.featured

    init(hero: LegacyShop.Item, saved: [Wishlist .Item]) {
        self.hero = hero
        self.saved = saved
    }
}
