import UIKit

enum SettingsKey {
    static let darkMode = "settings.darkMode"
}

final class SettingsViewController: UITableViewController {
    private let icons: [UIImage?] = [
        UIImage(named: "ic_dark_mode"),
        UIImage(named: "ic_notifications_bell"),
        UIImage(named: "avatar-placeholder"),   // not an icon: kept as is
        UIImage(named: "ic_privacy-lock"),
    ]

    private var isDarkMode: Bool {
        get { UserDefaults.standard.bool(forKey: "darkModeEnabled") }
        set { UserDefaults.standard.set(newValue, forKey: "darkModeEnabled") }
    }

    private var sendsCrashReports: Bool {
        UserDefaults.standard.bool(forKey: SettingsKey.darkMode)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("settings.title", comment: "Title of the settings screen")
        tableView.register(SettingsCell.self, forCellReuseIdentifier: "SettingsCell")
        let header = UIImage(named: "ic_header")?.withRenderingMode(.alwaysTemplate)
        navigationItem.titleView = UIImageView(image: header)
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "SettingsCell", for: indexPath) as! SettingsCell
        cell.iconView.image = icons[indexPath.row]
        cell.toggle.addTarget(self, action: #selector(toggleChanged(_:)), for: .valueChanged)
        cell.accessoryView = nil
        return cell
    }

    @objc private func toggleChanged(_ sender: UISwitch) {
        isDarkMode = sender.isOn
        view.window?.overrideUserInterfaceStyle = sender.isOn ? .dark : .light
    }
}
