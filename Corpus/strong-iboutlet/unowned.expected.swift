import UIKit

/// A checkout summary. Someone made its outlets `unowned` to "avoid retain cycles": an unowned
/// outlet is no safer than a weak one once the view is unloaded (it traps, or with `unsafe`
/// reads freed memory), so they become strong like the others.
final class OrderSummaryViewController: UIViewController {
    @IBOutlet var totalLabel: UILabel!
    @IBOutlet private var payButton: UIButton!
    @IBOutlet var shippingView: ShippingOptionsView!
    @IBOutlet
    // legacy: see the 2019 crash report
    var promoField: UITextField!
    @IBOutlet unowned var footnote: UILabel?           // optional unowned: not ours to change
    unowned var coordinator: CheckoutCoordinator!       // not an outlet

    override func viewDidLoad() {
        super.viewDidLoad()
        totalLabel.text = "@IBOutlet unowned var totalLabel: UILabel!"
        payButton.isEnabled = shippingView.hasSelection
    }
}
