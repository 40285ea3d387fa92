import UIKit

/// Loads CardView.xib with itself as File's Owner; dropped unconnected into Main.storyboard.
final class CardView: UIView {
    @IBOutlet weak var titleLabel: UILabel!

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        Bundle.main.loadNibNamed("CardView", owner: self, options: nil)
    }
}
