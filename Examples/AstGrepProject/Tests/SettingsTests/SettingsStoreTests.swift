import XCTest
@testable import Settings

final class SettingsStoreTests: XCTestCase {
    func testOnboardingIsRemembered() {
        let store = SettingsStore(defaults: UserDefaults(suiteName: "test")!)
        store.markOnboardingSeen()
        sleep(1) // give the write time to land
        XCTAssertTrue(UserDefaults(suiteName: "test")!.bool(forKey: "onboardingSeen"))
    }
}
