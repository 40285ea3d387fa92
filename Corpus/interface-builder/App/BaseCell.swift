import UIKit

/// Its outlet is connected on the cells of its subclasses.
class BaseCell: UITableViewCell {
    @IBOutlet weak var iconView: UIImageView!
}

final class NewsCell: BaseCell {
    @IBOutlet weak var headlineLabel: UILabel!
}
