import UIKit

/// In no storyboard or xib: made in code (or in another bundle), so its outlets are not judged.
final class CodeOnlyView: UIView {
    @IBOutlet weak var hintLabel: UILabel!
}
