import XCTest

@testable import Feed

final class FeedViewModelTests: XCTestCase {
    func testStartsEmpty() throws {
        let model = FeedViewModel()
        XCTAssertEqual(model.isLoading, false)
        XCTAssertEqual(model.posts.isEmpty, true, "no posts before the first load")
        XCTAssertEqual(
            model.canRefresh,
            true
        )
        XCTAssertEqual(model.isOffline, false /* the stub network is up */)
        XCTAssertEqual(model.posts.count, 0)
        let first = try XCTUnwrap(model.placeholder, "a placeholder is shown")
        let cached = try? XCTUnwrap(model.cache.first)
        XCTAssertEqual(first.title, "Loading")
        XCTAssertEqual(cached == nil, true)
    }
}
