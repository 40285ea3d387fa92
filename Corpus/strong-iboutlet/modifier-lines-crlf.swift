import UIKit

// Written on Windows (CRLF): the ownership modifier on a line of its own goes with its line.
final class ReceiptCell: UITableViewCell {
    @IBOutlet
    unowned(unsafe)
    var amountLabel: UILabel!
    @IBOutlet public
        weak var dateLabel: UILabel!
    @IBOutlet weak var delegate: ReceiptCellDelegate!
}
