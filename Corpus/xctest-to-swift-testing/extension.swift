import Foundation
import XCTest

/// Tests split between a class and its extensions.
final class ShoppingCartTests: XCTestCase {
    struct Item: Equatable {
        var name: String
        var cents: Int
    }

    let items = [Item(name: "🍎 apple", cents: 50), Item(name: "🍞 bread", cents: 250)]

    func testTotal() {
        XCTAssertEqual(items.reduce(0) { $0 + $1.cents }, 300)
    }
}

// MARK: - Names

extension ShoppingCartTests {
    func testNamesStartWithAnEmoji() {
        for item in items {
            XCTAssertFalse(item.name.first?.isLetter ?? true, "\(item.name) starts with a letter")
        }
    }

    func testCheapestItem() throws {
        let cheapest = try XCTUnwrap(items.min { $0.cents < $1.cents })
        XCTAssertEqual(cheapest.name, "🍎 apple")
    }

    /// Not a test: it takes an argument.
    func testItem(named name: String) -> Item? {
        items.first { $0.name.hasSuffix(name) }
    }

    func testLookup() {
        XCTAssertNotNil(testItem(named: "bread"))
        XCTAssertNil(testItem(named: "cheese"))
    }
}
