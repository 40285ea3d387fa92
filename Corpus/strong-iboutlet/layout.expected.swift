import UIKit

// Outlets written every way people write them.
class CheckoutView: UIView {
    @IBOutlet
    var totalLabel: UILabel!

    @IBOutlet /* the card */ /* strong now */ var cardField: UITextField!

    @IBOutlet
    var promoField: UITextField!

	@IBOutlet	var tabbedLabel: UILabel!

    @IBOutlet var generic: ContainerView<UILabel>!
    @IBOutlet var qualified: UIKit.UISwitch!

    #if DEBUG
    @IBOutlet var debugBanner: UILabel!
    #else
    @IBOutlet weak var releaseBanner: UILabel?
    #endif

    lazy var handler: () -> Void = { [weak self] in
        self?.totalLabel.text = "🛒 \(String(describing: self))"
    }
}
