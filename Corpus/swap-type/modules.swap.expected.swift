import Foundation
import LegacyNetworking
import Networking

/// Module-qualified and plain uses, with the new type in another module.
struct Downloader {
    let client: Networking.Client
    let fallback: Networking.Client?
    let unrelated: Analytics.HTTPClient

    init() {
        client = Networking.Client(timeout: 30)
        fallback = Networking.Client.shared
        unrelated = Analytics.HTTPClient()
    }
}
