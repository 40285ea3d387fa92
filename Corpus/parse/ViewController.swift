import UIKit

/// A screen with outlets and a network callback.
final class ProfileViewController: UIViewController {
    @IBOutlet private weak var nameLabel: UILabel!
    @IBOutlet weak var avatarView: UIImageView?

    private let service = ProfileService()

    override func viewDidLoad() {
        super.viewDidLoad()
        service.load { [weak self] profile in
            guard let `self` = self else { return }
            self.nameLabel.text = "👋 \(profile.name)"
        }
    }
}
