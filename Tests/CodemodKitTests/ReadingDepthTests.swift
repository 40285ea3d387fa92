import Foundation
@testable import CodemodKit
import Testing
import TestSupport

/// What the verdicts say does not depend on how the Swift files were read: by their text where
/// they matter to nothing (a scan, `outlets`), or all whole with their uses (`run`).
@Suite struct ReadingDepthTests {
    /// A scene of `ProfileVC` connecting `nameLabel` and `appOnly` (on the Mac: stale, were the
    /// two classes told apart), in an iOS or a Mac storyboard.
    static func storyboard(mac: Bool) -> String {
        let (type, runtime, label) = mac ? ("Cocoa", "MacOSX.Cocoa", "textField") : ("CocoaTouch", "iOS.CocoaTouch", "label")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.\(type).Storyboard.XIB" version="3.0" targetRuntime="\(runtime)">
                <scenes><scene sceneID="S1"><objects>
                    <viewController id="P1" customClass="ProfileVC" sceneMemberID="viewController">
                        <view key="view" id="V1"><subviews><\(label) id="L1"/><\(label) id="L2"/></subviews></view>
                        <connections>
                            <outlet property="nameLabel" destination="L1" id="O1"/>
                            <outlet property="appOnly" destination="L2" id="O2"/>
                        </connections>
                    </viewController>
                </objects></scene></scenes>
            </document>

            """
    }

    /// `ProfileVC` of iOS and of the Mac, told apart by their imports, and a file of neither
    /// platform that extends it: which of the two it extends cannot be told, so they stay one,
    /// whatever the extension holds and however it is read.
    @Test(arguments: [
        "extension ProfileVC: Codable {}\n",
        "extension ProfileVC {\n    func show() { print(nameLabel) }\n}\n",
        "extension ProfileVC {\n    func name() -> Any { nameLabel as Any }\n}\n",
        // Read by its text, a comment that says it extends the class counts too; and whole.
        "// extension ProfileVC: gone\nstruct Helper {}\n",
        "extension ProfileVC<Int> {}\n",
        // Its text reading cannot tell which type this extends: read whole.
        "enum Outer {}\nextension Outer . ProfileVC {}\n",
        "enum Outer {}\nextension Outer. ProfileVC {}\n",
    ])
    func aSharedExtensionKeepsSameNamedClassesOneHoweverItIsRead(extensionText: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("iOS/ProfileVC.swift", "import UIKit\n\nfinal class ProfileVC: UIViewController {\n    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var appOnly: UILabel!\n}\n")
        try folder.write("Mac/ProfileVC.swift", "import AppKit\n\nfinal class ProfileVC: NSViewController {\n    @IBOutlet weak var nameLabel: NSTextField!\n}\n")
        try folder.write("iOS/Main.storyboard", Self.storyboard(mac: false))
        try folder.write("Mac/Main.storyboard", Self.storyboard(mac: true))
        try folder.write("Shared/ProfileVC+Shared.swift", "import Foundation\n\n" + extensionText)
        func judged(complete: Bool) throws -> [String] {
            let classification = try OutletRepository(paths: [folder.path], display: { $0.replacingOccurrences(of: folder.path + "/", with: "") },
                                                      complete: complete).classification
            return classification.entries.map { "\($0.file) \($0.outlet.className).\($0.outlet.name) \($0.verdict.name)" }.sorted()
                + classification.stale.map { "stale \($0.className).\($0.name)" }
        }
        let whole = try judged(complete: true)
        #expect(try judged(complete: false) == whole)
        #expect(!whole.contains { $0.hasPrefix("stale") }, "\(whole)")
    }
}
