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
}
