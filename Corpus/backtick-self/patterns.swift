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
            guard let `self` = self else { return }

            // The case names are enum cases, not the methods of the same name.
            if case let .openLink(url) = action {
                openLink(url)
            } else if case .showQRCode(let url) = action,
                      url.scheme == "https" {
                present(QRCodeViewController(url: url), animated: true)
            }

            guard case .share(url: let link, title: var title) = action else {
                close()
                return
            }
            // A binding's own value reads the member; the next condition sees the binding.
            if let url = url, let host = url.host {
                print(host)
            }
            title = title.isEmpty ? shareTitle : title
            share(url: link, title: title)

            switch action {
            case let .openLink(url) where url.host == nil:
                retries += 1
            case .share(let url, _), .showQRCode(let url):
                self.url = url
            case .close:
                close()
            default:
                break
            }

            for case let .openLink(url) in actions {
                openLink(url)
            }

            outer: for (index, action) in actions.enumerated() {
                if case .close = action { break outer }
                print(index, outer)
            }

            button.addTarget(self, action: #selector(refresh), for: .touchUpInside)
            service.observe(keyPath: #keyPath(shareTitle), on: self)
            let titles = [self].map(\.shareTitle)

            UIView.animate(withDuration: 0.2) {
                self.view.alpha = 1
            } completion: { _ in
                self.completion?()
            }
            print(titles, QRCodeViewController(url: url))
        }
    }
}
