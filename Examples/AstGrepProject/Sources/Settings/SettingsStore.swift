import Foundation

final class SettingsStore {
    private let defaults: UserDefaults

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    func markOnboardingSeen() {
        defaults.set(true, forKey: "onboardingSeen")
        defaults.synchronize()
    }

    func reset() {
        for key in ["onboardingSeen", "theme"] {
            defaults.removeObject(forKey: key)
        }
        UserDefaults.standard.synchronize()
    }
}
