import Foundation
import Testing

/// A `swiftmod lsp` process spoken to over pipes, as an editor does.
final class LanguageServerClient {
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private var buffer = Data()
    private var nextID = 1

    init(in directory: String = "/") throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["lsp"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Writes bytes to the server. When it is gone, a test fails on what it reads, never the test
    /// process on SIGPIPE: the signal is blocked on this thread for the write, and taken back if
    /// the write raised it (not ignored: programs the tests start would inherit that).
    func sendRaw(_ bytes: Data) {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        if (try? input.fileHandleForWriting.write(contentsOf: bytes)) == nil {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    func send(_ message: [String: Any]) throws {
        var message = message
        message["jsonrpc"] = "2.0"
        let body = try JSONSerialization.data(withJSONObject: message)
        sendRaw(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func notify(_ method: String, _ params: [String: Any]) throws { try send(["method": method, "params": params]) }

    /// Sends a request and waits for its response (other messages on the way are kept).
    func request(_ method: String, _ params: [String: Any]) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        try send(["id": id, "method": method, "params": params])
        return try receive { ($0["id"] as? Int) == id }
    }

    /// Messages read while waiting for others, not yet taken.
    private(set) var pending: [[String: Any]] = []

    /// The next message that passes a test (waiting for it), others kept for later.
    func receive(where accept: ([String: Any]) -> Bool) throws -> [String: Any] {
        if let index = pending.firstIndex(where: accept) { return pending.remove(at: index) }
        while true {
            let message = try readMessage()
            if accept(message) { return message }
            pending.append(message)
        }
    }

    /// The next diagnostics published for a document.
    func diagnostics(for uri: String) throws -> [[String: Any]] {
        let message = try receive { ($0["method"] as? String) == "textDocument/publishDiagnostics" && (($0["params"] as? [String: Any])?["uri"] as? String) == uri }
        return ((message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
    }

    private func readMessage() throws -> [String: Any] {
        while true {
            if let separator = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let header = String(decoding: buffer[..<separator.lowerBound], as: UTF8.self)
                let length = Int(header.components(separatedBy: ":").last!.trimmingCharacters(in: .whitespaces))!
                if buffer.count >= separator.upperBound + length {
                    let body = buffer[separator.upperBound..<(separator.upperBound + length)]
                    buffer = Data(buffer[(separator.upperBound + length)...])
                    return try JSONSerialization.jsonObject(with: body) as! [String: Any]
                }
            }
            // A server that says nothing for 20 s fails the test instead of hanging it.
            var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20_000) > 0 else {
                Issue.record("the language server said nothing for 20 s")
                throw CancellationError()
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { throw CancellationError() }
            buffer += data
        }
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Stops reading what the server says (its stdout pipe has no reader any more).
    func closeOutput() { try? output.fileHandleForReading.close() }

    /// Waits for the process to end (at most `seconds`); its status, nil if it did not end.
    func waitForExit(seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    var stderr: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    /// What the server logged so far (without waiting for it to end).
    var stderrSoFar: String { String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self) }
}

/// `swiftmod lsp` at the protocol level: diagnostics from the editor's text against the baseline,
/// hover, code actions as workspace edits, and a server that survives bad input and exits cleanly
/// (issue 15, part 1).
@Suite struct LanguageServerCLITests {
    static let config = """
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView, import: WebKit }
        priority: P1
        deadline: 2027-03-31
        docs: https://example.com/webview
        contact: "#ios-platform"

    """
    static let browser = "import UIKit\n\nfinal class Browser {\n    let legacy = UIWebView()\n}\n"

    /// A repository with a baselined use, and its file's URI.
    func repository() throws -> (Scratch, String) {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write("App/Sources/Browser.swift", Self.browser)
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        return (repo, repo.url("App/Sources/Browser.swift").absoluteString)
    }

    func open(_ client: LanguageServerClient, _ uri: String, _ text: String) throws -> [[String: Any]] {
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:]])
        try client.notify("initialized", [:])
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "swift", "version": 1, "text": text]])
        return try client.diagnostics(for: uri)
    }

    func summary(_ diagnostic: [String: Any]) -> String {
        let start = (diagnostic["range"] as? [String: Any])?["start"] as? [String: Int] ?? [:]
        return "\(start["line"] ?? -1):\(start["character"] ?? -1) severity \(diagnostic["severity"] ?? "?") \(diagnostic["message"] ?? "")"
    }

