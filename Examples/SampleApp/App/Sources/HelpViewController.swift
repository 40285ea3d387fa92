import UIKit

final class HelpViewController: UIViewController {
    @IBOutlet private weak var webView: UIWebView!
    @IBOutlet weak var closeButton: UIButton!

    func show(_ page: URL) {
        webView.loadRequest(URLRequest(url: page))
    }
}
