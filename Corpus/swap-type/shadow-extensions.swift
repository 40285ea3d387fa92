import Foundation

// A type that declares its own `HTTPClient` lends that meaning to its extensions; so do a generic
// parameter, an associated type and an enum case. Only the last line uses the real HTTPClient.
enum Mock {
    final class HTTPClient {}
}

extension Mock {
    static func makeClient() -> HTTPClient { HTTPClient() }
}

struct Repository<HTTPClient> {}

extension Repository {
    init(make: () -> HTTPClient) { _ = make }
}

protocol Service {
    associatedtype HTTPClient
    var client: HTTPClient { get }
}

enum Backend {
    case HTTPClient
    static let fallback: Backend = HTTPClient
}

let real: HTTPClient = HTTPClient()
