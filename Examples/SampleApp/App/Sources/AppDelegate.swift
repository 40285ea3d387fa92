import UIKit

final class AppDelegate: UIResponder {
    var legacyBrowser: UIWebView?
}
