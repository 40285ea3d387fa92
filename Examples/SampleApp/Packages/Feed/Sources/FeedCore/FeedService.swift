import Foundation

final class FeedService {
    static let shared = FeedService()
    func load(_ completion: @escaping ([String]) -> Void) { completion([]) }
}
