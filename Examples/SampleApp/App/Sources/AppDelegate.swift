import UIKit
import FeedUI

final class AppDelegate: UIResponder {
    var legacyBrowser: UIWebView?
}
