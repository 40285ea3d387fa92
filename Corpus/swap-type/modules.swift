import Foundation
import LegacyNetworking

/// Module-qualified and plain uses, with the new type in another module.
struct Downloader {
    let client: LegacyNetworking.HTTPClient
    let fallback: HTTPClient?
    let unrelated: Analytics.HTTPClient

    init() {
        client = LegacyNetworking.HTTPClient(timeout: 30)
        fallback = HTTPClient.shared
        unrelated = Analytics.HTTPClient()
    }
}
