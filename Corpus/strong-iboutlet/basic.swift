import UIKit

/// Shows a user's profile.
final class ProfileViewController: UIViewController {
    @IBOutlet weak var nameLabel: UILabel!
    @IBOutlet private weak var bioLabel: UILabel!
    @IBOutlet fileprivate(set) weak var avatarView: UIImageView!
    @objc @IBOutlet weak var followButton: UIButton!
    @IBOutlet weak var badgeView: UIView?          // optional: may stay weak
    @IBOutlet var statViews: [UIView]!              // collection: always strong
    weak var delegate: ProfileDelegate?             // not an outlet

    private let greeting = "@IBOutlet weak var nameLabel: UILabel!"

    override func viewDidLoad() {
        super.viewDidLoad()
        // @IBOutlet weak var commentedOut: UILabel!
        nameLabel.text = greeting
    }
}

final class ProfileHeaderView: UIView {
    @IBOutlet weak var titleLabel: UILabel!
    @IBOutlet weak var subtitleLabel: UILabel?
}
