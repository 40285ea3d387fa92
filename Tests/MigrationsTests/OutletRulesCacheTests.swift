import CodemodKit
import Foundation
@testable import Migrations
import TestSupport
import Testing
import Workspace

/// The outlet rules' findings are kept under a digest of what they read (`OutletRules.state`):
/// the storyboards' stamps are taken before they are read, so a storyboard saved while a scan
/// runs is read again by the next one, never kept as it was read.
@Suite struct OutletRulesCacheTests {
    static let config = """
        rules:
          - id: outlet-not-guaranteed
            kind: outlet-not-guaranteed

        """

    static func storyboard(connected: Bool) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
            <scenes><scene sceneID="S1"><objects>
                <viewController id="P1" customClass="VC" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" id="V1"><subviews><label id="L1"/></subviews></view>
                    <connections>\(connected ? "<outlet property=\"label\" destination=\"L1\" id=\"O1\"/>" : "")</connections>
                </viewController>
            </objects></scene></scenes>
        </document>

        """
    }

    @Test(arguments: [false, true])
    func aStoryboardSavedWhileAScanRunsIsReadAgainByTheNext(warm: Bool) throws {
        let repo = try Repository(config: Self.config)
        try repo.write("App/VC.swift", "import UIKit\n\nclass VC: UIViewController {\n    @IBOutlet weak var label: UILabel!\n}\n")
        try repo.write("App/Main.storyboard", Self.storyboard(connected: true))
        let configuration = try repo.configuration()
        let migrations = try repo.migrations()
        let walked = try OutletRepository.files(under: [repo.root])
        func findings(_ prepared: OutletRules.Preparation) -> [String] {
            OutletRules(configuration: configuration, migrations: migrations, cacheVersion: "test", walked: walked, prepared: prepared)
                .results().findings.map(\.text)
        }
        let first = OutletRules.prepare(configuration: configuration, walked: walked, cacheVersion: "test")
        #expect(findings(first) == [])
        // A cold scan reads the storyboard beside the scan; a warm one (whose Swift file
        // changed) after it. Either way it is saved after it was read.
        try repo.write("App/VC.swift", "import UIKit\n\nclass VC: UIViewController {\n    @IBOutlet weak var label: UILabel!\n\n}\n")
        if !warm { try FileManager.default.removeItem(atPath: OutletRules.resultsPath(root: repo.root)) }
        let second = OutletRules.prepare(configuration: configuration, walked: walked, cacheVersion: "test")
        #expect(second.reading != nil || warm)
        _ = second.reading?.value
        _ = second.stamps?.value
        try repo.write("App/Main.storyboard", Self.storyboard(connected: false))
        // What was read: beside a cold scan, the storyboard as it was; after a warm one, as saved.
        #expect(findings(second) == (warm ? ["VC.label"] : []))
        // The next scan reads it as saved.
        let third = OutletRules.prepare(configuration: configuration, walked: walked, cacheVersion: "test")
        #expect(findings(third) == ["VC.label"])
    }

    /// Two files whose names differ only in normalisation are two files to the digest: the
    /// content hash of one is not the other's.
    @Test func namesEqualButForNormalisationAreTwoFiles() throws {
        let repo = try Repository(config: Self.config)
        let composed = "App/Caf\u{E9}.swift", decomposed = "App/Cafe\u{301}.swift"
        try repo.write(composed, "class A {}\n")
        try repo.write(decomposed, "class B {}\n")
        let configuration = try repo.configuration()
        let paths = [composed, decomposed].map { repo.root + "/" + $0 }
        #expect(paths[0] == paths[1] && !PathKey.sameBytes(paths[0], paths[1]))
        // The scan knows the hash of the decomposed one only; the composed one counts by its stamp.
        let before = OutletRules.state(files: paths, rules: [], version: "test", configuration: configuration, contentHashes: [(paths[1], 7)])
        try repo.write(composed, "class A { var changed = 1 }\n")
        let after = OutletRules.state(files: paths, rules: [], version: "test", configuration: configuration, contentHashes: [(paths[1], 7)])
        #expect(before != after)
    }
    /// Without a cache (`scan --no-cache`) the rules read what they read with one: the verdicts
    /// alone. A file none of whose types matters is read by its text, not parsed whole as for a
    /// rewrite (which made such a scan three times as slow as a cold one).
    @Test(arguments: [nil, "test"] as [String?])
    func withoutACacheOnlyTheFilesThatMatterAreParsed(cacheVersion: String?) throws {
        let repo = try Repository(config: Self.config)
        try repo.write("App/VC.swift", "import UIKit\n\nclass VC: UIViewController {\n    @IBOutlet weak var label: UILabel!\n}\n")
        // Matters (an extension of the outlet's class, with view code): parsed whole.
        try repo.write("App/VC+Hide.swift", "import UIKit\n\nextension VC {\n    func hide() { label.removeFromSuperview() }\n}\n")
        // Matters to nothing: read by its text.
        try repo.write("App/Formatter.swift", "import Foundation\n\nfinal class Formatter {\n    func format(_ value: Int) -> String { \"\\(value)\" }\n}\n")
        try repo.write("App/Main.storyboard", Self.storyboard(connected: true))
        let configuration = try repo.configuration()
        let migrations = try repo.migrations()
        let rules = OutletRules(configuration: configuration, migrations: migrations, cacheVersion: cacheVersion)
        #expect(rules.results().findings.map(\.text) == ["VC.label"])
        // VC.swift declares outlets, VC+Hide.swift matters; Formatter.swift is read by its text.
        #expect(rules.swiftFilesParsed == 2)
    }
}
