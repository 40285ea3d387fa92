import UIKit

// Written on Windows: CRLF line endings, and a BOM-less UTF-8 file with ünïcødé.
class WindowsCell: UITableViewCell {
    @IBOutlet weak var titleLabel: UILabel!
    @IBOutlet weak var detailLabel: UILabel?
    @IBOutlet private weak var iconView: UIImageView!
}