    /// Applies LSP text edits to a text (lines and UTF-16 columns).
    func apply(_ edits: [[String: Any]], to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        func offset(_ position: [String: Int]) -> Int {
            let before = lines[..<position["line"]!].reduce(0) { $0 + $1.utf16.count + 1 }
            return before + position["character"]!
        }
        var units = Array(text.utf16)
        let sorted = edits.sorted {
            offset(($0["range"] as! [String: Any])["start"] as! [String: Int]) > offset(($1["range"] as! [String: Any])["start"] as! [String: Int])
        }
        for edit in sorted {
            let range = edit["range"] as! [String: Any]
            let start = offset(range["start"] as! [String: Int]), end = offset(range["end"] as! [String: Int])
            units.replaceSubrange(start..<end, with: Array((edit["newText"] as! String).utf16))
        }
        lines = []
        return String(decoding: units, as: UTF16.self)
    }

    @Test func diagnosticsHoverAndCodeActionsFromTheEditorsText() throws {
        let (repo, uri) = try repository()
        let client = try LanguageServerClient()
        // The editor's buffer, unsaved: a new use beside the baselined one, after an emoji.
        let text = Self.browser + "\nlet 🙂 = 1; let fresh = UIWebView()\n"
        let diagnostics = try open(client, uri, text)
        #expect(diagnostics.map(summary) == [
            "3:17 severity 4 deprecated: webview, P1, due 2027-03-31 — Replace every use of `UIWebView` with `WKWebView` (allowed by the baseline)",
            "6:24 severity 1 new use of deprecated pattern 'webview' (P1, due 2027-03-31): Replace every use of `UIWebView` with `WKWebView`",
        ])
        #expect(diagnostics[0]["tags"] as? [Int] == [2], "a baselined use is tagged deprecated")
        #expect(diagnostics.allSatisfy { ($0["source"] as? String) == "swiftmod" && ($0["code"] as? String) == "webview" })

        // Hover on the new use (it starts at UTF-16 column 24: the emoji counts two code units).
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 6, "character": 28]])
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("**webview** (P1, due 2027-03-31) — a new use"), "\(contents)")
        #expect(contents.contains("**Why:**") && contents.contains("**Instead:** `WKWebView`"), "\(contents)")
        #expect(contents.contains("**Docs:** https://example.com/webview") && contents.contains("**Contact:** #ios-platform"), "\(contents)")
        let nothing = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 1]])
        #expect(nothing["result"] is NSNull)

        // Code actions on the new use: here, the whole file, allow.
        let range: [String: Any] = ["start": ["line": 6, "character": 26], "end": ["line": 6, "character": 26]]
        let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
        let actions = response["result"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["title"] as? String ?? "" } == [
            "Apply webview here", "Apply webview to this file (2 uses)", "Allow this use of webview (with a reason)",
        ])
        func edits(_ action: [String: Any]) -> [[String: Any]] {
            (((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]) ?? []
        }
        #expect(apply(edits(actions[0]), to: text) == text
            .replacingOccurrences(of: "import UIKit\n", with: "import UIKit\nimport WebKit\n")
            .replacingOccurrences(of: "let fresh = UIWebView()", with: "let fresh = WKWebView()"))
        #expect(apply(edits(actions[1]), to: text) == text
            .replacingOccurrences(of: "import UIKit\n", with: "import UIKit\nimport WebKit\n")
            .replacingOccurrences(of: "UIWebView", with: "WKWebView"))
        let allowed = apply(edits(actions[2]), to: text)
        #expect(allowed.hasSuffix("\n// swiftmod:allow webview -- reason\nlet 🙂 = 1; let fresh = UIWebView()\n"), "\(allowed)")
        // Nothing is written behind the editor's back.
        #expect(try repo.text("App/Sources/Browser.swift") == Self.browser)

        // The editor applies the allow: the new use is allowed, the baselined one stays a hint.
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": allowed]]])
        #expect(try client.diagnostics(for: uri).map(summary) == [
            "3:17 severity 4 deprecated: webview, P1, due 2027-03-31 — Replace every use of `UIWebView` with `WKWebView` (allowed by the baseline)",
        ])
        // An allow comment that allows nothing is a warning.
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3],
                                                      "contentChanges": [["text": Self.browser + "// swiftmod:allow webview -- stale\n"]]])
        let stale = try client.diagnostics(for: uri)
        #expect(stale.map { $0["severity"] as? Int } == [4, 2], "\(stale)")

        _ = try client.request("shutdown", [:])
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func survivesBadInputAndExitsWhenTheClientGoes() throws {
        let (repo, uri) = try repository()
        // Started from another folder: the configuration is found from the document's folder.
        let client = try LanguageServerClient(in: FileManager.default.temporaryDirectory.path)
        _ = try open(client, uri, Self.browser)
        // A header without a length, a body that is not JSON, a request the server does not know.
        client.sendRaw(Data("Nonsense: 1\r\n\r\n".utf8))
        let parse = try client.receive { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        #expect(parse["id"] is NSNull)
        client.sendRaw(Data("Content-Length: 5\r\n\r\n{oops".utf8))
        _ = try client.receive { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        let unknown = try client.request("workspace/symbol", ["query": "x"])
        #expect((unknown["error"] as? [String: Any])?["code"] as? Int == -32601)
        // Still serving; a document outside any configuration gets no diagnostics.
        let outside = "file:///tmp/swiftmod-nowhere-\(UUID().uuidString)/A.swift"
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": outside, "languageId": "swift", "version": 1, "text": "let x = UIWebView()\n"]])
        #expect(try client.diagnostics(for: outside).isEmpty)
        // A broken configuration is said once, in a message and on stderr, never a crash.
        try repo.write(".swiftmod.yml", "migrations: [oops\n")
        try client.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
        #expect(try client.diagnostics(for: uri).isEmpty)
        let shown = try client.receive { ($0["method"] as? String) == "window/showMessage" }
        #expect(((shown["params"] as? [String: Any])?["message"] as? String ?? "").contains(".swiftmod.yml"))
        // The client dies: the server exits (1: no shutdown was asked), having logged to stderr only.
        client.closeInput()
        #expect(client.waitForExit() == 1)
        #expect(client.stderr.contains("swiftmod lsp: skipped a malformed message"))
    }

    /// End to end with a real editor: Neovim's built-in LSP client, headless, opens a file of
    /// `Examples/SampleApp` with a new use added, and reads back the diagnostics.
    @Test func neovimShowsTheDiagnostics() throws {
        let which = try CLI.run("which", ["nvim"])
        guard which.status == 0 else {
            Issue.record("Neovim is needed for the editor test: apt-get install neovim (scripts/test-tools installs it)")
            return
        }
        let repo = try Scratch()
        try repo.copy("Examples/SampleApp")
        try repo.git(["init", "-q"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let file = "App/Sources/AppDelegate.swift"
        try repo.write(file, try repo.text(file) + "let more = UIWebView()\n")
        let lines = try repo.text(file).components(separatedBy: "\n")
        let baselined = lines.firstIndex { $0.contains("UIWebView") }!, added = lines.count - 2
        let output = repo.url("diagnostics.txt").path
        let run = try CLI.run("nvim", ["--headless", "--clean", "-c", "luafile \(CLI.packageRoot)/Tests/SwiftmodCLITests/Editors/neovim-diagnostics.lua"],
                              in: repo.path, environment: ["SWIFTMOD": CLI.binary, "FILE": repo.url(file).path, "OUT": output])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try String(contentsOfFile: output, encoding: .utf8).components(separatedBy: "\n").filter { !$0.isEmpty }
        let column = lines[baselined].utf16.distance(from: lines[baselined].utf16.startIndex,
                                                     to: lines[baselined].range(of: "UIWebView")!.lowerBound.samePosition(in: lines[baselined].utf16)!)
        #expect(shown == [
            "\(baselined):\(column) 4 deprecated: webview, P1, due 2027-03-31 — Replace every use of `UIWebView` with `WKWebView` (allowed by the baseline)",
            "\(added):11 1 new use of deprecated pattern 'webview' (P1, due 2027-03-31): Replace every use of `UIWebView` with `WKWebView`",
        ])
    }

    // MARK: - Found by a hostile review

    @Test func aFrameWithoutALengthIsSkippedAndTheNextAreRead() throws {
        let (repo, uri) = try repository()
        defer { _ = repo }  // the folder lives as long as the repository
        let client = try LanguageServerClient()
        let opened = try open(client, uri, Self.browser)
        #expect(opened.map(summary) == ["3:17 severity 4 deprecated: webview, P1, due 2027-03-31 — Replace every use of `UIWebView` with `WKWebView` (allowed by the baseline)"])
        client.sendRaw(Data("Content-Type: x\r\n\r\n{}".utf8))
        _ = try client.receive { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 20]])
        #expect(hover["result"] is [String: Any], "\(hover) \(client.stderrSoFar)")
        // Bad parameters are an error of their own, not a null result.
        let bad = try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": "3:20"])
        #expect((bad["error"] as? [String: Any])?["code"] as? Int == -32602, "\(bad)")
    }

    @Test func aHeaderWhoseTextChangesLengthWhenLowercasedIsRead() throws {
        let (repo, uri) = try repository()
        defer { _ = repo }
        let client = try LanguageServerClient()
        _ = try open(client, uri, Self.browser)
        // `İ` lowercases to two characters: positions found in lowercased text are wrong here.
        let body = Data(#"{"jsonrpc":"2.0","id":77,"method":"shutdown","params":null}"#.utf8)
        client.sendRaw(Data("X-Note: \(String(repeating: "İ", count: 40))\r\nCONTENT-length: \(body.count)\r\n\r\n".utf8) + body)
        let response = try client.receive { ($0["id"] as? Int) == 77 }
        #expect(response["result"] is NSNull, "\(response)")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func aClientThatStopsReadingEndsTheServerCleanly() throws {
        let (repo, uri) = try repository()
        defer { _ = repo }  // the folder lives as long as the repository
        let client = try LanguageServerClient()
        _ = try open(client, uri, Self.browser)
        client.closeOutput()
        for _ in 0..<3 { try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": Self.browser]]]) }
        #expect(client.waitForExit() == 1)
        #expect(client.process.terminationReason == .exit, "no crash on a broken pipe")
    }

    @Test func codeActionsThatWouldBeWrongAreNotOffered() throws {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", Self.config + "  - codemod: backtick-self\n    params: { binding: this }\n")
        let closures = #"""
        final class Loader {
            var x = 0
            func load(_ done: @escaping () -> Void) {}
            func start() {
                load { [weak self] in
                    guard let `self` = self else { return }
                    self.x += 1
                }
                load { [weak self] in
                    guard let `self` = self else { return }
                    self.x += 2
                }
            }
        }
        let s = """
          a \(UIWebView())
          """

        """#
        try repo.write("Loader.swift", closures)
        let uri = repo.url("Loader.swift").absoluteString
        let client = try LanguageServerClient()
        let diagnostics = try open(client, uri, closures)
        #expect(diagnostics.count == 3, "\(diagnostics.map(summary))")
        func titles(line: Int, character: Int) throws -> [String] {
            let range: [String: Any] = ["start": ["line": line, "character": character], "end": ["line": line, "character": character]]
            let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
            return (response["result"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "" }
        }
        // Renaming what the binding rebinds reaches beyond the use's lines: the whole file or nothing.
        let found = try titles(line: 5, character: 24)
        #expect(found == ["Apply backtick-self to this file (2 uses)", "Allow this use of backtick-self (with a reason)"], "\(found) \(diagnostics.map(summary))")
        // A use inside a multi-line string: a comment line there would be text, allowing nothing.
        #expect(try titles(line: 15, character: 10).allSatisfy { !$0.hasPrefix("Allow") })
    }

    @Test func theEditorsChangesAndTheBaselinesStateAreFollowed() throws {
        let (repo, uri) = try repository()
        let client = try LanguageServerClient()
        let crlf = Self.browser.replacingOccurrences(of: "\n", with: "\r\n")
        _ = try open(client, uri, crlf)
        // An incremental change (a range) is applied to the text: a new use on the last line.
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [
            ["range": ["start": ["line": 5, "character": 0], "end": ["line": 5, "character": 0]], "text": "let more = UIWebView()\r\n"],
        ]])
        let changed = try client.diagnostics(for: uri)
        #expect(changed.map { $0["severity"] as? Int } == [4, 1], "\(changed.map(summary))")
        // Lines added to a CRLF document end in CRLF.
        let range: [String: Any] = ["start": ["line": 5, "character": 12], "end": ["line": 5, "character": 12]]
        let actions = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
        let texts = (actions["result"] as? [[String: Any]] ?? []).flatMap { action in
            ((((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]) ?? []).compactMap { $0["newText"] as? String }
        }
        #expect(texts.contains("import WebKit\r\n") && texts.contains("// swiftmod:allow webview -- reason\r\n"), "\(texts)")
        // A corrupt baseline is said, once.
        try repo.write(".swiftmod-baseline.jsonl", "{\"swiftmod-baseline\":1}\n{\"file\": garbage\n")
        try client.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
        let shown = try client.receive { ($0["method"] as? String) == "window/showMessage" }
        #expect(((shown["params"] as? [String: Any])?["message"] as? String ?? "").contains("the baseline cannot be read"), "\(shown)")
    }
}
