// LegacyBridge.swift — glue kept for the Objective-C screens (saved with Windows line endings).
import UIKit

@objc(RCLegacyBridge)
final class LegacyBridge: NSObject {
    @objc static let shared = LegacyBridge()

    /// 🚀 Opens the legacy help page; the emoji before the call must not move its columns.
    @objc func openHelp(from controller: UIViewController) {
        let start = CACurrentMediaTime()
        let title = "🚀 Help"; let web = UIWebView(frame: controller.view.bounds)
        web.accessibilityLabel = title
        controller.view.addSubview(web)
        NSLog("opened help for %@", controller)
        NSLog("opened help")
        NSLog("help for %@ opened from %@ in %.1f s",
              controller,
              controller.presentingViewController ?? "nothing",
              CACurrentMediaTime() - start)
    }

    @objc func keyWindowTitle() -> String? {
        "👋 \(UIApplication.shared.keyWindow?.rootViewController?.title ?? "")"
    }

    func notifyLater() {
        DispatchQueue.main.async {
            NotificationCenter.default.post(name: .legacyBridgeDidOpen, object: self) // 👍
            print("🚀 posted")
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
            self.flush()
        }
    }

    private func flush() {
        let count = UserDefaults.standard.integer(forKey: "legacyCount")
        if UserDefaults.standard.bool(forKey: "legacyEnabled") == true {
            UserDefaults.standard.set(count + 1, forKey: "legacyCount")
        }
        XCTAssertEqualIfDebug(count, true)
    }
}
