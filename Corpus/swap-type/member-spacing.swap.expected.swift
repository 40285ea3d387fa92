import Foundation

/// The checkout screen's model. `Item` (the catalogue's product) is being replaced by
/// `CatalogItem`; `Cart.Item`, a line of the cart, is another type that shares the name, and it
/// stays whatever the spacing around its dot.
enum Cart {
    struct Item {
        var sku: String
        var quantity: Int
    }
}

enum Receipt {
    enum Line {}
}

// An extension may declare the member on a line of its own, with the dot anywhere.
extension Receipt . Line {
    struct Item {}
}

extension Receipt.Line {
    /// `Item` here is `Receipt.Line.Item`, declared by the extension above.
    static func blank() -> Item { Item() }
}

final class CheckoutModel {
    var featured: CatalogItem = CatalogItem(name: "Lamp")              // the catalogue's type: replaced
    var lines: [Cart . Item] = []                         // a member type: stays
    var pending: Cart .Item? = nil
    var wrapped: Cart
        .Item?

    func add(_ product: CatalogItem, quantity: Int = 1) -> Cart . Item {
        let line = Cart /* the cart's own */ . Item(sku: product.sku, quantity: quantity)
        lines.append(line)
        return line
    }

    func isLine(_ value: Any) -> Bool {
        value is Cart .Item || value as? Cart . Item != nil
    }

    func kinds() -> [Any.Type] {
        [Cart . Item.self, CatalogItem.self, Cart
            .Item.self]
    }

    func restore(from data: [String: Any]) -> Cart.Item? {
        guard let product = data["product"] as? CatalogItem else { return nil }
        return Cart
            .Item(sku: product.sku, quantity: 1)
    }
}
