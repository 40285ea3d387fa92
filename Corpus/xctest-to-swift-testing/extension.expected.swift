import Foundation
import Testing

/// Tests split between a class and its extensions.
struct ShoppingCartTests {
    struct Item: Equatable {
        var name: String
        var cents: Int
    }

    let items = [Item(name: "🍎 apple", cents: 50), Item(name: "🍞 bread", cents: 250)]

    @Test func total() {
        #expect(items.reduce(0) { $0 + $1.cents } == 300)
    }
}

// MARK: - Names

extension ShoppingCartTests {
    @Test func namesStartWithAnEmoji() {
        for item in items {
            #expect(!(item.name.first?.isLetter ?? true), "\(item.name) starts with a letter")
        }
    }

    @Test func cheapestItem() throws {
        let cheapest = try #require(items.min { $0.cents < $1.cents })
        #expect(cheapest.name == "🍎 apple")
    }

    /// Not a test: it takes an argument.
    func testItem(named name: String) -> Item? {
        items.first { $0.name.hasSuffix(name) }
    }

    @Test func lookup() {
        #expect(testItem(named: "bread") != nil)
        #expect(testItem(named: "cheese") == nil)
    }
}
