import Testing
import XCTest
@testable import Feed

@Suite("Feed model")
struct FeedModelTests {
    let fixture = Fixture.standard

    @Test func firstPostHasAnAuthor() throws {
        let post = try XCTUnwrap(fixture.posts.first)
        let author = try XCTUnwrap(
            post.author, // from the fixture's users
            "every post has an author"
        )
        #expect(author.name == "Ada")
    }

    @Test("Cached posts are optional")
    func cache() async throws {
        let cached = try? XCTUnwrap(fixture.cache.first)
        let id = try XCTUnwrap(fixture.posts.last?.id, file: #filePath, line: #line)
        #expect(cached == nil || id > 0)
        let url = try XCTUnwrap(URL(string: fixture.baseURL))
        #expect(url.scheme == "https")
    }

    func helper() throws -> Post {
        try XCTUnwrap(fixture.posts.first)
    }
}
