import Foundation
import Testing

/// Refactors are not new uses: a baseline at one commit, then a commit that renames a type with its
/// file, extracts a method, renames a method, moves code between functions or into an extension.
/// The refactor alone reports nothing; the same commit with one genuinely new use (the same text
/// as uses already there, so only counting can tell) reports exactly that one.
@Suite struct RefactorHistoryTests {
    static let config = """
    migrations:
      - codemod: backtick-self
      - codemod: strong-iboutlet

    """

    static let profile = """
    import UIKit

    /// The profile screen.
    final class ProfileViewController: UIViewController {
        @IBOutlet weak var nameLabel: UILabel!
        @IBOutlet weak var avatarView: UIImageView!
        @IBOutlet weak var bioLabel: UILabel!
        @IBOutlet weak var followButton: UIButton!

        override func viewDidLoad() {
            super.viewDidLoad()
            nameLabel.text = "…"
            service.onUpdate = { [weak self] profile in
                guard let `self` = self else { return }
                self.render(profile)
            }
            service.onError = { [weak self] error in
                guard let `self` = self else { return }
                self.show(error)
            }
        }

        func showOnboarding() {
            coordinator.start { [weak self] in
                guard let `self` = self else { return }
                self.dismiss(animated: true)
            }
        }

        func render(_ profile: Profile) {}
        func show(_ error: Error) {}
    }

    """

    static let path = "Sources/Profile/ProfileViewController.swift"
    static let listeners = """
            service.onUpdate = { [weak self] profile in
                guard let `self` = self else { return }
                self.render(profile)
            }
            service.onError = { [weak self] error in
                guard let `self` = self else { return }
                self.show(error)
            }

    """
    static let onError = """
            service.onError = { [weak self] error in
                guard let `self` = self else { return }
                self.show(error)
            }

    """
    static let retry = """
            network.retry { [weak self] in
                guard let `self` = self else { return }
                self.reload()
            }

    """

