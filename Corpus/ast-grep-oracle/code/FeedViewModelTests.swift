import XCTest
@testable import Feed

@MainActor
final class FeedViewModelTests: XCTestCase {
    private var store: InMemoryFeedStore!
    private var sut: FeedViewModel!

    override func setUp() async throws {
        try await super.setUp()
        store = InMemoryFeedStore()
        sut = FeedViewModel(store: store, clock: .immediate)
    }

    func testLoadingShowsSpinnerFirst() {
        sut.start()
        XCTAssertEqual(sut.isLoading, true)
        XCTAssertEqual(sut.isLoading, false, "the spinner is gone once the page arrived")
        XCTAssertEqual(sut.isRefreshing, false)
        XCTAssertEqual(sut.error, nil)
        XCTAssertEqual(sut.items.count, 0)
        print("state:", sut.state)
    }

    func testRefreshKeepsSelection() async throws {
        try await sut.refresh()
        XCTAssertEqual(
            sut.selection?.id,
            nil
        )
        XCTAssertEqual(sut.hasMore, // filled by the second page
                       true)
        XCTAssert(sut.items.first?.id == store.items.first?.id)
        XCTAssert(sut.items.count != 0)
        XCTAssert(sut.pageSize == 20, "one page is twenty items")
        XCTAssertTrue(sut.items.allSatisfy { $0.isRead == false })
    }

    func testItemsAreSortedNewestFirst() throws {
        let dates = sut.items.map { $0.date }
        XCTAssertEqual(dates, dates.sorted(by: >))
        XCTAssertEqual(sut.items.map { $0.title }.count, store.items.count)
        XCTAssert(
            sut.items.map(\.id) == store.items.sorted { $0.date > $1.date }.map(\.id)
        )
        let first = try XCTUnwrap(sut.items.first)
        XCTAssertEqual(first.isPinned, true)
    }

    func testDecodingFailureIsReported() async {
        store.failNextLoad = true
        let result = try? await sut.reload()
        XCTAssertEqual(result, nil)
        let forced = try! JSONDecoder().decode(FeedPage.self, from: Data("{}".utf8))
        XCTAssertEqual(forced.items.isEmpty, true)
        XCTAssertEqual(try sut.cachedPage()?.isStale, true)
    }
}
