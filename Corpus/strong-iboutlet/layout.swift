import UIKit

// Outlets written every way people write them.
class CheckoutView: UIView {
    @IBOutlet
    weak var totalLabel: UILabel!

    @IBOutlet /* the card */ weak /* strong now */ var cardField: UITextField!

    @IBOutlet weak
    var promoField: UITextField!

	@IBOutlet	weak	var tabbedLabel: UILabel!

    @IBOutlet weak var generic: ContainerView<UILabel>!
    @IBOutlet weak var qualified: UIKit.UISwitch!

    #if DEBUG
    @IBOutlet weak var debugBanner: UILabel!
    #else
    @IBOutlet weak var releaseBanner: UILabel?
    #endif

    lazy var handler: () -> Void = { [weak self] in
        self?.totalLabel.text = "🛒 \(String(describing: self))"
    }
}
