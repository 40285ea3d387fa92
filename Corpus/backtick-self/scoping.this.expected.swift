import UIKit

// Implicit member uses (Swift 5.8) under a named binding: members of the type and of its
// extensions in this file get `this.`; locals, loop variables, closure parameters, catch's
// `error`, implicit members (`.selected`) and tuple labels do not.
final class InboxViewController: UIViewController {
    static let reuseIdentifier = "inbox"
    var title2 = ""
    var count = 0
    var detail: String?
    var messages: [String] = []

    func refresh() {
        service.fetch { [weak self] result in
            guard let this = self else { return }
            for (index, title2) in this.messages.enumerated() { print(index, title2) }
            _ = this.title2
            this.count += 1
            if let detail = this.detail { print(detail) }
            do { try this.validate() } catch { print("invalid: \(error)") }
            let pair = (count: this.count, selected: true)
            this.button.setTitle("x", for: .selected)
            this.messages.forEach { count in print(count, pair) }
            this.markRead()
            print(InboxViewController.reuseIdentifier)
        }
    }

    func validate() throws {}
}

extension InboxViewController {
    var button: UIButton { UIButton() }
    func markRead() {}
}
