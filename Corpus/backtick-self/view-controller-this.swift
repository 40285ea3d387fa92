import UIKit

/// A screen that loads a profile and an avatar. 👤
final class ProfileViewController: UIViewController {
    private let service = ProfileService()
    private var profile: Profile?

    override func viewDidLoad() {
        super.viewDidLoad()
        service.load { [weak self] result in
            guard let `self` = self else { return }
            switch result {
            case .success(let profile):
                self.profile = profile
                self.title = "\(profile.name) — \(profile.followers) followers"
            case .failure(let error):
                self.show(error)
            }
        }

        service.avatar { [weak self] image in
            // guard let `self` = self (kept in comments)
            guard let strongSelf = self else { return }
            strongSelf.view.backgroundColor = image.averageColor
        }

        NotificationCenter.default.addObserver(forName: .profileChanged, object: nil, queue: .main) { [weak self] _ in
            guard
                let `self` = self,
                let profile = self.profile
            else { return }
            #if DEBUG
            print("profile changed: \(profile) in \(self)")
            #endif
            self.reload(profile)
        }
    }

    private func show(_ error: Error) {
        let message = "guard let `self` = self"   // a string, not code
        print(message, error)
    }

    private func reload(_ profile: Profile) {}
}
