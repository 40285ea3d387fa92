import UIKit

// `weak` written before the attribute: the compiler rejects this order ("expected declaration"),
// but the grammar reads it, and dropping `weak` leaves valid Swift.
final class SliderCell: UITableViewCell {
    @IBOutlet var slider: UISlider!
    @IBOutlet private var valueLabel: UILabel!
}
