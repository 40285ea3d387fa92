import UIKit

/// A reusable header shipped in a framework: its outlets carry access levels, written before or
/// after `weak`. Wherever `weak` stands among the modifiers, it goes.
open class SectionHeaderView: UIView {
    @IBOutlet public weak var titleLabel: UILabel!
    @IBOutlet open weak var accessoryButton: UIButton!
    @IBOutlet public private(set) weak var separator: UIView!
    @IBOutlet weak public var countLabel: UILabel!
    @IBOutlet internal weak var badge: BadgeView!
    @IBOutlet public weak var subtitleLabel: UILabel?    // optional: may stay weak
    @IBOutlet public weak var delegate: SectionHeaderDelegate!
}
