import Foundation
import Testing

/// `swiftmod lsp` against a hostile client, and the editor agreeing with `check` (issue 23): limits
/// with clear errors, queued edits analysed once, no answers after `shutdown`; renamed files,
/// nested configurations and allow comments as `check` sees them.
@Suite struct LanguageServerHardeningCLITests {
    let base = LanguageServerCLITests()

    func errorCode(_ message: [String: Any]) -> Int? { (message["error"] as? [String: Any])?["code"] as? Int }
    func errorMessage(_ message: [String: Any]) -> String { (message["error"] as? [String: Any])?["message"] as? String ?? "" }

    /// A hover on the baselined use of `LanguageServerCLITests.browser`, answered.
    func expectHoverAnswered(_ client: LanguageServerClient, _ uri: String) throws {
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 20]])
        #expect(hover["result"] is [String: Any], "\(hover)")
    }

    func shutDown(_ client: LanguageServerClient) throws {
        _ = try client.request("shutdown", [:])
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    // MARK: - Limits

    @Test func aMessageOverTheSizeLimitIsRefusedAndTheServerGoesOn() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        // 66 MB, over the 64 MB limit: refused with an error, its bytes skipped as they come.
        let size = 66 << 20
        client.sendRaw(Data("Content-Length: \(size)\r\n\r\n".utf8) + Data(repeating: 0x20, count: size))
        let refused = try client.receive { errorCode($0) != nil }
        #expect(errorCode(refused) == -32600 && refused["id"] is NSNull, "\(refused)")
        #expect(errorMessage(refused).contains("69206016 bytes") && errorMessage(refused).contains("limit"), "\(refused)")
        try expectHoverAnswered(client, uri)
        try shutDown(client)
        let log = client.stderr
        #expect(log.contains("refused a message of 69206016 bytes"), "\(log)")
        #expect(!log.contains("closed the connection"), "\(log)")
    }

    @Test func aContentLengthThatIsNoSizeIsAnErrorAndTheNextMessageIsRead() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        client.sendRaw(Data("Content-Length: 12345678901234567890\r\n\r\n{}".utf8))
        let error = try client.receive { errorCode($0) != nil }
        #expect(errorCode(error) == -32700 && errorMessage(error).contains("12345678901234567890"), "\(error)")
        try expectHoverAnswered(client, uri)
        try shutDown(client)
    }

    /// A size in another notation, or two sizes in one header, is no size: never a guess that
    /// would swallow the next message.
    @Test(arguments: [("Content-Length: 0x10\r\n\r\n{}", "0x10"), ("Content-Length: 1e1\r\n\r\n{}", "1e1"),
                      ("Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}", "two Content-Length headers, 2 and 5")])
    func aSizeThatIsNotOnlyDigitsIsAnError(_ frame: String, _ said: String) throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        client.sendRaw(Data(frame.utf8))
        let error = try client.receive { errorCode($0) != nil }
        #expect(errorCode(error) == -32700 && errorMessage(error).contains(said), "\(error)")
        try expectHoverAnswered(client, uri)
        try shutDown(client)
    }

    @Test func aHeaderLineOverTheLimitIsAProtocolErrorAndSkipped() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        // 4 MB of junk on one line: read once (never again from its start), said once, skipped.
        client.sendRaw(Data(repeating: UInt8(ascii: "x"), count: 4 << 20) + Data("\r\n".utf8))
        let error = try client.receive { errorCode($0) != nil }
        #expect(errorCode(error) == -32700 && errorMessage(error).contains("header line longer than 4096 bytes"), "\(error)")
        try expectHoverAnswered(client, uri)
        // Only one error for the whole line.
        try shutDown(client)
        #expect(client.pending.filter { errorCode($0) != nil }.isEmpty, "\(client.pending)")
    }

    // MARK: - Queued edits

    @Test func queuedEditsAreAnalysedOnceAndAHoverSeesTheLast() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        // 30 edits and a hover, written at once (the editor typing faster than the server checks):
        // every edit is applied, the text is analysed once, for the hover, and its diagnostics
        // published once.
        var frames = Data()
        func frame(_ message: [String: Any]) throws -> Data {
            let body = try JSONSerialization.data(withJSONObject: message.merging(["jsonrpc": "2.0"]) { first, _ in first })
            return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        for edit in 1...30 {
            let text = LanguageServerCLITests.browser + String(repeating: "let more = UIWebView()\n", count: edit)
            frames += try frame(["method": "textDocument/didChange",
                                 "params": ["textDocument": ["uri": uri, "version": edit + 1], "contentChanges": [["text": text]]]])
        }
        frames += try frame(["id": 900, "method": "textDocument/hover",
                             "params": ["textDocument": ["uri": uri], "position": ["line": 34, "character": 14]]])
        client.sendRaw(frames)
        let hover = try client.receive { ($0["id"] as? Int) == 900 }
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("a new use"), "the hover sees the last edit: \(hover)")
        let diagnostics = try client.diagnostics(for: uri)
        #expect(diagnostics.count == 31, "the first diagnostics published are the last text's: \(diagnostics.count)")
        try shutDown(client)
        let published = client.pending.filter { ($0["method"] as? String) == "textDocument/publishDiagnostics" }
        #expect(published.isEmpty, "diagnostics published once for 30 queued edits, not \(published.count + 1) times")
    }

    @Test func afterShutdownRequestsAreRefused() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, LanguageServerCLITests.browser)
        let shutdown = try client.request("shutdown", [:])
        #expect(shutdown["result"] is NSNull)
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 20]])
        #expect(errorCode(hover) == -32600 && hover["result"] == nil, "\(hover)")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    // MARK: - As `check` sees it

    @Test func aRenamedFileKeepsItsBaselinedUsesAsCheckDoes() throws {
        let (repo, uri) = try base.repository()
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "baseline"])
        let client = try LanguageServerClient()
        #expect(try base.open(client, uri, LanguageServerCLITests.browser).map { $0["severity"] as? Int } == [4])
        // Renamed in a terminal while the editor runs: `check` follows the rename, and so does the
        // editor once it hears of the change.
        try repo.git(["mv", "App/Sources/Browser.swift", "App/Sources/WebBrowser.swift"])
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let renamed = repo.url("App/Sources/WebBrowser.swift").absoluteString
        try client.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        try client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": uri, "type": 3], ["uri": renamed, "type": 1]]])
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": renamed, "languageId": "swift", "version": 1,
                                                                    "text": LanguageServerCLITests.browser]])
        #expect(try client.diagnostics(for: renamed).map(base.summary) == [
            "3:17 severity 4 deprecated: webview, P1, due 2027-03-31 — Replace every use of `UIWebView` with `WKWebView` (allowed by the baseline)",
        ])
        // A use added in the editor is still new.
        try client.notify("textDocument/didChange", ["textDocument": ["uri": renamed, "version": 2],
                                                      "contentChanges": [["text": LanguageServerCLITests.browser + "let more = UIWebView()\n"]]])
        #expect(try client.diagnostics(for: renamed).map { $0["severity"] as? Int } == [4, 1])
        try shutDown(client)
    }

    @Test func aNestedConfigurationGivesWayToTheOneARootCheckUses() throws {
        let (repo, _) = try base.repository()
        // A second configuration in a subfolder, without a baseline of its own; the root's
        // baseline records the subfolder's use, and a root `check` passes.
        try repo.write("Sub/.swiftmod.yml", LanguageServerCLITests.config)
        try repo.write("Sub/Preview.swift", "import UIKit\nlet preview = UIWebView()\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let uri = repo.url("Sub/Preview.swift").absoluteString
        let client = try LanguageServerClient()
        let diagnostics = try base.open(client, uri, "import UIKit\nlet preview = UIWebView()\n")
        #expect(diagnostics.map { $0["severity"] as? Int } == [4], "as the root check: baselined. \(diagnostics.map(base.summary))")
        // The root configuration leaves the subfolder out: then its own configuration is the one
        // (`check` there fails: it has no baseline).
        try repo.write(".swiftmod.yml", LanguageServerCLITests.config + "exclude: [\"Sub/**\"]\n")
        #expect(try CLI.swiftmod(["check"], in: repo.path).status == 0)
        #expect(try CLI.swiftmod(["check"], in: repo.url("Sub").path).status != 0)
        try client.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
        let afterwards = try client.diagnostics(for: uri)
        #expect(afterwards.map { $0["severity"] as? Int } == [1], "\(afterwards.map(base.summary))")
        try shutDown(client)
    }

    @Test func applyingToTheFileLeavesAllowedUsesAlone() throws {
        let (repo, uri) = try base.repository()
        defer { _ = repo }
        let text = """
        import UIKit

        final class Browser {
            let legacy = UIWebView()
            // swiftmod:allow webview -- the PDF preview needs it until iOS 17
            let preview = UIWebView()
        }
        let fresh = UIWebView()

        """
        let client = try LanguageServerClient()
        _ = try base.open(client, uri, text)
        let range: [String: Any] = ["start": ["line": 7, "character": 14], "end": ["line": 7, "character": 14]]
        let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
        let actions = response["result"] as? [[String: Any]] ?? []
        #expect(actions.contains { $0["title"] as? String == "Apply webview here" }, "\(actions)")
        let file = try #require(actions.first { ($0["title"] as? String ?? "").hasPrefix("Apply webview to this file") }, "\(actions)")
        #expect(file["title"] as? String == "Apply webview to this file (2 uses)")
        let edits = (((file["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]) ?? []
        #expect(base.apply(edits, to: text) == text
            .replacingOccurrences(of: "import UIKit\n", with: "import UIKit\nimport WebKit\n")
            .replacingOccurrences(of: "legacy = UIWebView()", with: "legacy = WKWebView()")
            .replacingOccurrences(of: "fresh = UIWebView()", with: "fresh = WKWebView()"))
        try shutDown(client)
    }
}
