import Foundation
import Testing

/// `swiftmod outlets` over `Corpus/interface-builder` (issue 26): each outlet's verdict from the
/// storyboards and xibs, stale connections at their IB line, a damaged xib as a note.
@Suite struct OutletsCLITests {
    static let folder = CLI.packageRoot + "/Corpus/interface-builder"

    struct Output: Decodable {
        struct Row: Decodable { var file: String; var line: Int; var className: String; var outlet: String; var verdict: String; var reason: String }
        struct Stale: Decodable { var file: String; var line: Int; var className: String; var name: String; var kind: String }
        var outlets: [Row]
        var staleConnections: [Stale]
    }

    func output() throws -> (Output, CLI.Result) {
        let result = try CLI.swiftmod(["outlets", "--format", "json"], in: Self.folder)
        #expect(result.status == 0, "\(result.stderr)")
        return (try JSONDecoder().decode(Output.self, from: result.stdoutBytes), result)
    }

    @Test func everyOutletGetsItsVerdict() throws {
        let (output, _) = try output()
        let verdicts = Dictionary(uniqueKeysWithValues: output.outlets.map { ("\($0.className).\($0.outlet)", $0.verdict) })
        #expect(verdicts == [
            // Connected in both scenes that use the class (the iOS one: the Mac app has a class of
            // the same name, told apart by the frameworks their files and documents are of).
            "ProfileViewController (UIKit).nameLabel": "guaranteed",
            "ProfileViewController (UIKit).cardView": "guaranteed",
            // Connected in one scene of two.
            "ProfileViewController (UIKit).avatarView": "not-connected",
            "ProfileViewController (UIKit).stars": "collection",
            // The Mac one's, connected in its xib: not the iOS compact scene's business.
            "ProfileViewController (AppKit).avatarView": "guaranteed",
            "ProfileViewController (AppKit).subtitleLabel": "guaranteed",
            // Its own xib's File's Owner connects it; the storyboard's unconnected CardViews load that xib.
            "CardView.titleLabel": "guaranteed",
            // Declared in a base class, connected on a subclass's cell.
            "BaseCell.iconView": "guaranteed",
            "NewsCell.headlineLabel": "guaranteed",
            "BannerView.closeButton": "removed",
            "BannerView.shareButton": "removed-and-re-added",
            "BannerView.stack": "guaranteed",
            "CodeOnlyView.hintLabel": "unknown",
            // A stack emptied with `arrangedSubviews.forEach { $0.removeFromSuperview() }`: its
            // chips go with it, one comes back in `UIStackView(arrangedSubviews:)`; a local named
            // like an outlet is not it.
            "FilterBarView.chips": "guaranteed",
            "FilterBarView.allChip": "removed-and-re-added",
            "FilterBarView.unreadChip": "removed",
            "FilterBarView.titleLabel": "guaranteed",
            // AppKit.
            "PreferencesWindowController.nameField": "guaranteed",
        ])
        let avatar = try #require(output.outlets.first { $0.outlet == "avatarView" && $0.file.hasPrefix("App/") })
        #expect(avatar.file == "App/ProfileViewController.swift" && avatar.line == 6)
        #expect(avatar.reason.contains("App/Main.storyboard:41"), "the compact scene's line")
    }

    @Test func staleConnectionsAreReportedAtTheirInterfaceBuilderLine() throws {
        let (output, _) = try output()
        // `share:` is no action of the class; `subtitleLabel` no outlet (the Mac class of the
        // same name has one, which is no help to the iOS scene). `save:` and
        // `closeWithSender:forEvent:` (`close(sender:forEvent:)`) are, and so is AppKit's `apply:`.
        #expect(output.staleConnections.map { "\($0.file):\($0.line) \($0.kind) \($0.name)" } == [
            "App/Main.storyboard:21 action share:",
            "App/Main.storyboard:30 outlet subtitleLabel",
        ])
    }

    @Test func aDamagedFileIsANoteAndTheSummaryCounts() throws {
        let result = try CLI.swiftmod(["outlets"], in: Self.folder)
        #expect(result.status == 0)
        #expect(result.stderr.contains("note: App/Damaged.xib:5: not well-formed XML"))
        #expect(result.stderr.contains("18 outlets in 8 Swift files, 7 Interface Builder files: 11 guaranteed, 1 not-connected, 2 removed, 2 removed-and-re-added, 1 unknown, 1 collection; 2 stale connections"))
        #expect(result.stdout.contains("App/ProfileViewController.swift:6: not-connected: `ProfileViewController (UIKit).avatarView`"), "\(result.stdout)")
    }

    @Test func aMissingPathIsAUsageError() throws {
        let result = try CLI.swiftmod(["outlets", "no/such/folder"], in: Self.folder)
        #expect(result.status == 64 || result.status == 2, "\(result.status)")
        #expect(result.stderr.contains("no/such/folder: no such file or directory"))
    }
}
