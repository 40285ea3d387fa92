import Foundation
import Testing

/// The HTML report as teams use it (issue 16): the overview of every team in every migration, the
/// per-team commitments, and the drill-down of the remaining uses, read back from headless Chromium
/// and compared with the JSON report.
@Suite struct ReportOverviewHTMLCLITests {
    static let config = """
    repository-url: https://example.com/{commit}/{path}#L{line}
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView }
        priority: P1
        started: 2026-10-01
        deadline: 2027-06-30
        commitments:
          "@org/feed": 2026-12-15
          "@org/pay": 2026-11-20
      - codemod: strong-iboutlet
        priority: P0
        started: 2026-10-15
        deadline: 2026-12-31

    """

    /// Week 0, 1, 2: @org/feed removes web views (6, 4, 2) and its outlet (1, 1, 0); @org/pay keeps
    /// its 3 web views (behind its commitment); @org/core keeps 2 web views and 1 outlet (behind,
    /// no commitment).
    func writeWeek(_ week: Int, to repo: Scratch) throws {
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write(".github/CODEOWNERS", "*  @org/core\n/Feed/  @org/feed\n/Pay/  @org/pay\n")
        let feed = [6, 4, 2][week]
        try repo.write("Feed/FeedView.swift", "final class FeedView {\n"
            + (0..<feed).map { "    let web\($0) = UIWebView() // <b>&\"\n" }.joined()
            + (week < 2 ? "    @IBOutlet weak var title: UILabel!\n" : "") + "}\n")
        try repo.write("Pay/PayView.swift", "let a = UIWebView()\nlet b = UIWebView()\nlet c = UIWebView()\n")
        try repo.write("Core/Core.swift", "final class Core {\n    @IBOutlet weak var label: UILabel!\n    let x = UIWebView()\n    let y = UIWebView()\n}\n")
    }

