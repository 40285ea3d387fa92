import Foundation
import Testing

/// `swiftmod run iboutlet-optional` over a copy of `Corpus/interface-builder` (issue 26): an
/// outlet not connected in one scene, or removed for good, becomes `T?` with `x?.` at its uses;
/// one whose use cannot take an optional stays, with that use named; the rest are not uses.
@Suite struct IBOutletOptionalCLITests {
    func copy() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.copy("Corpus/interface-builder")
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        return scratch
    }

    @Test func mayBeAbsentOutletsBecomeOptionalWithTheirUses() throws {
        let scratch = try copy()
        let run = try CLI.swiftmod(["run", "iboutlet-optional", ".", "--write"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let profile = String(decoding: try scratch.read("App/ProfileViewController.swift"), as: UTF8.self)
        #expect(profile.contains("@IBOutlet weak var avatarView: UIImageView?   // not connected in the compact scene"))
        #expect(profile.contains("avatarView?.image = nil"))
        // Connected everywhere: untouched.
        #expect(profile.contains("@IBOutlet weak var nameLabel: UILabel!") && profile.contains("nameLabel.text = \"Ada\""))
        let banner = String(decoding: try scratch.read("App/BannerView.swift"), as: UTF8.self)
        #expect(banner.contains("@IBOutlet weak var closeButton: UIButton?") && banner.contains("closeButton?.removeFromSuperview()"))
        // `addArrangedSubview(shareButton)` takes a view, not an optional: the outlet stays, said why.
        #expect(banner.contains("@IBOutlet weak var shareButton: UIButton!"))
        #expect(run.stderr.contains("`BannerView.shareButton`") && run.stderr.contains("its use at line 14 uses it as a value (`shareButton`)"))
        // A class in no storyboard or xib is not judged, and said so.
        #expect(run.stderr.contains("`CodeOnlyView.hintLabel` is not judged"))
        #expect(run.stderr.contains("5 sites, 2 not converted"), "\(run.stderr)")
        // Rewritten code parses, and a second run changes nothing.
        #expect(try CLI.swiftcParseErrors([scratch.path + "/App/ProfileViewController.swift", scratch.path + "/App/BannerView.swift"]).isEmpty)
        let again = try CLI.swiftmod(["run", "iboutlet-optional", "."], in: scratch.path)
        #expect(again.stderr.contains("0 to change"), "\(again.stderr)")
    }

    @Test func aNameOtherCodeReadsKeepsTheOutlet() throws {
        let scratch = try copy()
        try scratch.write("App/ProfilePresenter.swift", "final class ProfilePresenter {\n    func show(_ controller: ProfileViewController) {\n        controller.avatarView.isHidden = true\n    }\n}\n")
        let run = try CLI.swiftmod(["run", "iboutlet-optional", "App"], in: scratch.path)
        #expect(run.stderr.contains("`.avatarView` is read on another value at App/ProfilePresenter.swift:3"), "\(run.stderr)")
        #expect(!run.stdout.contains("avatarView?"))
    }

    @Test func jsonListsEveryMayBeAbsentOutletConvertedOrNot() throws {
        // The may-be-absent outlets are uses (converted or not); a guaranteed one is not.
        let scratch = try copy()
        let run = try CLI.swiftmod(["run", "iboutlet-optional", ".", "--format", "json"], in: scratch.path)
        #expect(run.stdout.contains("avatarView") && run.stdout.contains("closeButton") && run.stdout.contains("shareButton"))
        #expect(!run.stdout.contains("\"nameLabel\""))
    }

    /// A class removing its own outlet is judged from its code alone (no storyboard needed).
    func removing(_ outlet: String, body: String, extra: [String: String] = [:]) throws -> (Scratch, CLI.Result) {
        let scratch = try Scratch()
        try scratch.write("VC.swift", """
            import UIKit

            class VC: UIViewController {
                \(outlet)
                func hide() { label.removeFromSuperview() }
            \(body)
            }

            """)
        for (file, text) in extra { try scratch.write(file, text) }
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        return (scratch, try CLI.swiftmod(["run", "iboutlet-optional", ".", "--write"], in: scratch.path))
    }

    /// From a hostile review: each of these, rewritten, broke the build.
    @Test(arguments: [
        ("    override func becomeFirstResponder() -> Bool { label.becomeFirstResponder() }", [:], "is the value its closure or function returns"),
        ("    func sizes() -> [CGSize] { [1].map { _ in label.sizeThatFits(.zero) } }", [:], "is the value its closure or function returns"),
        ("    func f() { let v: UIView = label; _ = v }", [:], "uses it as a value (`let v: UIView = label`)"),
        ("", ["Other.swift": "extension VC {\n    func g() { label.text = \"x\" }\n}\n"], "`VC` uses it at Other.swift:2"),
        ("", ["Sub.swift": "class SubVC: VC {\n    func g() { label.textColor = .red }\n}\n"], "`SubVC` uses it at Sub.swift:2"),
    ] as [(String, [String: String], String)])
    func aUseTheRewriteCannotReachKeepsTheOutlet(body: String, extra: [String: String], reason: String) throws {
        let (scratch, run) = try removing("@IBOutlet weak var label: UILabel!", body: body, extra: extra)
        #expect(run.stderr.contains(reason), "\(run.stderr)")
        #expect(String(decoding: try scratch.read("VC.swift"), as: UTF8.self).contains("var label: UILabel!"))
    }

    @Test func privateSetIsReadElsewhereAndPrivateIsNot() throws {
        let presenter = ["P.swift": "final class P {\n    func show(_ vc: VC) { vc.label.text = \"x\" }\n}\n"]
        let (_, readable) = try removing("@IBOutlet private(set) weak var label: UILabel!", body: "", extra: presenter)
        #expect(readable.stderr.contains("`.label` is read on another value at P.swift:2"), "\(readable.stderr)")
        let (scratch, hidden) = try removing("@IBOutlet private weak var label: UILabel!", body: "", extra: presenter)
        #expect(hidden.status == 0)
        #expect(String(decoding: try scratch.read("VC.swift"), as: UTF8.self).contains("@IBOutlet private weak var label: UILabel?"))
    }

    @Test func extensionsInTheFileLocalsAndNestedTypesAreToldApart() throws {
        let (scratch, run) = try removing("@IBOutlet weak var label: UILabel!", body: """
                func f(_ flag: Bool) {
                    if flag {
                        let label = UILabel()
                        label.isHidden = false
                    }
                    label.isHidden = true
                }
                final class Inner {
                    var label = UILabel()
                    func g() { label.isHidden = true }
                }
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let text = String(decoding: try scratch.read("VC.swift"), as: UTF8.self)
        #expect(text.contains("func hide() { label?.removeFromSuperview() }"))
        #expect(text.contains("            label.isHidden = false"), "a local keeps its uses")
        #expect(text.contains("        label?.isHidden = true"), "after the block, the outlet again")
        #expect(text.contains("func g() { label.isHidden = true }"), "a nested type's own member")
    }

    /// Backticked names are the names the verdicts give (a hostile review's cases): the rewrite
    /// reaches an outlet of `` class `V` ``, its uses in `` extension `V` `` and a backticked
    /// outlet's uses; `strong-iboutlet` leaves such a may-be-absent outlet alone.
    @Test func backtickedClassesExtensionsAndOutletsAreRewritten() throws {
        let scratch = try Scratch()
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        try scratch.write("App/V.swift", """
            import UIKit

            class `V`: UIView {
                @IBOutlet weak var a: UILabel!
                @IBOutlet weak var b: UILabel!
                @IBOutlet weak var `default`: UILabel!
                func f() { b.text = "x"; `default`.text = "y" }
            }

            extension `V` {
                func g() { b.removeFromSuperview(); b.isHidden = true; self.`default`.removeFromSuperview() }
            }

            """)
        let labels = ["a", "b", "default"].enumerated().map { "<label id=\"l\($0.offset)\"/>" }.joined()
        let outlets = ["a", "b", "default"].enumerated().map { "<outlet property=\"\($0.element)\" destination=\"l\($0.offset)\" id=\"o\($0.offset)\"/>" }.joined()
        try scratch.write("App/V.xib", "<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\" version=\"3.0\"><objects>\n"
            + "<view id=\"r\" customClass=\"V\"><subviews>\(labels)</subviews>\n<connections>\(outlets)</connections></view>\n</objects></document>\n")
        let strong = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: scratch.path)
        #expect(strong.stdout.contains("+    @IBOutlet var a: UILabel!") && !strong.stdout.contains("+    @IBOutlet var b") && !strong.stdout.contains("+    @IBOutlet var `default`"),
                "\(strong.stdout)")
        let run = try CLI.swiftmod(["run", "iboutlet-optional", ".", "--write"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let text = String(decoding: try scratch.read("App/V.swift"), as: UTF8.self)
        #expect(text.contains("@IBOutlet weak var b: UILabel?") && text.contains("@IBOutlet weak var `default`: UILabel?"), "\(text)")
        #expect(text.contains("func f() { b?.text = \"x\"; `default`?.text = \"y\" }"), "\(text)")
        #expect(text.contains("func g() { b?.removeFromSuperview(); b?.isHidden = true; self.`default`?.removeFromSuperview() }"), "\(text)")
        #expect(try CLI.swiftcParseErrors([scratch.path + "/App/V.swift"]).isEmpty)
    }

    /// From a third hostile review: a local of the outlet's name, backticked or bound from the
    /// outlet itself (`guard let label = label`), is the unwrapped view, not the optional outlet;
    /// a nested type of the class's name is another class; an extension that may be either is
    /// refused. Each rewritten, broke the build.
    @Test func localsNestedNamesakesAndUnclearExtensionsAreLeftAlone() throws {
        let (scratch, run) = try removing("@IBOutlet weak var label: UILabel!", body: """
                func f() { let label = UILabel(); `label`.text = "x" }
                func g() { guard let `label` = label else { return }; label.text = "y" }
                func h() { if let label { label.isHidden = true } }
                func k() { label.isHidden = true }
                final class Outer {
                    final class VC { var label = UILabel(); func m() { label.text = "z" } }
                }
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let text = String(decoding: try scratch.read("VC.swift"), as: UTF8.self)
        #expect(text.contains("@IBOutlet weak var label: UILabel?") && text.contains("func hide() { label?.removeFromSuperview() }"), "\(text)")
        #expect(text.contains("let label = UILabel(); `label`.text = \"x\""), "\(text)")
        #expect(text.contains("guard let `label` = label else { return }; label.text = \"y\""), "\(text)")
        #expect(text.contains("if let label { label.isHidden = true }"), "\(text)")
        #expect(text.contains("func k() { label?.isHidden = true }"), "\(text)")
        #expect(text.contains("var label = UILabel(); func m() { label.text = \"z\" }"), "\(text)")
        #expect(try CLI.swiftcParseErrors([scratch.path + "/VC.swift"]).isEmpty)
        // `extension Other.VC` in the file: another type, or this one behind its module's name.
        let unclear = try Scratch()
        try unclear.write("VC.swift", """
            import UIKit

            class VC: UIViewController {
                @IBOutlet weak var label: UILabel!
                func hide() { label.removeFromSuperview() }
            }

            extension Other.VC {
                func n() { label.text = "w" }
            }

            """)
        try CLI.run("git", ["init", "-q"], in: unclear.path)
        let refused = try CLI.swiftmod(["run", "iboutlet-optional", ".", "--write"], in: unclear.path)
        #expect(refused.stderr.contains("`extension Other.VC` at line 8 may extend it or another type of its name"), "\(refused.stderr)")
        #expect(String(decoding: try unclear.read("VC.swift"), as: UTF8.self).contains("@IBOutlet weak var label: UILabel!"))
    }
}
