import Foundation

// Swift rejects a space after the dot alone ("extraneous whitespace after '.'"), but the code is
// still read as a member type: `Feed. Post` is never the global `Post`, which becomes `Article`.
enum Feed {
    struct Post {
        var id: Int
    }
}

struct Timeline {
    var pinned: Feed. Post?
    var latest: Article?

    func first(in posts: [Feed. Post]) -> Article? {
        posts.first.map { Article(id: $0.id) }
    }
}
