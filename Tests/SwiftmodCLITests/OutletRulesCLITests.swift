import Foundation
import Testing

/// The outlet rules of `.swiftmod.yml` (issue 26) over a copy of `Corpus/interface-builder`:
/// `outlet-not-guaranteed` at the outlet in Swift (allowed by a comment there),
/// `stale-connection` at the storyboard's line (allowed by the baseline); `check` fails only on
/// new ones; `strong-iboutlet` leaves a may-be-absent outlet alone, with a note.
@Suite struct OutletRulesCLITests {
    static let config = """
        migrations:
          - codemod: strong-iboutlet
        rules:
          - id: outlet-not-guaranteed
            kind: outlet-not-guaranteed
          - id: stale-connection
            kind: stale-connection

        """

    /// A storyboard of one scene: a `VC` view controller (`P1`) whose view (`V1`) holds some
    /// subviews, with some connections.
    static func scene(subviews: String, connections: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
            <scenes><scene sceneID="S1"><objects>
                <viewController id="P1" customClass="VC" customModule="App" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" id="V1"><subviews>\(subviews)</subviews></view>
                    <connections>
        \(connections)
                    </connections>
                </viewController>
            </objects></scene></scenes>
        </document>

        """
    }

    func repository() throws -> Scratch {
        let scratch = try IBOutletOptionalCLITests().copy()
        try scratch.write(".swiftmod.yml", Self.config)
        // (A damaged xib fails the lock-down: the last test shows it.)
        try FileManager.default.removeItem(atPath: scratch.path + "/App/Damaged.xib")
        return scratch
    }

    struct Finding: Decodable { var migration: String; var file: String; var line: Int; var text: String; var detail: String? }
    struct Scan: Decodable { var findings: [Finding] }

    func findings(_ scratch: Scratch) throws -> [Finding] {
        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: scratch.path)
        return try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.migration != "strong-iboutlet" }
    }

    /// A class no Swift file declares (Objective-C, a library) is not judged, even where an
    /// extension here declares members: what the class holds is not known. Once, `outlets` and
    /// `scan --no-cache` judged it (an extension read whole gave it members) and a cold scan did
    /// not, but where the extension held view code.
    @Test(arguments: [
        "    var foo: Int { 1 }\n",
        "    func drop(_ view: UIView) { view.removeFromSuperview() }\n",
        "    func show() { hide(self) }\n",
    ])
    func aClassDeclaredNowhereIsNotJudged(extensionBody: String) throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write("App/VC.swift", "import UIKit\n\nclass VC: UIViewController {\n    @IBOutlet weak var label: UILabel!\n}\n")
        try repo.write("App/Helpers.swift", "import UIKit\n\nfunc hide(_ any: Any) {}\n\nextension UIView {\n    func hide(_ view: UIView) { view.removeFromSuperview() }\n}\n")
        try repo.write("App/Legacy+X.swift", "import UIKit\n\nextension LegacyVC {\n\(extensionBody)}\n")
        try repo.write("App/Main.storyboard", """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
                <scenes>
                    <scene sceneID="S1"><objects>
                        <viewController id="P1" customClass="VC" customModuleProvider="target" sceneMemberID="viewController">
                            <view key="view" id="V1"><subviews><label id="L1"/></subviews></view>
                            <connections><outlet property="label" destination="L1" id="O1"/></connections>
                        </viewController>
                    </objects></scene>
                    <scene sceneID="S2"><objects>
                        <viewController id="P2" customClass="LegacyVC" sceneMemberID="viewController">
                            <view key="view" id="V2"><subviews><label id="L2"/></subviews></view>
                            <connections><outlet property="title2" destination="L2" id="O2"/></connections>
                        </viewController>
                    </objects></scene>
                </scenes>
            </document>

            """)
        struct Outlets: Decodable { struct Stale: Decodable { var className: String; var name: String }; var staleConnections: [Stale] }
        let outlets = try CLI.swiftmod(["outlets", "--format", "json"], in: repo.path)
        #expect(try JSONDecoder().decode(Outlets.self, from: outlets.stdoutBytes).staleConnections.isEmpty, "\(outlets.stdout)")
        func scan(_ arguments: [String]) throws -> [String] {
            let result = try CLI.swiftmod(["scan", "--format", "json"] + arguments, in: repo.path)
            return try JSONDecoder().decode(Scan.self, from: result.stdoutBytes).findings.map { "\($0.migration) \($0.file):\($0.line)" }
        }
        let withoutCache = try scan(["--no-cache"])
        #expect(!withoutCache.contains { $0.hasPrefix("stale-connection") }, "\(withoutCache)")
        #expect(try scan([]) == withoutCache)
    }

    @Test func scanReportsBothRulesWhereTheyAre() throws {
        let scratch = try repository()
        let found = try findings(scratch).map { "\($0.migration) \($0.file):\($0.line) \($0.text)" }
        let expected: [String] = [
            "outlet-not-guaranteed App/BannerView.swift:4 BannerView.closeButton",
            "outlet-not-guaranteed App/BannerView.swift:5 BannerView.shareButton",
            "outlet-not-guaranteed App/FilterBarView.swift:6 FilterBarView.allChip",
            "outlet-not-guaranteed App/FilterBarView.swift:7 FilterBarView.unreadChip",
            "stale-connection App/Main.storyboard:21 ProfileViewController.share:",
            "stale-connection App/Main.storyboard:30 ProfileViewController.subtitleLabel",
            "outlet-not-guaranteed App/ProfileViewController.swift:6 ProfileViewController.avatarView",
        ]
        #expect(found == expected, "\(found)")
    }

    /// A warm scan keeps the rules' findings while no file changed: the storyboards and xibs
    /// are stamped beside the scan, the Swift files known by their content hashes. Each change
    /// below shows at once, as a scan without a cache sees it.
    @Test func aWarmScanSeesEveryChangeToTheStoryboardsAndXibs() throws {
        let scratch = try repository()
        func scan(_ extra: [String] = []) throws -> [String] {
            let output = try CLI.swiftmod(["scan", "--format", "json"] + extra, in: scratch.path)
            return try JSONDecoder().decode(Scan.self, from: output.stdoutBytes).findings.map { "\($0.migration) \($0.file):\($0.line) \($0.text)" }
        }
        let cold = try scan()
        #expect(try scan() == cold)
        // The card's own xib no longer connects its title.
        let card = String(decoding: try scratch.read("App/CardView.xib"), as: UTF8.self)
        try scratch.write("App/CardView.xib", card.replacingOccurrences(of: "<outlet property=\"titleLabel\" destination=\"K1a-aa-aaa\" id=\"K2a-aa-aaa\"/>", with: ""))
        let unconnected = try scan()
        #expect(unconnected.contains("outlet-not-guaranteed App/CardView.swift:5 CardView.titleLabel"), "\(unconnected)")
        #expect(try scan(["--no-cache"]) == unconnected)
        // Back as it was; then a second xib of the card that connects an outlet it lacks.
        try scratch.write("App/CardView.xib", card)
        #expect(try scan() == cold)
        try scratch.write("App/CardView~.xib", card.replacingOccurrences(of: "property=\"titleLabel\"", with: "property=\"footerLabel\""))
        let added = try scan()
        let addedUncached = try scan(["--no-cache"])
        #expect(added != cold && added == addedUncached, "\(added)")
        try FileManager.default.removeItem(atPath: scratch.path + "/App/CardView~.xib")
        #expect(try scan() == cold)
    }

    /// Two Swift files whose names are equal but for normalisation (`Café.swift` NFC and NFD, two
    /// files on Linux) keep their own findings, cold, warm and without a cache: one's outlets that
    /// may be absent take nothing from the other's uses.
    @Test(arguments: [false, true])
    func namesEqualButForNormalisationAreJudgedApart(swapped: Bool) throws {
        let scratch = try repository()
        // Whichever of the two holds the outlets that may be absent (their findings interleave).
        let (banner, card) = swapped ? ("App/Cafe\u{301}.swift", "App/Caf\u{E9}.swift") : ("App/Caf\u{E9}.swift", "App/Cafe\u{301}.swift")
        try FileManager.default.moveItem(atPath: scratch.path + "/App/BannerView.swift", toPath: scratch.path + "/" + banner)
        try FileManager.default.moveItem(atPath: scratch.path + "/App/CardView.swift", toPath: scratch.path + "/" + card)
        let expected = [
            "\(Array(banner.utf8)):4 outlet-not-guaranteed", "\(Array(banner.utf8)):5 outlet-not-guaranteed",
            "\(Array(banner.utf8)):6 strong-iboutlet", "\(Array(card.utf8)):5 strong-iboutlet",
        ].sorted()
        for arguments in [["scan"], ["scan"], ["scan", "--no-cache"]] {
            let scan = try CLI.swiftmod(arguments + ["--format", "json"], in: scratch.path)
            let found = try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.file.hasPrefix("App/Caf") }
                .map { "\(Array($0.file.utf8)):\($0.line) \($0.migration)" }.sorted()
            #expect(found == expected, "\(arguments): \(found)")
        }
    }

    @Test func checkFailsOnANewFindingOnly() throws {
        let scratch = try repository()
        let baseline = try CLI.swiftmod(["baseline"], in: scratch.path)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(try CLI.swiftmod(["check"], in: scratch.path).status == 0)
        // A new scene of ProfileViewController that leaves `nameLabel` unconnected.
        let storyboard = String(decoding: try scratch.read("App/Main.storyboard"), as: UTF8.self)
        let compact = storyboard.components(separatedBy: "<!--Profile, compact: no avatar-->")[1].components(separatedBy: "<!--A scene")[0]
        let third = compact.replacingOccurrences(of: "a-aa-aaa", with: "b-bb-bbb")
            .replacingOccurrences(of: "<outlet property=\"nameLabel\" destination=\"L2b-bb-bbb\" id=\"O6b-bb-bbb\"/>", with: "")
        try scratch.write("App/Main.storyboard", storyboard.replacingOccurrences(of: "<!--A scene", with: "<!--Third-->" + third + "<!--A scene"))
        let check = try CLI.swiftmod(["check"], in: scratch.path)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("App/ProfileViewController.swift:5:") && check.stdout.contains("`ProfileViewController (UIKit).nameLabel` may be absent"), "\(check.stdout)")
        // An allow comment on the outlet's line allows it.
        let swift = String(decoding: try scratch.read("App/ProfileViewController.swift"), as: UTF8.self)
        try scratch.write("App/ProfileViewController.swift", swift.replacingOccurrences(
            of: "@IBOutlet weak var nameLabel: UILabel!", with: "@IBOutlet weak var nameLabel: UILabel! // swiftmod:allow outlet-not-guaranteed -- the third scene never shows it"))
        let allowed = try CLI.swiftmod(["check"], in: scratch.path)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
    }

    @Test func strongIBOutletLeavesAMayBeAbsentOutletAlone() throws {
        let scratch = try repository()
        let run = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: scratch.path)
        // `nameLabel` is connected everywhere: strong. `avatarView` is not: left, said why.
        #expect(run.stdout.contains("+    @IBOutlet var nameLabel: UILabel!"))
        #expect(!run.stdout.contains("+    @IBOutlet var avatarView: UIImageView!"))
        // The Mac app's class of the same name has its avatar connected: strong.
        #expect(run.stdout.contains("+    @IBOutlet var avatarView: NSImageView!"), "\(run.stdout)")
        #expect(run.stderr.contains("`ProfileViewController.avatarView` may be absent"), "\(run.stderr)")
        // `scan` says the same: the avatar is no use of `strong-iboutlet` (it reads one file at a
        // time; the outlet rules' reading of the storyboards takes it out).
        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: scratch.path)
        let uses = try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.migration == "strong-iboutlet" }
            .map { "\($0.file):\($0.line)" }
        #expect(uses.contains("App/ProfileViewController.swift:5") && !uses.contains("App/ProfileViewController.swift:6"), "\(uses)")
        // So does a scan of `strong-iboutlet` alone, and one of a configuration without the outlet
        // rules: the storyboards decide, whichever migrations are asked for.
        let alone = try CLI.swiftmod(["scan", "--migration", "strong-iboutlet", "--format", "json"], in: scratch.path)
        #expect(try JSONDecoder().decode(Scan.self, from: alone.stdoutBytes).findings.map { "\($0.file):\($0.line)" } == uses)
        try scratch.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        let plain = try CLI.swiftmod(["scan", "--format", "json"], in: scratch.path)
        #expect(try JSONDecoder().decode(Scan.self, from: plain.stdoutBytes).findings.map { "\($0.file):\($0.line)" } == uses, "\(plain.stderr)")
    }

    @Test func aUseIsMatchedToItsOutletByItsPlaceNotItsLine() throws {
        let scratch = try repository()
        // `weak` on the line above the name, and two outlets on one line: the name label is
        // guaranteed (a use), the avatar may be absent (none).
        let swift = String(decoding: try scratch.read("App/ProfileViewController.swift"), as: UTF8.self)
        try scratch.write("App/ProfileViewController.swift", swift
            .replacingOccurrences(of: "    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var avatarView: UIImageView!",
                                  with: "    @IBOutlet weak var nameLabel: UILabel!; @IBOutlet weak var avatarView: UIImageView!")
            .replacingOccurrences(of: "    @IBOutlet weak var cardView: CardView!", with: "    @IBOutlet weak\n    var cardView: CardView!"))
        let run = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: scratch.path)
        #expect(run.stdout.contains("@IBOutlet var nameLabel: UILabel!; @IBOutlet weak var avatarView"), "\(run.stdout)")
        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: scratch.path)
        let uses = try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.migration == "strong-iboutlet" && $0.file == "App/ProfileViewController.swift" }
        // One use on line 5 (the name label's `weak`), one on line 7 (the card view's).
        #expect(uses.map(\.line) == [5, 7], "\(uses.map { "\($0.line) \($0.text)" })")
    }

    @Test func codeInFilesWithoutOutletsCountsWhereItsClassMatters() throws {
        let scratch = try repository()
        // A file that declares no outlet is read by its text first, and whole only where one of
        // its types matters: here the extension removes a connected outlet of a storyboard's class.
        try scratch.write("App/ProfileViewController+Compact.swift", """
            import UIKit

            // Compact layouts drop the name (this file declares no outlet).
            extension ProfileViewController {
                @objc func compactLayout() {
                    nameLabel.removeFromSuperview()
                }
            }

            """)
        // A class of no storyboard with no outlet yet, and an extension that removes a view of it.
        try scratch.write("App/LegacyPanel.swift", "import UIKit\n\nclass LegacyPanel: UIView {\n    var titleLabel: UILabel!\n}\n")
        try scratch.write("App/LegacyPanel+Collapse.swift", """
            import UIKit

            extension LegacyPanel {
                @objc func collapse() { titleLabel.removeFromSuperview() }
            }

            """)
        // A helper call in a file with no outlet-related text at all: read whole as well.
        try scratch.write("App/Dismissing.swift", """
            import UIKit

            extension UIViewController {
                func dismissView(_ view: UIView) { view.removeFromSuperview() }
            }

            """)
        try scratch.write("App/ProfileViewController+Card.swift", "import UIKit\n\nextension ProfileViewController {\n    func dropCard() { dismissView(cardView) }\n}\n")
        func rules() throws -> [String] {
            try findings(scratch).filter { $0.migration == "outlet-not-guaranteed" }.map { "\($0.file):\($0.line) \($0.text)" }
        }
        let cold = try rules()
        #expect(cold.contains("App/ProfileViewController.swift:5 ProfileViewController.nameLabel"), "\(cold)")
        #expect(cold.contains("App/ProfileViewController.swift:8 ProfileViewController.cardView"), "\(cold)")
        #expect(!cold.contains { $0.contains("LegacyPanel") }, "\(cold)")
        // The same from the cache, and from a scan that caches nothing.
        #expect(try rules() == cold)
        let uncached = try CLI.swiftmod(["scan", "--no-cache", "--format", "json"], in: scratch.path)
        #expect(try JSONDecoder().decode(Scan.self, from: uncached.stdoutBytes).findings.filter { $0.migration == "outlet-not-guaranteed" }
            .map { "\($0.file):\($0.line) \($0.text)" } == cold)
        // The panel's title becomes an outlet: the extension, unchanged and cached as read by its
        // text, now matters, and is read whole.
        try scratch.write("App/LegacyPanel.swift", "import UIKit\n\nclass LegacyPanel: UIView {\n    @IBOutlet weak var titleLabel: UILabel!\n}\n")
        let warm = try rules()
        #expect(warm.contains("App/LegacyPanel.swift:4 LegacyPanel.titleLabel"), "\(warm)")
        let outlets = try CLI.swiftmod(["outlets", "."], in: scratch.path)
        #expect(outlets.stdout.contains("`LegacyPanel.titleLabel`: removed from its superview (App/LegacyPanel+Collapse.swift:4)"), "\(outlets.stdout)")
    }

    /// A hostile review's shapes: a superclass that a file read whole shows only then (so a helper
    /// of `UIViewController` matters after all), and a subclass declared over two lines. `scan`
    /// (cold, warm, without a cache) and `run strong-iboutlet` judge as `outlets` does.
    @Test func theTextReadingMissesNothingTheWholeReadingSees() throws {
        let scratch = try Scratch()
        try scratch.write(".swiftmod.yml", Self.config)
        try scratch.write("Main.storyboard", Self.scene(subviews: #"<label text="Name" id="L1"/><label text="3" id="L2"/>"#, connections: """
            <outlet property="label" destination="L1" id="O1"/>
            <outlet property="badge" destination="L2" id="O2"/>
            """))
        try scratch.write("VC.swift", "import UIKit\n\nclass VC: BaseViewController {\n    @IBOutlet weak var label: UILabel!\n    @IBOutlet weak var badge: UILabel!\n    func collapse() { hide(label) }\n}\n")
        try scratch.write("Base.swift", "import UIKit\n\nclass BaseViewController:\n    UIViewController {\n}\n")
        try scratch.write("Helpers.swift", "import UIKit\n\nextension UIViewController {\n    func hide(_ v: UIView) { v.removeFromSuperview() }\n}\n")
        try scratch.write("SpecialVC.swift", "import UIKit\n\nfinal class SpecialVC:\n    VC { func drop() { badge.removeFromSuperview() } }\n")
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        let outlets = try CLI.swiftmod(["outlets", "."], in: scratch.path)
        #expect(outlets.stdout.contains("removed: `VC.label`") && outlets.stdout.contains("removed: `VC.badge`"), "\(outlets.stdout)")
        let expected = ["VC.swift:4 VC.label", "VC.swift:5 VC.badge"]
        for arguments in [["scan"], ["scan"], ["scan", "--no-cache"]] {
            let scan = try CLI.swiftmod(arguments + ["--format", "json"], in: scratch.path)
            let found = try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.migration == "outlet-not-guaranteed" }
            #expect(found.map { "\($0.file):\($0.line) \($0.text)" } == expected, "\(arguments): \(scan.stdout)\(scan.stderr)")
        }
        let run = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: scratch.path)
        #expect(!run.stdout.contains("+    @IBOutlet var"), "both may be absent: neither is made strong\n\(run.stdout)")
    }

    /// A file that declares no outlet, no action and no view code is read by its text alone
    /// unless it names a helper; a connection found stale is then looked for in those files: an
    /// extension's member, an `@objc` method (named as Swift names it from its selector) or an
    /// `@objc(name:)`. Only what none declares is stale, cold, warm, and as `outlets` says.
    @Test func aConnectionIsStaleOnlyWhereNoFileReadByItsTextDeclaresIt() throws {
        let scratch = try Scratch()
        try scratch.write(".swiftmod.yml", Self.config)
        try scratch.write("Main.storyboard", Self.scene(subviews: #"<label text="Name" id="L1"/><button id="B1"/><view id="F1"/>"#, connections: """
            <outlet property="label" destination="L1" id="O1"/>
            <outlet property="footer" destination="F1" id="O2"/>
            <outlet property="header" destination="F1" id="O3"/>
            <action selector="closeWithSender:" destination="P1" eventType="touchUpInside" id="A1"/>
            <action selector="didTapOn:" destination="P1" eventType="touchUpInside" id="A2"/>
            <action selector="refresh:" destination="P1" eventType="touchUpInside" id="A3"/>
            <action selector="share:" destination="P1" eventType="touchUpInside" id="A4"/>
            """))
        try scratch.write("VC.swift", "import UIKit\n\nclass VC: UIViewController {\n    @IBOutlet weak var label: UILabel!\n}\n")
        // (Neither file says IBOutlet, IBAction, removeFromSuperview or a helper's name.)
        try scratch.write("VC+Footer.swift", "import UIKit\n\nextension VC {\n    var footer: UIView? { view.viewWithTag(3) }\n}\n")
        try scratch.write("VC+Actions.swift", """
            import UIKit

            extension VC {
                @objc func close(sender: Any) { dismiss(animated: true) }
                @objc func didTap(on button: Any) { print(button) }
                @objc(refresh:) func reload(_ sender: Any) { loadViewIfNeeded() }
            }

            """)
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        let outlets = try CLI.swiftmod(["outlets", "."], in: scratch.path)
        #expect(outlets.stdout.contains("declares no outlet `header`") && outlets.stdout.contains("declares no action `share:`"), "\(outlets.stdout)")
        for arguments in [["scan"], ["scan"], ["scan", "--no-cache"]] {
            let scan = try CLI.swiftmod(arguments + ["--format", "json"], in: scratch.path)
            let stale = try JSONDecoder().decode(Scan.self, from: scan.stdoutBytes).findings.filter { $0.migration == "stale-connection" }
            #expect(stale.map(\.text).sorted() == ["VC.header", "VC.share:"], "\(arguments): \(scan.stdout)\(scan.stderr)")
        }
    }

    @Test func theTrackersReportCountsTheRulesFindings() throws {
        let scratch = try repository()
        let html = try CLI.swiftmod(["report", "--format", "html"], in: scratch.path)
        #expect(html.status == 0, "\(html.stderr)")
        // The rules' sections count findings, fixed by `iboutlet-optional` or in Interface Builder.
        let section = html.stdout.components(separatedBy: "<section class=\"migration\" id=\"outlet-not-guaranteed\"").dropFirst().first ?? ""
        #expect(section.contains("<b data-metric=\"total\">5</b><span>findings left</span>"), "\(section.prefix(1500))")
        #expect(section.contains("an outlet rule: <code>swiftmod run iboutlet-optional</code>"))
        #expect(html.stdout.contains("<span>uses left</span>"), "strong-iboutlet still counts uses")
    }

    @Test func anAllowCommentAtTheClassAllowsItsStaleConnections() throws {
        let scratch = try repository()
        let swift = String(decoding: try scratch.read("App/ProfileViewController.swift"), as: UTF8.self)
        try scratch.write("App/ProfileViewController.swift", swift.replacingOccurrences(
            of: "final class ProfileViewController", with: "// swiftmod:allow stale-connection -- the legacy scene goes in 2027\nfinal class ProfileViewController"))
        let found = try findings(scratch)
        #expect(!found.contains { $0.migration == "stale-connection" }, "\(found.map(\.text))")
        #expect(!found.contains { $0.text.contains("allows nothing") }, "\(found.map(\.text))")
        #expect(found.contains { $0.migration == "outlet-not-guaranteed" && $0.text == "ProfileViewController.avatarView" })
        // On another class it allows nothing, and says so.
        try scratch.write("App/ProfileViewController.swift", swift.replacingOccurrences(
            of: "final class ProfileViewController", with: "final class ProfileViewController")
            + "\n// swiftmod:allow stale-connection -- nothing here\nfinal class Unrelated {}\n")
        let scan = try CLI.swiftmod(["scan"], in: scratch.path)
        #expect(scan.stdout.contains("swiftmod:allow stale-connection allows nothing"), "\(scan.stdout)")
        #expect(scan.stdout.contains("declares no action `share:`"), "\(scan.stdout)")
        // The Mac app's class of the same name is another class: a comment there allows nothing
        // of the iOS storyboard's.
        try scratch.write("App/ProfileViewController.swift", swift)
        let mac = String(decoding: try scratch.read("Mac/ProfileViewController.swift"), as: UTF8.self)
        try scratch.write("Mac/ProfileViewController.swift", mac.replacingOccurrences(
            of: "final class ProfileViewController", with: "// swiftmod:allow stale-connection -- wrong class\nfinal class ProfileViewController"))
        let wrong = try CLI.swiftmod(["scan"], in: scratch.path)
        #expect(wrong.stdout.contains("Mac/ProfileViewController.swift:5:1: warning: swiftmod:allow stale-connection allows nothing"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("declares no action `share:`") && wrong.stdout.contains("declares no outlet `subtitleLabel`"), "\(wrong.stdout)")
    }

    @Test func aStoryboardThatCannotBeReadFailsTheCheckAndKeepsTheBaseline() throws {
        let scratch = try repository()
        #expect(try CLI.swiftmod(["baseline"], in: scratch.path).status == 0)
        let storyboard = String(decoding: try scratch.read("App/Main.storyboard"), as: UTF8.self)
        try scratch.write("App/Main.storyboard", storyboard + "<<<<<<< HEAD\n")
        let check = try CLI.swiftmod(["check"], in: scratch.path)
        #expect(check.status != 0)
        #expect(check.stderr.contains("App/Main.storyboard") && check.stderr.contains("not well-formed XML"), "\(check.stderr)")
        #expect(!check.stderr.contains("the baseline can shrink"), "what is unseen is not gone")
        let prune = try CLI.swiftmod(["baseline", "--prune"], in: scratch.path)
        #expect(prune.status != 0 && prune.stderr.contains("the baseline was not written"), "\(prune.stderr)")
    }

    @Test func excludedFilesAreNotJudged() throws {
        let scratch = try repository()
        try scratch.write(".swiftmod.yml", Self.config + "exclude: [\"App/BannerView.swift\", \"App/Main.storyboard\"]\n")
        let found = try findings(scratch).map { "\($0.migration) \($0.file)" }
        #expect(!found.contains { $0.hasSuffix("App/BannerView.swift") || $0.hasSuffix("App/Main.storyboard") }, "\(found)")
        #expect(found.contains("outlet-not-guaranteed App/FilterBarView.swift"), "\(found)")
    }
}
