import UIKit

final class FeedViewController: UIViewController {
    @IBOutlet weak var titleLabel: UILabel!
    @IBOutlet weak var emptyStateView: UIView?
    private let articleView = UIWebView()

    override func viewDidLoad() {
        super.viewDidLoad()
        FeedService.shared.load { [weak self] items in
            guard let `self` = self else { return }
            self.titleLabel.text = "\(items.count) stories"
        }
    }
}
