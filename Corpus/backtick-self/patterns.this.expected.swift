import UIKit

/// Links in a chat message: the actions share their names with the controller's methods.
enum LinkAction {
    case openLink(URL)
    case share(url: URL, title: String)
    case showQRCode(URL)
    case close
}

final class LinkPreviewViewController: UIViewController {
    var url: URL?
    var shareTitle = ""
    var retries = 0
    var outer = 0
    var completion: (() -> Void)?
    let service = LinkService()

    func openLink(_ url: URL) {}
    func share(url: URL, title: String) {}
    func showQRCode(_ url: URL) {}
    func close() {}
    @objc func refresh() {}

    func bind(_ actions: [LinkAction], to button: UIButton) {
        service.observe { [weak self] action in
            guard let this = self else { return }

            // The case names are enum cases, not the methods of the same name.
            if case let .openLink(url) = action {
                this.openLink(url)
            } else if case .showQRCode(let url) = action,
                      url.scheme == "https" {
                present(QRCodeViewController(url: url), animated: true)
            }

            guard case .share(url: let link, title: var title) = action else {
                this.close()
                return
            }
            // A binding's own value reads the member; the next condition sees the binding.
            if let url = this.url, let host = url.host {
                print(host)
            }
            title = title.isEmpty ? this.shareTitle : title
            this.share(url: link, title: title)

            switch action {
            case let .openLink(url) where url.host == nil:
                this.retries += 1
            case .share(let url, _), .showQRCode(let url):
                this.url = url
            case .close:
                this.close()
            default:
                break
            }

            for case let .openLink(url) in actions {
                this.openLink(url)
            }

            outer: for (index, action) in actions.enumerated() {
                if case .close = action { break outer }
                print(index, this.outer)
            }

            button.addTarget(this, action: #selector(refresh), for: .touchUpInside)
            this.service.observe(keyPath: #keyPath(shareTitle), on: this)
            let titles = [this].map(\.shareTitle)

            UIView.animate(withDuration: 0.2) {
                this.view.alpha = 1
            } completion: { _ in
                this.completion?()
            }
            print(titles, QRCodeViewController(url: this.url))
        }
    }
}
