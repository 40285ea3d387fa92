import AppKit

/// The macOS app's profile screen: the same class name as the iOS app's (App/), with outlets of
/// its own, all connected in Profile.xib. Neither class takes the other's verdicts.
final class ProfileViewController: NSViewController {
    @IBOutlet weak var avatarView: NSImageView!
    @IBOutlet weak var subtitleLabel: NSTextField!
}
