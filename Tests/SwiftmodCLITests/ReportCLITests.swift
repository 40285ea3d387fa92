import Foundation
import Testing

/// The migration tracker end to end: a repository with several packages, an Xcode app folder,
/// CODEOWNERS and a few commits of history; exact counts per module and owner, the recorded series
/// and its projection, and the HTML report rendered in headless Chromium with the same numbers.
@Suite struct ReportCLITests {
    static let config = """
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView }
        priority: P1
        deadline: 2027-06-30
        contact: "#ios-platform"
      - codemod: strong-iboutlet
        priority: P0
        deadline: 2026-12-31

    """

    /// Writes the repository as of week `week` (0, 1, 2): each week removes some uses.
    func writeWeek(_ week: Int, to repo: Scratch) throws {
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write(".github/CODEOWNERS", """
        *                     @org/platform
        /Packages/Feed/       @org/feed
        /Packages/Profile/    @org/profile @org/design
        /App/                 @org/app

        """)
        try repo.write("Packages/Feed/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Feed", targets: [
            .target(name: "FeedUI", dependencies: ["FeedCore"]),
            .target(name: "FeedCore"),
        ])

        """)
        try repo.write("Packages/Profile/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Profile", targets: [.target(name: "ProfileKit", path: "Sources")])

        """)
        try repo.write("App/App.xcodeproj/project.pbxproj", "// Xcode project\n")
        // Feed: 4 web views (week 0), 2 (week 1), 1 (week 2).
        let feedWebViews = [4, 2, 1][week]
        try repo.write("Packages/Feed/Sources/FeedUI/FeedViewController.swift",
                       "final class FeedViewController {\n" + (0..<feedWebViews).map { "    let web\($0) = UIWebView()\n" }.joined() + "    @IBOutlet weak var title: UILabel!\n}\n")
        try repo.write("Packages/Feed/Sources/FeedCore/Cache.swift", "let cache: UIWebView? = nil\n")
        // Profile: 2 web views, then 0.
        try repo.write("Packages/Profile/Sources/ProfileView.swift",
                       week == 0 ? "let a = UIWebView()\nlet b = UIWebView()\n" : "let a = 1\n")
        // The app: 1 outlet, 1 web view.
        try repo.write("App/Sources/AppDelegate.swift", "final class AppDelegate {\n    @IBOutlet weak var window: UIWindow!\n    let help = UIWebView()\n}\n")
        try repo.write("Scripts/Tool.swift", "let tool = UIWebView()\n")
    }

    func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
    }

    func migration(_ report: [String: Any], _ id: String) throws -> [String: Any] {
        let migrations = try #require(report["migrations"] as? [[String: Any]])
        return try #require(migrations.first { $0["id"] as? String == id })
    }

    func counts(_ migration: [String: Any], _ key: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for entry in migration[key] as? [[String: Any]] ?? [] { result[entry["name"] as! String] = entry["uses"] as? Int }
        return result
    }

    @Test func countsHistoryProjectionAndHTML() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        let dates = ["2026-11-01", "2026-11-08", "2026-11-15"]
        for week in 0..<3 {
            try writeWeek(week, to: repo)
            try repo.commitAndRecord("week \(week)", date: dates[week])
        }
        // Recording the same commit again does not add a point; a malformed day is refused.
        let again = try CLI.swiftmod(["report", "--record", "--date", dates[2]], in: repo.path)
        #expect(again.stderr.contains("replaced the record of"))
        #expect(try CLI.swiftmod(["report", "--date", "2026/11/15"], in: repo.path).status == 2)

        let report = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-15"], in: repo.path))
        let migrations = try #require(report["migrations"] as? [[String: Any]])
        #expect(migrations.map { $0["id"] as? String } == ["strong-iboutlet", "webview"])  // P0 first

        let webview = try migration(report, "webview")
        #expect(webview["total"] as? Int == 4)  // FeedUI 1, FeedCore 1, App 1, Scripts 1
        #expect(counts(webview, "modules") == ["FeedUI": 1, "FeedCore": 1, "App": 1, "(no module)": 1])
        #expect(counts(webview, "owners") == ["@org/feed": 2, "@org/app": 1, "@org/platform": 1])
        let history = try #require(webview["history"] as? [[String: Any]])
        #expect(history.map { $0["date"] as? String } == dates)
        #expect(history.map { $0["uses"] as? Int } == [9, 5, 4])
        #expect(history.allSatisfy { $0["recorded"] as? Bool == true })
        // Least squares over (0, 9), (7, 5), (14, 4): slope -5/14 a day, 2.5 a week; 4 left → 12 days.
        let projection = try #require(webview["projection"] as? [String: Any])
        #expect(projection["burnPerWeek"] as? Double == 2.5)
        #expect(projection["completionDate"] as? String == "2026-11-27")
        #expect(webview["status"] as? String == "on-track")

        let outlets = try migration(report, "strong-iboutlet")
        #expect(outlets["total"] as? Int == 2)
        #expect(counts(outlets, "modules") == ["FeedUI": 1, "App": 1])
        #expect((outlets["history"] as? [[String: Any]])?.map { $0["uses"] as? Int } == [2, 2, 2])
        #expect(outlets["status"] as? String == "behind")
        let behind = (outlets["teamsBehind"] as? [[String: Any]])?.compactMap { $0["owner"] as? String }.sorted()
        #expect(behind == ["@org/app", "@org/feed"])

        // Week 0 had Profile's two uses, owned by two teams each.
        let first = try json(try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-15", "Packages/Profile"], in: repo.path))
        #expect(counts(try migration(first, "webview"), "owners") == [:])

        // CSV has the same numbers.
        let csv = try CLI.swiftmod(["report", "--format", "csv", "--date", "2026-11-15"], in: repo.path).stdout
        #expect(csv.contains("webview,P1,,2027-06-30,total,,4,4,on-track,2.5,2026-11-27,,,,,,,\n"), "\(csv)")
        // With the history, the migration's and each team's (the history columns).
        #expect(csv.contains("webview,P1,,2027-06-30,owner-history,\"'@org/feed\",5,,,,,,2026-11-01,"), "\(csv)")
        // A cell starting with @ (a GitHub team) is kept from being read as a formula (OWASP).
        #expect(csv.contains("webview,P1,,2027-06-30,owner,\"'@org/feed\",2,2,on-track,1.5,2026-11-25,,,,,,,\n"))

        // The HTML page, rendered by a real browser, shows the same numbers.
        let html = try CLI.swiftmod(["report", "--format", "html", "--output", "progress.html", "--date", "2026-11-15"], in: repo.path)
        #expect(html.status == 0, "\(html.stderr)")
        let page = try repo.text("progress.html")
        #expect(!page.contains("http://") && !page.contains("<script src") && !page.contains("<link"), "self-contained")
        #expect(page.contains("<svg class=\"burndown\""))
        let browser = try Browser.require()
        let dom = try browser.dumpDOM(repo.url("progress.html").path)
        #expect(Browser.value(in: dom, section: "webview", attribute: "data-metric=\"total\"") == "4")
        #expect(Browser.value(in: dom, section: "strong-iboutlet", attribute: "data-metric=\"total\"") == "2")
        #expect(Browser.value(in: dom, section: "webview", attribute: "data-name=\"@org/feed\"") == "2")
        #expect(Browser.value(in: dom, section: "webview", attribute: "data-metric=\"completion\"") == "2026-11-27")
        let shot = repo.url("progress.png").path
        try browser.screenshot(repo.url("progress.html").path, to: shot)
        let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        #expect(size > 20_000, "a rendered page, not a blank one (\(size) bytes)")
    }
}

