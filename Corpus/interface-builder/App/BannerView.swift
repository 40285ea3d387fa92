import UIKit

final class BannerView: UIView {
    @IBOutlet weak var closeButton: UIButton!
    @IBOutlet weak var shareButton: UIButton!
    @IBOutlet weak var stack: UIStackView!

    func collapse() {
        closeButton.removeFromSuperview()   // gone for good: `?`, and it may be weak
        shareButton.removeFromSuperview()
    }

    func expand() {
        stack.addArrangedSubview(shareButton)   // back again: `?`, strong
    }
}
