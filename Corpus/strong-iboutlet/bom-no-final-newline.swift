import UIKit

// Saved with a UTF-8 byte order mark. 日本語のコメント
class BOMViewController: UIViewController {
    @IBOutlet weak var label: UILabel!
}