/// Headless Chromium, which CI installs (`.ci/run`). Without it, tests that need it fail in CI and
/// say what to install elsewhere.
struct Browser {
    let path: String

    static func require() throws -> Browser {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let which = try CLI.run("which", [name])
            if which.status == 0 { return Browser(path: which.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        Issue.record("headless Chromium is needed for the HTML report test: apt-get install chromium")
        throw CancellationError()
    }

    func arguments(_ extra: [String]) -> [String] {
        ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars"] + extra
    }

    func dumpDOM(_ file: String) throws -> String {
        let result = try CLI.run(path, arguments(["--dump-dom", "file://\(file)"]))
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(500))")
        return result.stdout
    }

    func screenshot(_ file: String, to output: String) throws {
        let result = try CLI.run(path, arguments(["--window-size=1200,1600", "--screenshot=\(output)", "file://\(file)"]))
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(500))")
    }

    /// The text of the first element with an attribute inside a migration's section of the DOM.
    static func value(in dom: String, section id: String, attribute: String) -> String? {
        // The section, not the overview's cells, which carry data-migration too.
        guard let start = dom.range(of: "id=\"\(id)\" data-migration=\"\(id)\"") else { return nil }
        let rest = dom[start.upperBound...]
        let sectionEnd = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
        let body = rest[..<sectionEnd]
        guard let found = body.range(of: attribute) else { return nil }
        var after = body[found.upperBound...]
        if attribute.hasPrefix("data-name") {
            // A table row: the count is in the cell that carries data-uses.
            guard let cell = after.range(of: "data-uses=\"") else { return nil }
            after = after[cell.upperBound...]
            return String(after.prefix { $0 != "\"" })
        }
        guard let close = after.firstIndex(of: ">") else { return nil }
        let text = after[after.index(after: close)...]
        return String(text.prefix { $0 != "<" })
    }
}
