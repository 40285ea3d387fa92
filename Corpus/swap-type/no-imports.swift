/// The feed screen's model. The doc comment stays with its declaration.
final class FeedModel {
    let client = HTTPClient()
}
