import UIKit

/// Outlets whose type is written in parentheses are outlets all the same: `(UILabel)!` is
/// `UILabel!`, and a composition names a view that also conforms to a protocol.
final class OnboardingPageView: UIView {
    @IBOutlet var headline: (UILabel)!
    @IBOutlet private var artwork: ( UIImageView )!       // spaced inside the parentheses
    @IBOutlet var card: (UIView & Themeable)!
    @IBOutlet var badge: ((UILabel))!                     // parentheses twice
    @IBOutlet var frame: (any FrameDrawing)!              // an existential: a view all the same
    @IBOutlet weak var caption: (UILabel)?                      // optional: may stay weak
    @IBOutlet weak var pages: ([UIView])!                       // a collection: left alone
    @IBOutlet weak var pair: (UILabel, UILabel)!                // not a single type: left alone

    func configure(with page: OnboardingPage) {
        headline.text = page.title
        artwork.image = page.image
        card.apply(theme: page.theme)
    }
}