    /// A repository with the baseline recorded and committed.
    func repository() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.git(["init", "-q"])
        try scratch.write(".swiftmod.yml", Self.config)
        try scratch.write(Self.path, Self.profile)
        let recorded = try CLI.swiftmod(["baseline"], in: scratch.path)
        #expect(recorded.stdout.contains("Recorded 7 uses"), "\(recorded.stdout)\(recorded.stderr)")
        try scratch.git(["add", "-A"])
        try scratch.git(["commit", "-qm", "baseline"])
        return scratch
    }

    /// The uses `check` reports as new, as (file, line, migration).
    func newUses(in repo: Scratch) throws -> [(file: String, line: Int, migration: String)] {
        let check = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        let object = try #require(try JSONSerialization.jsonObject(with: check.stdoutBytes) as? [String: Any], "\(check.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(check.status == (findings.isEmpty ? 0 : 1), "\(check.stderr)")
        return findings.map { ($0["file"] as? String ?? "", $0["line"] as? Int ?? 0, $0["migration"] as? String ?? "") }
    }

    /// The 1-based line of the `occurrence`th line containing `text`.
    func line(of text: String, in source: String, occurrence: Int = 1) -> Int {
        let lines = source.components(separatedBy: "\n")
        return lines.indices.filter { lines[$0].contains(text) }[occurrence - 1] + 1
    }

    /// Applies a refactor uncommitted (must report nothing), then with one new use added,
    /// commits it: exactly that use is reported.
    func expectOnlyTheNewUse(refactor: (Scratch) throws -> Void, addNewUse: (Scratch) throws -> (file: String, line: Int, migration: String)) throws {
        let repo = try repository()
        try refactor(repo)
        let quiet = try newUses(in: repo)
        #expect(quiet.isEmpty, "the refactor alone: \(quiet)")
        let expected = try addNewUse(repo)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "refactor and a new use"])
        let reported = try newUses(in: repo)
        #expect(reported.count == 1, "\(reported)")
        #expect(reported.first?.file == expected.file)
        #expect(reported.first?.line == expected.line)
        #expect(reported.first?.migration == expected.migration)
        // Pruning follows the refactor and still adds nothing: the new use stays new.
        let prune = try CLI.swiftmod(["baseline", "--prune"], in: repo.path)
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(try newUses(in: repo).count == 1)
        #expect(try CLI.swiftmod(["check", "--strict", "--format", "json"], in: repo.path).status == 1)
    }

    @Test func typeRenamedWithItsFile() throws {
        let newPath = "Sources/Account/AccountViewController.swift"
        let renamed = Self.profile.replacingOccurrences(of: "ProfileViewController", with: "AccountViewController")
        try expectOnlyTheNewUse(refactor: { repo in
            try FileManager.default.createDirectory(at: repo.url("Sources/Account"), withIntermediateDirectories: true)
            try repo.git(["mv", Self.path, newPath])
            try repo.write(newPath, renamed)
        }, addNewUse: { repo in
            let more = renamed.replacingOccurrences(of: "    @IBOutlet weak var followButton: UIButton!\n",
                                                    with: "    @IBOutlet weak var followButton: UIButton!\n    @IBOutlet weak var badgeView: UIImageView!\n")
            try repo.write(newPath, more)
            return (newPath, line(of: "badgeView", in: more), "strong-iboutlet")
        })
    }

    /// A refactor that rewrites the file in place; then one more rebinding after `anchor`, the
    /// `occurrence`th rebinding of the file, is the new use.
    func expectOnlyTheNewRebinding(refactored: String, insertedAfter anchor: String, occurrence: Int) throws {
        try expectOnlyTheNewUse(refactor: { repo in
            try repo.write(Self.path, refactored)
        }, addNewUse: { repo in
            let more = refactored.replacingOccurrences(of: anchor, with: anchor + Self.retry)
            try repo.write(Self.path, more)
            return (Self.path, line(of: "guard let `self`", in: more, occurrence: occurrence), "backtick-self")
        })
    }

    @Test func methodExtracted() throws {
        let extracted = Self.profile
            .replacingOccurrences(of: Self.listeners, with: "        addListeners()\n")
            .replacingOccurrences(of: "    func showOnboarding() {", with: "    func addListeners() {\n\(Self.listeners)    }\n\n    func showOnboarding() {")
        // The new rebinding goes into showOnboarding(), after the one it had.
        try expectOnlyTheNewRebinding(refactored: extracted, insertedAfter: "            self.dismiss(animated: true)\n        }\n", occurrence: 4)
    }

    @Test func methodRenamed() throws {
        let renamed = Self.profile.replacingOccurrences(of: "showOnboarding", with: "startOnboarding")
        // The new rebinding goes at the end of viewDidLoad().
        try expectOnlyTheNewRebinding(refactored: renamed, insertedAfter: "            self.show(error)\n        }\n", occurrence: 3)
    }

    @Test func codeMovedBetweenFunctions() throws {
        let moved = Self.profile
            .replacingOccurrences(of: Self.onError, with: "")
            .replacingOccurrences(of: "            self.dismiss(animated: true)\n        }\n", with: "            self.dismiss(animated: true)\n        }\n\(Self.onError)")
        try expectOnlyTheNewRebinding(refactored: moved, insertedAfter: "            self.show(error)\n        }\n", occurrence: 4)
    }

    @Test func methodMovedIntoAnExtension() throws {
        let onboarding = """
            func showOnboarding() {
                coordinator.start { [weak self] in
                    guard let `self` = self else { return }
                    self.dismiss(animated: true)
                }
            }

        """
        let split = Self.profile.replacingOccurrences(of: onboarding, with: "") + "\nextension ProfileViewController {\n\(onboarding)}\n"
        try expectOnlyTheNewUse(refactor: { repo in
            try repo.write(Self.path, split)
        }, addNewUse: { repo in
            var more = split
            let end = try #require(more.range(of: "\n}\n", options: .backwards))
            more.replaceSubrange(end, with: "\n    func retry() {\n\(Self.retry)    }\n}\n")
            try repo.write(Self.path, more)
            return (Self.path, line(of: "guard let `self`", in: more, occurrence: 4), "backtick-self")
        })
    }

    @Test func aDeletedFileDoesNotPayForANewUnrelatedFile() throws {
        let repo = try repository()
        try repo.git(["rm", "-q", Self.path])
        let other = """
        import UIKit

        final class InboxViewController: UIViewController {
            @IBOutlet weak var nameLabel: UILabel!
            private var items: [Item] = []
        }

        """
        try repo.write("Sources/Inbox/InboxViewController.swift", other)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "replace the profile by an inbox"])
        let reported = try newUses(in: repo)
        #expect(reported.map(\.file) == ["Sources/Inbox/InboxViewController.swift"])
    }

    @Test func aShallowCloneJudgesRenamesFromTheUsesAndSaysSo() throws {
        let repo = try repository()
        let newPath = "Sources/Account/AccountViewController.swift"
        try FileManager.default.createDirectory(at: repo.url("Sources/Account"), withIntermediateDirectories: true)
        try repo.git(["mv", Self.path, newPath])
        let renamed = Self.profile.replacingOccurrences(of: "ProfileViewController", with: "AccountViewController")
            .replacingOccurrences(of: "    @IBOutlet weak var followButton: UIButton!\n",
                                  with: "    @IBOutlet weak var followButton: UIButton!\n    @IBOutlet weak var badgeView: UIImageView!\n")
        try repo.write(newPath, renamed)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rename"])
        // CI's default checkout: one commit, so the renamed file's old version is not there.
        let shallow = try Scratch()
        let clone = try CLI.run("git", ["clone", "-q", "--depth", "1", "file://" + repo.path, shallow.path + "/clone"])
        #expect(clone.status == 0, "\(clone.stderr)")
        let check = try CLI.swiftmod(["check"], in: shallow.path + "/clone")
        #expect(check.status == 1)
        let errors = check.stdout.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(check.stdout)")
        #expect(errors.first?.hasPrefix("\(newPath):\(line(of: "badgeView", in: renamed)):") == true)
        #expect(check.stderr.contains("this is a shallow clone"), "\(check.stderr)")
        #expect(check.stderr.contains("fetch-depth: 0"))
        // With the history, no note.
        let full = try CLI.swiftmod(["check"], in: repo.path)
        #expect(!full.stderr.contains("shallow"))
    }

    // What a hostile review found, each kept as a test.

    /// A repository whose baseline is recorded and committed over these files.
    func repository(files: [String: String]) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.git(["init", "-q"])
        try scratch.write(".swiftmod.yml", Self.config + "  - id: webview\n    codemod: swap-type\n    params: { from: UIWebView, to: WKWebView }\n")
        for (path, text) in files { try scratch.write(path, text) }
        #expect(try CLI.swiftmod(["baseline"], in: scratch.path).status == 0)
        try scratch.git(["add", "-A"])
        try scratch.git(["commit", "-qm", "baseline"])
        return scratch
    }

    static let orderCell = """
    import UIKit

    final class OrderCell: UITableViewCell {
        @IBOutlet weak var titleLabel: UILabel!
        @IBOutlet weak var subtitleLabel: UILabel!
        @IBOutlet weak var iconView: UIImageView!

        override func awakeFromNib() {
            super.awakeFromNib()
            selectionStyle = .none
        }

        func configure(with order: Order) {
            titleLabel.text = order.number
            subtitleLabel.text = order.status.localizedDescription
            iconView.image = order.status.icon
        }
    }

    """

    @Test func anUnrelatedFileWithTheSameBoilerplateIsNotARename() throws {
        let repo = try repository(files: ["Sources/Orders/OrderCell.swift": Self.orderCell])
        try repo.git(["rm", "-q", "Sources/Orders/OrderCell.swift"])
        let review = Self.orderCell.replacingOccurrences(of: "OrderCell", with: "ReviewCell")
            .replacingOccurrences(of: "order: Order", with: "review: Review")
            .replacingOccurrences(of: "order.number", with: "review.author")
            .replacingOccurrences(of: "order.status.localizedDescription", with: "review.body")
            .replacingOccurrences(of: "order.status.icon", with: "UIImage(systemName: review.rating > 3 ? \"hand.thumbsup\" : \"hand.thumbsdown\")")
        try repo.write("Sources/Reviews/ReviewCell.swift", review)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "reviews instead of orders"])
        #expect(try newUses(in: repo).count == 3)
    }

    @Test func aPartialCheckCannotGiveARenamedFilesUsesToACopy() throws {
        let repo = try repository(files: [Self.path: Self.profile])
        // On main: a rename, committed without pruning the baseline.
        let renamedPath = "Sources/Profile/AccountViewController.swift"
        let renamed = Self.profile.replacingOccurrences(of: "ProfileViewController", with: "AccountViewController")
        try repo.git(["mv", Self.path, renamedPath])
        try repo.write(renamedPath, renamed)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rename"])
        try repo.git(["tag", "main"])
        // A pull request: a copy-pasted screen elsewhere.
        try repo.write("Sources/Team/TeamViewController.swift", renamed.replacingOccurrences(of: "AccountViewController", with: "TeamViewController"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "team screen"])
        #expect(try newUses(in: repo).count == 7)
        for arguments in [["check", "Sources/Team"], ["check", "--changed-since", "main"]] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 1)
            #expect(check.stdout.components(separatedBy: "\n").filter { $0.contains(": error: ") }.count == 7, "\(arguments): \(check.stdout)")
        }
        // Pruning part of the tree cannot hand them over either.
        _ = try CLI.swiftmod(["baseline", "--prune", "Sources/Team"], in: repo.path)
        let full = try newUses(in: repo)
        #expect(full.count == 7)
        #expect(full.allSatisfy { $0.file == "Sources/Team/TeamViewController.swift" })
    }

    @Test func anExtensionSplitIntoAFileBesideKeepsItsUses() throws {
        let repo = try repository(files: [Self.path: Self.profile])
        let onboarding = Self.profile.range(of: "    func showOnboarding() {")!.lowerBound
        let end = Self.profile.range(of: "    func render(")!.lowerBound
        let method = String(Self.profile[onboarding..<end])
        try repo.write(Self.path, Self.profile.replacingOccurrences(of: method, with: ""))
        try repo.write("Sources/Profile/ProfileViewController+Onboarding.swift",
                       "import UIKit\n\nextension ProfileViewController {\n\(method)}\n")
        #expect(try newUses(in: repo).isEmpty)
        // In another folder, the same declarations are another module's: new.
        try FileManager.default.removeItem(at: repo.url("Sources/Profile/ProfileViewController+Onboarding.swift"))
        try repo.write("Sources/Other/ProfileViewController+Onboarding.swift", "import UIKit\n\nextension ProfileViewController {\n\(method)}\n")
        #expect(try newUses(in: repo).count == 1)
    }

    @Test func aCommittedRenameOfANonASCIIPathIsFollowed() throws {
        let repo = try repository(files: ["Sources/Café/MenüViewController.swift": Self.profile])
        try repo.git(["mv", "Sources/Café/MenüViewController.swift", "Sources/Café/KarteViewController.swift"])
        try repo.write("Sources/Café/KarteViewController.swift", Self.profile.replacingOccurrences(of: "ProfileViewController", with: "KarteViewController"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rename"])
        #expect(try newUses(in: repo).isEmpty)
    }

    @Test func theLineAddedIsTheLineBlamed() throws {
        let repo = try repository(files: [Self.path: Self.profile])
        // A new rebinding above the two viewDidLoad() had.
        let more = Self.profile.replacingOccurrences(of: "        nameLabel.text = \"…\"\n", with: "        nameLabel.text = \"…\"\n\(Self.retry)")
        try repo.write(Self.path, more)
        let reported = try newUses(in: repo)
        #expect(reported.map(\.line) == [line(of: "guard let `self`", in: more, occurrence: 1)])
    }

    @Test func aDeletedFileInAShallowCloneGivesNoNoteWhenNothingCouldBeItsRename() throws {
        let repo = try repository(files: [Self.path: Self.profile, "Sources/Help/Help.swift": "import UIKit\n\nfinal class Help {\n    let web = UIWebView()\n}\n"])
        try repo.git(["rm", "-q", Self.path])
        try repo.write("Sources/Help/Help.swift", "import UIKit\n\nfinal class Help {\n    let web = UIWebView()\n    let faq = UIWebView()\n}\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "drop the profile, add a faq"])
        let shallow = try Scratch()
        #expect(try CLI.run("git", ["clone", "-q", "--depth", "1", "file://" + repo.path, shallow.path + "/clone"]).status == 0)
        let check = try CLI.swiftmod(["check"], in: shallow.path + "/clone")
        #expect(check.status == 1)
        #expect(!check.stderr.contains("shallow"), "\(check.stderr)")
    }

    // A second review.

    /// A small view controller: its name is a large part of it.
    static func small(_ name: String) -> String {
        """
        import UIKit

        final class \(name): UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(forName: .\(name)Changed, object: nil, queue: .main) { [weak self] _ in
                    guard let `self` = self else { return }
                    self.reload()
                }
            }

            private func reload() {
                print("reloading \(name)")
            }
        }

        """
    }

    @Test func aSmallFileRenamedWithItsTypeIsFollowedWhereGitSeesNoRename() throws {
        let repo = try repository(files: ["Sources/Feed/FeedViewController.swift": Self.small("FeedViewController")])
        try repo.git(["mv", "Sources/Feed/FeedViewController.swift", "Sources/Feed/TimelineViewController.swift"])
        try repo.write("Sources/Feed/TimelineViewController.swift", Self.small("TimelineViewController"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rename"])
        #expect(try newUses(in: repo).isEmpty)
    }

    @Test func siblingsRenamedTogetherPairUp() throws {
        var files: [String: String] = [:]
        for index in 1...12 { files["Cells/Item\(index)Cell.swift"] = Self.small("Item\(index)Cell") }
        let repo = try repository(files: files)
        for index in 1...12 {
            try repo.git(["rm", "-q", "Cells/Item\(index)Cell.swift"])
            try repo.write("Cells/Row\(index)Cell.swift", Self.small("Row\(index)Cell"))
        }
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "rows"])
        #expect(try newUses(in: repo).isEmpty)
    }

    @Test func topLevelFunctionsOfOneNameInTwoFilesAreNotOneFunction() throws {
        let faq = "import UIKit\n\nprivate func makeBrowser() -> UIView {\n    let view = UIWebView()\n    return view\n}\n"
        let repo = try repository(files: ["Sources/Help/FAQ.swift": faq,
                                          "Sources/Help/Terms.swift": faq.replacingOccurrences(of: "UIWebView", with: "WKWebView")])
        try repo.write("Sources/Help/FAQ.swift", faq.replacingOccurrences(of: "UIWebView", with: "WKWebView"))
        try repo.write("Sources/Help/Terms.swift", faq)
        #expect(try newUses(in: repo).map(\.file) == ["Sources/Help/Terms.swift"])
    }

    @Test func aRenameMadeInAMergeIsFollowed() throws {
        let repo = try repository(files: [Self.path: Self.profile])
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.write(Self.path, Self.profile.replacingOccurrences(of: "nameLabel.text = \"…\"", with: "nameLabel.text = \"Profile\""))
        try repo.git(["commit", "-qam", "feature"])
        try repo.git(["checkout", "-q", "-"])
        try repo.write(Self.path, Self.profile.replacingOccurrences(of: "func show(", with: "func present("))
        try repo.git(["commit", "-qam", "main"])
        try repo.git(["merge", "-q", "--no-commit", "feature"])
        let merged = try repo.text(Self.path)
        try repo.git(["rm", "-qf", Self.path])
        try repo.write("Sources/Home/HomeViewController.swift", merged.replacingOccurrences(of: "ProfileViewController", with: "HomeViewController"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "merge, moving the screen"])
        #expect(try newUses(in: repo).isEmpty)
    }

    @Test func aCommittedRenameOfAPathWithQuotesIsFollowed() throws {
        let repo = try repository(files: ["Sources/Say \"Hi\"/HiViewController.swift": Self.profile])
        try repo.git(["mv", "Sources/Say \"Hi\"/HiViewController.swift", "Sources/Say \"Hi\"/Hello\tViewController.swift"])
        try repo.git(["commit", "-qm", "rename"])
        #expect(try newUses(in: repo).isEmpty)
    }
}