    func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
    }

    /// Every match of a pattern's groups.
    func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let regex = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (1..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? "" : ns.substring(with: match.range(at: $0)) }
        }
    }

    func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func overviewCommitmentsAndDrillDownEqualTheJSON() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        let dates = ["2026-11-01", "2026-11-08", "2026-11-15"]
        for week in 0..<3 {
            try writeWeek(week, to: repo)
            try repo.commitAndRecord("week \(week)", date: dates[week])
        }
        let report = try json(try CLI.swiftmod(["report", "--format", "json", "--uses", "--date", "2026-11-15"], in: repo.path))
        let migrations = try #require(report["migrations"] as? [[String: Any]])
        #expect(migrations.map { $0["id"] as? String } == ["strong-iboutlet", "webview"])

        // The scenario, in the JSON: one team on track for its commitment, one behind it, one
        // behind without a commitment.
        let webview = try #require(migrations.first { $0["id"] as? String == "webview" })
        let webTeams = Dictionary(uniqueKeysWithValues: (webview["teams"] as? [[String: Any]] ?? []).map { ($0["owner"] as! String, $0) })
        #expect(webTeams["@org/feed"]?["status"] as? String == "on-track")
        #expect(webTeams["@org/pay"]?["status"] as? String == "behind")
        #expect(webTeams["@org/pay"]?["commitment"] as? String == "2026-11-20")
        #expect(webTeams["@org/core"]?["status"] as? String == "behind")
        #expect(webview["uncommitted"] as? [String] == ["@org/core"])
        let outlets = try #require(migrations.first { $0["id"] as? String == "strong-iboutlet" })
        #expect((outlets["change"] as? [String: Any])?["teamsDone"] as? [String] == ["@org/feed"])

        let html = try CLI.swiftmod(["report", "--format", "html", "--uses", "--output", "progress.html", "--date", "2026-11-15"], in: repo.path)
        #expect(html.status == 0, "\(html.stderr)")
        let page = try repo.text("progress.html")
        #expect(!page.contains("<b>&\""), "code from the repository is escaped")
        #expect(page.contains("started</span>") && page.contains("−2 uses since 2026-11-08"))
        #expect(page.contains("Behind without a commitment: <b>@org/core</b>"))
        let browser = try Browser.require()
        let dom = try browser.dumpDOM(repo.url("progress.html").path)

        // The overview: every team × migration, numbers and statuses those of the JSON.
        let cells = try matches(#"<td class="num cell [^"]*" data-team="([^"]*)" data-migration="([^"]*)" data-uses="(\d+)" data-status="([^"]*)""#, in: dom)
        #expect(cells.count == 3 * 2)
        var expected: [String: (Int, String)] = [:]
        var totals: [String: Int] = [:]
        var series: [String: [String: Int]] = [:]
        for migration in migrations {
            for team in migration["teams"] as? [[String: Any]] ?? [] {
                let owner = team["owner"] as! String
                expected["\(owner) \(migration["id"] as! String)"] = (team["remaining"] as! Int, team["status"] as! String)
                totals[owner, default: 0] += team["remaining"] as! Int
                for point in team["history"] as? [[String: Any]] ?? [] {
                    series[owner, default: [:]][point["date"] as! String, default: 0] += point["uses"] as! Int
                }
            }
        }
        for cell in cells {
            let key = "\(unescape(cell[0])) \(unescape(cell[1]))"
            if cell[3] == "none" {
                #expect(expected[key] == nil && cell[2] == "0", "\(key)")
            } else {
                #expect(expected[key]?.0 == Int(cell[2]) && expected[key]?.1 == cell[3], "\(key): \(cell)")
            }
        }
        #expect(Set(cells.filter { $0[3] != "none" }.map { "\(unescape($0[0])) \(unescape($0[1]))" }) == Set(expected.keys))
        #expect(cells.filter { $0[0] == "@org/pay" && $0[1] == "strong-iboutlet" }.first?[3] == "none", "pay never had outlets")
        // Rows most uses first; each row's sparkline the team's total at each recorded day.
        let rows = try matches(#"<tr data-team="([^"]*)">.*?data-total="(\d+)".*?data-points="([^"]*)""#, in: dom)
        #expect(rows.map { $0[0] } == ["@org/core", "@org/pay", "@org/feed"])
        for row in rows {
            #expect(Int(row[1]) == totals[row[0]])
            #expect(row[2] == (series[row[0]] ?? [:]).sorted { $0.key < $1.key }.map { String($0.value) }.joined(separator: " "), "\(row[0])")
        }
        #expect(rows.first { $0[0] == "@org/feed" }?[2] == "7 5 2")
        // Header cells link to the sections.
        #expect(dom.contains("<a href=\"#webview\"") && dom.contains("id=\"webview\" data-migration=\"webview\""))

        // The team tables: commitment and status per team.
        #expect(Browser.value(in: dom, section: "webview", attribute: "data-name=\"@org/pay\"") == "3")
        #expect(dom.contains("<td data-commitment=\"2026-11-20\">2026-11-20</td><td><span class=\"status behind\""))
        #expect(dom.contains(">behind its commitment</span>"))
        #expect(dom.contains(">on track for its commitment</span>"))

        // The drill-down: per migration and team, the uses and links of the JSON.
        let commit = try CLI.run("git", ["rev-parse", "HEAD"], in: repo.path).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for migration in migrations {
            let id = migration["id"] as! String
            let start = try #require(dom.range(of: "id=\"\(id)\" data-migration=\"\(id)\""))
            let section = String(dom[start.upperBound...]).components(separatedBy: "</section>")[0]
            var listed: Set<String> = []
            let byTeam = String(try #require(section.components(separatedBy: "data-group=\"module\"").first))
            for group in try matches(#"<details data-team="([^"]*)" data-count="(\d+)">(.*?)</details>"#, in: byTeam) {
                let entries = try matches(#"<li class="use" data-file="([^"]*)" data-line="(\d+)"><span class="place"><a href="([^"]*)" rel="noopener">.*?<code>(.*?)</code>"#, in: group[2])
                #expect(entries.count == Int(group[1]))
                for entry in entries { listed.insert("\(unescape(group[0])) \(unescape(entry[0])):\(entry[1]) \(unescape(entry[2])) \(unescape(entry[3]))") }
            }
            var fromJSON: Set<String> = []
            for use in migration["uses"] as? [[String: Any]] ?? [] {
                for owner in use["owners"] as! [String] {
                    fromJSON.insert("\(owner) \(use["file"] as! String):\(use["line"] as! Int) \(use["url"] as! String) \(use["code"] as! String)")
                }
            }
            #expect(!fromJSON.isEmpty)
            #expect(listed == fromJSON, "\(id)")
            // By module too.
            #expect(section.contains("<details data-module="))
        }
        #expect(dom.contains("<a href=\"https://example.com/\(commit)/Feed/FeedView.swift#L2\" rel=\"noopener\">Feed/FeedView.swift:2</a>"))
        #expect(dom.contains("<code>let web0 = UIWebView() // &lt;b&gt;&amp;\"</code>"))

        // A screenshot of the overview (the top of the page).
        let shot = repo.url("overview.png").path
        try browser.screenshot(repo.url("progress.html").path, to: shot)
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        #expect(png.count > 20_000 && png.count < 20_000_000, "a rendered page (\(png.count) bytes)")
    }
}
