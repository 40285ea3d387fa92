import UIKit

/// The feed: a table of posts that refreshes in the background.
final class FeedViewController: UIViewController {
    @IBOutlet private var tableView: UITableView!
    private let titleLabel = UILabel()
    private let badge = UIView()
    private var posts: [Post] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        NSLayoutConstraint.activate([
            NSLayoutConstraint(item: titleLabel, attribute: .leading, relatedBy: .equal,
                               toItem: view, attribute: .leading, multiplier: 1, constant: 16),
            NSLayoutConstraint(item: titleLabel,
                               attribute: .top,
                               relatedBy: .equal,
                               toItem: view.safeAreaLayoutGuide,
                               attribute: .top,
                               multiplier: 1,
                               constant: 8 /* below the notch */),
            NSLayoutConstraint(item: badge, attribute: .width, relatedBy: .equal, toItem: nil,
                               attribute: .notAnAttribute, multiplier: 1, constant: 24),
        ])
        print("feed loaded")
    }

    func didReceive(_ posts: [Post]) {
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.posts = posts
            self.tableView.reloadData()
        }
    }

    func didFail(_ error: Error) {
        DispatchQueue.main.async {
            // Tell the person, then offer to retry.
            let alert = UIAlertController(title: "Could not load the feed", message: nil, preferredStyle: .alert)
            alert.addAction(UIAlertAction(title: "Retry", style: .default) { _ in
                DispatchQueue.main.async { self.reload() }
            })

            self.present(alert,
                         animated: true,
                         completion: nil)
        }
    }

    func reload() {
        #if DEBUG
        print("reloading \(posts.count) posts")
        #endif
        tableView.reloadData()
        tableView?.reloadData()
        collectionView.reloadData()
        DispatchQueue.main.async { () in self.dismiss(animated: true, completion: nil) }
    }

    private func debugDump() {
        print(posts.map(\.id))
    }

    func showSignIn() {
        let root = UIApplication.shared.keyWindow?.rootViewController
        root?.present(SignInViewController(), animated: true, completion: {
            print("sign-in shown")
        })
    }
}
