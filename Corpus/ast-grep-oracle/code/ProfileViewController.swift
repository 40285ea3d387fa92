//
//  ProfileViewController.swift
//  Shows the signed-in member's profile, their avatar and the activity feed below it.
//

import UIKit
import WebKit

final class ProfileViewController: UIViewController, UITableViewDelegate {
    @IBOutlet var avatarView: UIImageView!
    @IBOutlet weak var nameLabel: UILabel!
    @IBOutlet private var bioLabel: UILabel!
    @IBOutlet var actionButtons: [UIButton]!
    @IBOutlet weak var helpView: UIWebView?

    var viewModel: ProfileViewModel?
    weak var delegate: ProfileViewControllerDelegate?
    private let legacyTerms = UIWebView(frame: .zero)

    override func viewDidLoad() {
        configureNavigationBar()
        super.viewDidLoad()
        title = NSLocalizedString("profile.title", comment: "")
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            barButtonSystemItem: .edit,
            target: self,
            action: #selector(didTapEdit)
        )
        NotificationCenter.default.addObserver(self, selector: #selector(sessionDidChange(_:)),
                                               name: .sessionDidChange, object: nil)
        print("profile loaded")
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        delegate?.profileWillAppear(self)
        viewModel?.coordinator?.refresh(force: false)
    }

    private func configureNavigationBar() {
        guard let window = UIApplication.shared.keyWindow else { return }
        // The keyWindow comment mentions UIApplication.shared.keyWindow but is not code.
        let insets = UIApplication.shared.keyWindow?.safeAreaInsets ?? .zero
        navigationController?.additionalSafeAreaInsets = insets
        print("window", window.bounds, separator: ": ")
    }

    @objc private func didTapEdit() {
        let editor = storyboard?.instantiateViewController(withIdentifier: "Editor") as! ProfileEditorViewController
        editor.profile = viewModel?.profile
        DispatchQueue.main.async {
            self.present(editor, animated: true)
        }
    }

    @objc func sessionDidChange(_ note: Notification) {
        DispatchQueue.main.async { [weak self] in
            self?.reload()
        }
    }

    func reload() {
        viewModel?.load { [weak self] result in
            switch result {
            case .success(let profile):
                DispatchQueue.main.async {
                    self?.nameLabel.text = "\(profile.firstName) \(profile.lastName)"
                    self?.bioLabel.text = "\(profile.bio)"
                    DispatchQueue.main.async {
                        self?.avatarView.setNeedsLayout()
                    }
                }
            case .failure(let error):
                print("could not load the profile: \(error)")
            }
        }
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let cell = tableView.cellForRow(at: indexPath) as? ProfileActivityCell
        cell?.highlight()
        if viewModel?.items.count == 0 {
            showEmptyState()
        }
    }

    private func showEmptyState() {
        #if DEBUG
        print("empty state shown for", viewModel?.profile?.id ?? "nobody")
        #endif
        let empty = viewModel?.items.filter { $0.isHidden == false } ?? []
        debugPrint(empty)
    }
}

extension ProfileViewController: WKNavigationDelegate {
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        let window = UIApplication.shared.windows.first { $0.isKeyWindow }
        window?.endEditing(true)
    }
}
