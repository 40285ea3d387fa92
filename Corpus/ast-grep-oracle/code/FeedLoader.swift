import Foundation

/// Loads feed pages for the list screens and keeps the last one around.
final class FeedLoader {
    private let service: FeedService
    private(set) var pages: [Int: [FeedItem]] = [:]
    var onChange: (() -> Void)?

    init(service: FeedService) {
        self.service = service
    }

    func loadFirstPage() {
        service.fetch(page: 0) { [weak self] items in
            guard let strongSelf = self else { return }
            strongSelf.pages[0] = items
            strongSelf.onChange?()
        }
    }

    func loadMore(after page: Int) {
        service.fetch(page: page + 1, completion: { [weak self] items in
            guard let self = self else { return }
            self.pages[page + 1] = items
        })
    }

    func prefetch(_ page: Int) {
        service.fetch(page: page)
        service.cache.fetch(page: page)
    }

    func reloadAll() {
        for page in pages.keys.sorted() {
            service.fetch(page: page) { items in self.pages[page] = items }
        }
        let me = self
        DispatchQueue.global(qos: .background).async { [me] in
            guard let me = me as FeedLoader? else { return }
            me.onChange?()
        }
    }
}
