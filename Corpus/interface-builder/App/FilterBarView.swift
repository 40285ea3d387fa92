import UIKit

/// Its chips sit in a stack that `reset()` empties; `showAll()` builds a new stack with one of them.
final class FilterBarView: UIView {
    @IBOutlet weak var chips: UIStackView!
    @IBOutlet weak var allChip: UIButton!
    @IBOutlet weak var unreadChip: UIButton!
    @IBOutlet weak var titleLabel: UILabel!

    func reset() {
        chips.arrangedSubviews.forEach { $0.removeFromSuperview() }
        // A local named like an outlet is not the outlet.
        let titleLabel = UILabel()
        titleLabel.removeFromSuperview()
    }

    func showAll() {
        addSubview(UIStackView(arrangedSubviews: [allChip]))
    }
}
