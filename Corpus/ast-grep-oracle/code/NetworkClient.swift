import Foundation
import Combine

/// Talks to the feed service. Every request goes through `send(_:)`.
public final class NetworkClient {
    public static let shared = NetworkClient(session: .shared)

    private let session: URLSession
    private var cache: Dictionary<String, Data> = [:]
    private var pending: Array<URLSessionTask> = []
    private var handlers: Dictionary<String, Array<(Data) -> Void>> = [:]
    private var cancellables = Set<AnyCancellable>()

    init(session: URLSession) {
        self.session = session
    }

    public func feed(page: Int) async throws -> FeedPage {
        let request = try Endpoint.feed(page: page).request()
        let data = try await self.fetch(request, retries: 2)
        return try JSONDecoder().decode(FeedPage.self, from: data)
    }

    public func avatars(for members: [Member]) async -> [URL] {
        let ids = members.map { $0.id }
        let names = members.map { $0.displayName }.filter { $0.isEmpty == false }
        var urls: [URL] = []
        for id in ids {
            if let data = try? await self.fetch(Endpoint.avatar(id).request(), retries: 0) {
                urls.append(URL(dataRepresentation: data, relativeTo: nil)!)
            }
        }
        print("fetched \(urls.count) avatars for \(names.count) members")
        NSLog("avatars: %d of %d, %@",
              urls.count,
              ids.count,
              names.joined(separator: ", "))
        return urls
    }

    func fetch(_ request: URLRequest, retries: Int) async throws -> Data {
        do {
            let (data, response) = try await session.data(for: request)
            try validate(response)
            cache[request.url!.absoluteString] = data
            return data
        } catch where retries > 0 {
            return try await fetch(request, retries: retries - 1)
        }
    }

    func prefetch(_ pages: Array<Int>) {
        for page in pages {
            Task {
                _ = try? await self.feed(page: page)
            }
        }
    }

    public func observe(_ key: String) -> AnyPublisher<Data, Never> {
        let subject = PassthroughSubject<Data, Never>()
        handlers[key, default: []].append { subject.send($0) }
        return subject
            .receive(on: DispatchQueue.main)
            .eraseToAnyPublisher()
    }

    private func validate(_ response: URLResponse) throws {
        guard let http = response as? HTTPURLResponse else { throw NetworkError.notHTTP }
        if http.statusCode == 401 {
            NotificationCenter.default.post(name: .sessionExpired, object: self)
        }
        let status = "\(http.statusCode)"
        if !(200..<300).contains(http.statusCode) { throw NetworkError.status(status) }
    }
}

extension NetworkClient {
    func sortedTitles(_ pages: [FeedPage]) -> [String] {
        pages.flatMap { $0.items }.map { $0.title }.sorted()
    }

    func generic<T: Decodable>(_ type: T.Type, from data: Data) throws -> Optional<T> {
        try JSONDecoder().decode(Optional<T>.self, from: data)
    }
}
