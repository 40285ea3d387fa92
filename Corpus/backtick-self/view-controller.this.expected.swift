import UIKit

/// A screen that loads a profile and an avatar. 👤
final class ProfileViewController: UIViewController {
    private let service = ProfileService()
    private var profile: Profile?

    override func viewDidLoad() {
        super.viewDidLoad()
        service.load { [weak self] result in
            guard let this = self else { return }
            switch result {
            case .success(let profile):
                this.profile = profile
                this.title = "\(profile.name) — \(profile.followers) followers"
            case .failure(let error):
                this.show(error)
            }
        }

        service.avatar { [weak self] image in
            // guard let `self` = self (kept in comments)
            guard let strongSelf = self else { return }
            strongSelf.view.backgroundColor = image.averageColor
        }

        NotificationCenter.default.addObserver(forName: .profileChanged, object: nil, queue: .main) { [weak self] _ in
            guard
                let this = self,
                let profile = this.profile
            else { return }
            #if DEBUG
            print("profile changed: \(profile) in \(this)")
            #endif
            this.reload(profile)
        }
    }

    private func show(_ error: Error) {
        let message = "guard let `self` = self"   // a string, not code
        print(message, error)
    }

    private func reload(_ profile: Profile) {}
}
