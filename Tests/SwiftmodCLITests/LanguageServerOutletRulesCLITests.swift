import Foundation
import Testing

/// `swiftmod lsp` and the outlet rules (issue 26): in a Swift file, an outlet that may be absent
/// and the stale connections of storyboards and xibs to its class (shown at the class, naming the
/// storyboard's line), judged on the unsaved text against the storyboards and xibs on disk;
/// baselined ones are hints; an allow comment in the text is followed; a storyboard changed on
/// disk is read again.
@Suite struct LanguageServerOutletRulesCLITests {
    let rules = LanguageServerModuleRulesCLITests()

    /// `Corpus/interface-builder` with the outlet rules, baselined as it is.
    func repository() throws -> Scratch {
        let scratch = try OutletRulesCLITests().repository()
        #expect(try CLI.swiftmod(["baseline"], in: scratch.path).status == 0)
        return scratch
    }

    static let profile = "App/ProfileViewController.swift"

    func text(_ scratch: Scratch) throws -> String {
        try String(contentsOfFile: scratch.path + "/" + Self.profile, encoding: .utf8)
    }

    @Test func bothFindingsShowInTheSwiftFileAndFollowTheUnsavedText() throws {
        let scratch = try repository()
        let client = try LanguageServerClient()
        try rules.start(client)
        let uri = scratch.url(Self.profile).absoluteString
        let original = try text(scratch)
        let all = try rules.open(client, uri, original)
        // `strong-iboutlet` asks for the name label and the card view to be strong, not for the
        // avatar, which the storyboard says may be absent (as `scan` does).
        #expect(all.filter { $0.contains("strong-iboutlet") }.map { String($0.prefix(4)) } == ["4:14", "7:14"], "\(all)")
        let opened = all.filter { !$0.contains("strong-iboutlet") }
        // The class line (line 4) carries the storyboard's two stale connections; the avatar (line 6) may be absent.
        #expect(opened.count == 3, "\(opened.joined(separator: "\n"))")
        #expect(opened.contains { $0.hasPrefix("3:0-") && $0.contains("severity 4") && $0.contains("App/Main.storyboard:21") && $0.contains("no action `share:`") }, "\(opened)")
        #expect(opened.contains { $0.hasPrefix("3:0-") && $0.contains("App/Main.storyboard:30") && $0.contains("subtitleLabel") }, "\(opened)")
        #expect(opened.contains { $0.hasPrefix("5:23-33 severity 4") && $0.contains("outlet-not-guaranteed") && $0.contains("avatarView") }, "\(opened)")

        // Hover at the class shows both of its stale connections.
        let classHover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 20]])
        let classContents = ((classHover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(classContents.contains("share:") && classContents.contains("subtitleLabel"), "\(classContents)")

        // Typed, not saved: the name label is taken out of the hierarchy: a new finding at once.
        let removing = original.replacingOccurrences(of: "        nameLabel.text = \"Ada\"\n",
                                                     with: "        nameLabel.text = \"Ada\"\n        nameLabel.removeFromSuperview()\n")
        #expect(removing != original)
        let typed = try rules.change(client, uri, removing, version: 2).filter { !$0.contains("strong-iboutlet") }
        #expect(typed.contains { $0.hasPrefix("4:23-32 severity 1") && $0.contains("new use of deprecated pattern 'outlet-not-guaranteed'")
                && $0.contains("nameLabel") && $0.contains("removed from its superview") }, "\(typed)")
        #expect(typed.count == 4, "\(typed)")

        // Hover says how to fix it.
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 4, "character": 25]])
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("swiftmod run iboutlet-optional"), "\(contents)")

        // An allow comment with a reason, typed above it, allows it.
        let allowed = removing.replacingOccurrences(of: "    @IBOutlet weak var nameLabel",
                                                    with: "    // swiftmod:allow outlet-not-guaranteed -- removed only after the scene is gone\n    @IBOutlet weak var nameLabel")
        let afterAllow = try rules.change(client, uri, allowed, version: 3).filter { !$0.contains("strong-iboutlet") }
        #expect(!afterAllow.contains { $0.contains("nameLabel") }, "\(afterAllow)")
        #expect(afterAllow.count == 3, "\(afterAllow)")
    }

    @Test func aStoryboardChangedOnDiskIsReadAgain() throws {
        let scratch = try repository()
        let client = try LanguageServerClient()
        try rules.start(client)
        let uri = scratch.url(Self.profile).absoluteString
        let original = try text(scratch)
        #expect(try rules.open(client, uri, original).filter { !$0.contains("strong-iboutlet") }.count == 3)
        // The stale `share:` action is removed from the storyboard on disk; the file is saved.
        let storyboard = scratch.path + "/App/Main.storyboard"
        let xml = try String(contentsOfFile: storyboard, encoding: .utf8)
        let lines = xml.components(separatedBy: "\n")
        #expect(lines[20].contains("share:"), "\(lines[20])")
        try scratch.write("App/Main.storyboard", lines.enumerated().filter { $0.offset != 20 }.map(\.element).joined(separator: "\n"))
        try client.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
        let saved = try client.diagnostics(for: uri).map(rules.summary).filter { !$0.contains("strong-iboutlet") }
        #expect(saved.count == 2, "\(saved)")
        #expect(!saved.contains { $0.contains("share:") }, "\(saved)")
    }
}
