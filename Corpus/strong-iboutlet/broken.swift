import UIKit

// This file does not parse: the function below is cut off. The outlet outside the damage is
// still rewritten, and the damaged code is left exactly as it was.
class HalfWrittenController: UIViewController {
    @IBOutlet weak var headerLabel: UILabel!

    func configure() {
        let values = [1, 2,
    }
}
