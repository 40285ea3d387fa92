import UIKit

/// Used by two scenes of Main.storyboard: the compact one has no avatar.
final class ProfileViewController: UIViewController {
    @IBOutlet weak var nameLabel: UILabel!
    @IBOutlet weak var avatarView: UIImageView!   // not connected in the compact scene
    @IBOutlet var stars: [UIImageView]!
    @IBOutlet weak var cardView: CardView!

    override func viewDidLoad() {
        super.viewDidLoad()
        nameLabel.text = "Ada"
        avatarView.image = nil   // crashes in the compact scene
    }

    @IBAction func save(_ sender: Any) {}

    @IBAction func close(sender: UIButton, forEvent event: UIEvent) {}
}
