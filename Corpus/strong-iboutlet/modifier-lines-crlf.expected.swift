import UIKit

// Written on Windows (CRLF): the ownership modifier on a line of its own goes with its line.
final class ReceiptCell: UITableViewCell {
    @IBOutlet
    var amountLabel: UILabel!
    @IBOutlet public
        var dateLabel: UILabel!
    @IBOutlet weak var delegate: ReceiptCellDelegate!
}
