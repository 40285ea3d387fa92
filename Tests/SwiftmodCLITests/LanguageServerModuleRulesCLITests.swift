import Foundation
import Testing

/// `swiftmod lsp` and module rules: an import a module's type forbids, or a dependency that closes
/// a cycle, shows in the editor as it is typed, from the unsaved text, against the module graph of
/// the files on disk; baselined violations are hints; an allow comment is offered; a save or a
/// change on disk is followed.
@Suite struct LanguageServerModuleRulesCLITests {
    static let config = """
    migrations: []
    module-types:
      Service: { modules: ["*Service"], may-not-import: [UIKit, SwiftUI], priority: P1, deadline: 2027-01-31 }
      Logic:   { modules: ["*Core"], may-not-depend-on: [UI] }
      UI:      { modules: ["*UI"] }
    rules:
      - id: no-cycles
        kind: cycles
        priority: P1

    """
    static let manifest = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
        name: "Feed",
        targets: [
            .target(name: "FeedCore"),
            .target(name: "FeedService", dependencies: ["FeedCore"]),
            .target(name: "FeedUI", dependencies: ["FeedCore", "FeedService"]),
        ]
    )

    """

    /// A package of three modules; FeedService already imports UIKit (baselined).
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write("Feed/Package.swift", Self.manifest)
        try repo.write("Feed/Sources/FeedCore/Feed.swift", "import Foundation\n\npublic struct Feed {}\n")
        try repo.write("Feed/Sources/FeedService/Loader.swift", "import Foundation\nimport UIKit\n\npublic final class Loader {}\n")
        try repo.write("Feed/Sources/FeedService/Cache.swift", "import Foundation\n\nfinal class Cache {}\n")
        try repo.write("Feed/Sources/FeedUI/FeedView.swift", "import FeedCore\nimport FeedService\n\nstruct FeedView {}\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        return repo
    }

    func start(_ client: LanguageServerClient) throws {
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:]])
        try client.notify("initialized", [:])
    }

    func open(_ client: LanguageServerClient, _ uri: String, _ text: String) throws -> [String] {
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "swift", "version": 1, "text": text]])
        return try client.diagnostics(for: uri).map(summary)
    }

    func change(_ client: LanguageServerClient, _ uri: String, _ text: String, version: Int) throws -> [String] {
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
        return try client.diagnostics(for: uri).map(summary)
    }

    func summary(_ diagnostic: [String: Any]) -> String {
        let range = diagnostic["range"] as? [String: Any] ?? [:]
        let start = range["start"] as? [String: Int] ?? [:], end = range["end"] as? [String: Int] ?? [:]
        return "\(start["line"] ?? -1):\(start["character"] ?? -1)-\(end["character"] ?? -1) severity \(diagnostic["severity"] ?? "?") \(diagnostic["message"] ?? "")"
    }

    @Test func aForbiddenImportShowsAsItIsTypedAndTheBaselinedOneIsAHint() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        try start(client)
        let loader = repo.url("Feed/Sources/FeedService/Loader.swift").absoluteString
        let baselined = "1:7-12 severity 4 deprecated: module-type.Service, P1, due 2027-01-31 — FeedService (Service) may not import UIKit (allowed by the baseline)"
        #expect(try open(client, loader, "import Foundation\nimport UIKit\n\npublic final class Loader {}\n") == [baselined])

        // Typed, not saved: a second forbidden import, after an emoji in a comment.
        let cache = repo.url("Feed/Sources/FeedService/Cache.swift").absoluteString
        #expect(try open(client, cache, "import Foundation\n\nfinal class Cache {}\n") == [])
        let typed = "import Foundation\n/* 🙂 */ import SwiftUI\n\nfinal class Cache {}\n"
        let typedDiagnostics = try change(client, cache, typed, version: 2)
        #expect(typedDiagnostics == [
            "1:16-23 severity 1 new use of deprecated pattern 'module-type.Service' (P1, due 2027-01-31): FeedService (Service) may not import SwiftUI",
        ], "\(typedDiagnostics)")

        // Hover says which module and type, and why.
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": cache], "position": ["line": 1, "character": 19]])
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("**module-type.Service** (P1, due 2027-01-31) — a new use"), "\(contents)")
        #expect(contents.contains("FeedService (Service) may not import SwiftUI"), "\(contents)")

        // The code action allows it with a comment, and the comment does allow it.
        let range: [String: Any] = ["start": ["line": 1, "character": 19], "end": ["line": 1, "character": 19]]
        let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": cache], "range": range, "context": ["diagnostics": []]])
        let actions = response["result"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["title"] as? String ?? "" } == ["Allow this use of module-type.Service (with a reason)"])
        let edits = (((actions.first?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[cache] as? [[String: Any]]) ?? []
        #expect(edits.map { $0["newText"] as? String ?? "" } == ["// swiftmod:allow module-type.Service -- reason\n"])
        let allowed = "import Foundation\n// swiftmod:allow module-type.Service -- images come from UIKit\n/* 🙂 */ import SwiftUI\n\nfinal class Cache {}\n"
        #expect(try change(client, cache, allowed, version: 3) == [])

        // Undone: the import is gone, so is its finding; the comment now allows nothing.
        #expect(try change(client, cache, "import Foundation\n// swiftmod:allow module-type.Service -- images\n\nfinal class Cache {}\n", version: 4) == [
            "1:0-47 severity 2 swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
        ])
        #expect(try CLI.run("git", ["status", "--porcelain"], in: repo.path).stdout.contains("Cache.swift") == false,
                "nothing is written behind the editor's back")
    }

    @Test func aDependencyThatClosesACycleIsCaughtAndASaveIsFollowed() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        try start(client)
        // FeedCore is depended on by both others: importing FeedUI there closes FeedCore → FeedUI
        // → FeedCore, and breaks Logic's rule (may not depend on UI).
        let feed = repo.url("Feed/Sources/FeedCore/Feed.swift").absoluteString
        #expect(try open(client, feed, "import Foundation\n\npublic struct Feed {}\n") == [])
        let typed = "import Foundation\nimport FeedUI\n\npublic struct Feed {}\n"
        let diagnostics = try change(client, feed, typed, version: 2)
        #expect(diagnostics == [
            "1:7-13 severity 1 new use of deprecated pattern 'module-type.Logic' (P2): FeedCore (Logic) may not depend on FeedUI (UI)",
            "1:7-13 severity 1 new use of deprecated pattern 'no-cycles' (P1): FeedCore → FeedUI is on the dependency cycle FeedCore → FeedUI → FeedCore",
        ], "\(diagnostics)")

        // The view's own dependency is on the cycle too, but only once FeedCore's file is saved:
        // other files are checked against the files on disk.
        let view = repo.url("Feed/Sources/FeedUI/FeedView.swift").absoluteString
        let viewText = "import FeedCore\nimport FeedService\n\nstruct FeedView {}\n"
        #expect(try open(client, view, viewText) == [])
        try repo.write("Feed/Sources/FeedCore/Feed.swift", typed)
        try client.notify("textDocument/didSave", ["textDocument": ["uri": feed]])
        var published: [String: [String]] = [:]
        for _ in 0..<2 {
            let message = try client.receive { ($0["method"] as? String) == "textDocument/publishDiagnostics" }
            let params = message["params"] as? [String: Any] ?? [:]
            published[params["uri"] as? String ?? ""] = (params["diagnostics"] as? [[String: Any]] ?? []).map(summary)
        }
        #expect(published[view] == [
            "0:7-15 severity 1 new use of deprecated pattern 'no-cycles' (P1): FeedUI → FeedCore is on the dependency cycle FeedUI → FeedCore → FeedUI",
            "1:7-18 severity 1 new use of deprecated pattern 'no-cycles' (P1): FeedUI → FeedService is on the dependency cycle FeedUI → FeedService → FeedCore → FeedUI",
        ], "\(published)")
        #expect(published[feed] == diagnostics)

        // Recorded in the baseline (as after `swiftmod baseline`): both become hints once the
        // baseline changes, in every open document.
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        let hints = try change(client, feed, typed + "\n", version: 3)
        #expect(hints.count == 2 && hints.allSatisfy { $0.contains("severity 4") }, "\(hints)")
        let other = try client.diagnostics(for: view)
        #expect(other.map(summary).allSatisfy { $0.contains("severity 4") } && other.count == 2, "\(other.map(summary))")
    }

    @Test func anUnsavedManifestIsReadForItsDependencies() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        try start(client)
        let manifest = repo.url("Feed/Package.swift").absoluteString
        #expect(try open(client, manifest, Self.manifest) == [])
        let edited = Self.manifest.replacingOccurrences(of: #".target(name: "FeedCore"),"#, with: #".target(name: "FeedCore", dependencies: ["FeedUI"]),"#)
        let diagnostics = try change(client, manifest, edited, version: 2)
        // FeedService's dependency on FeedCore is now on a cycle too; FeedUI's are written first
        // in its imports (where they are reported).
        #expect(diagnostics == [
            "6:49-57 severity 1 new use of deprecated pattern 'module-type.Logic' (P2): FeedCore (Logic) may not depend on FeedUI (UI)",
            "6:49-57 severity 1 new use of deprecated pattern 'no-cycles' (P1): FeedCore → FeedUI is on the dependency cycle FeedCore → FeedUI → FeedCore",
            "7:52-62 severity 1 new use of deprecated pattern 'no-cycles' (P1): FeedService → FeedCore is on the dependency cycle FeedService → FeedCore → FeedUI → FeedService",
        ], "\(diagnostics)")
    }

    // MARK: - Found by a hostile review

    @Test func aManifestLeftOutByIncludeAndANewUnsavedManifestAreRead() throws {
        let repo = try repository()
        try repo.write(".swiftmod.yml", Self.config + "include: [\"**/Sources/**/*.swift\"]\n")
        let client = try LanguageServerClient()
        try start(client)
        let manifest = repo.url("Feed/Package.swift").absoluteString
        let edited = Self.manifest.replacingOccurrences(of: #".target(name: "FeedCore"),"#, with: #".target(name: "FeedCore", dependencies: ["FeedUI"]),"#)
        let diagnostics = try open(client, manifest, edited)
        #expect(diagnostics.count == 3 && diagnostics[0].contains("FeedCore (Logic) may not depend on FeedUI (UI)"), "\(diagnostics)")

        // A package that exists only in the editor: its targets are modules, its dependencies checked.
        try repo.write("Net/Sources/NetCore/Net.swift", "import Foundation\n")
        let newManifest = repo.url("Net/Package.swift").absoluteString
        let text = "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: \"Net\", targets: [\n    .target(name: \"NetCore\", dependencies: [\"FeedUI\"]),\n])\n"
        let found = try open(client, newManifest, text)
        #expect(found == ["4:44-52 severity 1 new use of deprecated pattern 'module-type.Logic' (P2): NetCore (Logic) may not depend on FeedUI (UI)"], "\(found)")
    }

    @Test func aGraphReadAgainOnOpenChecksTheOtherDocumentsAgain() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        try start(client)
        let feed = repo.url("Feed/Sources/FeedCore/Feed.swift").absoluteString
        #expect(try open(client, feed, "import Foundation\n\npublic struct Feed {}\n") == [])
        // Outside the editor (a checkout): FeedCore now imports FeedUI, and the open document is
        // stale until the graph is read again, which opening another document does.
        sleep(2)
        try repo.write("Feed/Sources/FeedCore/Feed.swift", "import Foundation\nimport FeedUI\n\npublic struct Feed {}\n")
        let loader = repo.url("Feed/Sources/FeedService/Cache.swift").absoluteString
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": loader, "languageId": "swift", "version": 1,
                                                                    "text": "import Foundation\n\nfinal class Cache {}\n"]])
        #expect(try client.diagnostics(for: loader).isEmpty)
        // The editor's text of Feed.swift has no import: it is what counts for that document, but
        // FeedUI's own dependency on FeedCore is checked against the new graph once it is opened.
        let view = repo.url("Feed/Sources/FeedUI/FeedView.swift").absoluteString
        let viewDiagnostics = try open(client, view, "import FeedCore\nimport FeedService\n\nstruct FeedView {}\n")
        #expect(viewDiagnostics.count == 2 && viewDiagnostics.allSatisfy { $0.contains("no-cycles") }, "\(viewDiagnostics)")
        #expect(try client.diagnostics(for: feed).isEmpty, "the open document was checked again (its text has no import)")
    }

    @Test func twoFindingsOnOneImportCanBothBeAllowed() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        try start(client)
        let feed = repo.url("Feed/Sources/FeedCore/Feed.swift").absoluteString
        let text = "import Foundation\n// swiftmod:allow no-cycles -- being split up\nimport FeedUI\n\npublic struct Feed {}\n"
        let diagnostics = try open(client, feed, text)
        #expect(diagnostics.count == 1 && diagnostics[0].contains("module-type.Logic"), "\(diagnostics)")
        let range: [String: Any] = ["start": ["line": 2, "character": 8], "end": ["line": 2, "character": 8]]
        let response = try client.request("textDocument/codeAction", ["textDocument": ["uri": feed], "range": range, "context": ["diagnostics": []]])
        let actions = response["result"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["title"] as? String ?? "" } == ["Allow this use of module-type.Logic (with a reason)"])
        let edits = (((actions.first?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[feed] as? [[String: Any]]) ?? []
        #expect(edits.map { $0["newText"] as? String ?? "" } == [" // swiftmod:allow module-type.Logic -- reason"], "at the end of the import's line")
    }

    @Test func aClientThatWatchesFilesIsAskedToAndItsResponseIsNoRequest() throws {
        let repo = try repository()
        let client = try LanguageServerClient()
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(),
                                              "capabilities": ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]]])
        try client.notify("initialized", [:])
        let registration = try client.receive { ($0["method"] as? String) == "client/registerCapability" }
        try client.send(["id": registration["id"] ?? NSNull(), "result": NSNull()])
        let feed = repo.url("Feed/Sources/FeedCore/Feed.swift").absoluteString
        #expect(try open(client, feed, "import Foundation\n\npublic struct Feed {}\n") == [])
        // A change on disk, told by the client: the graph is read again and the documents checked.
        try repo.write("Feed/Sources/FeedCore/Feed.swift", "import Foundation\nimport FeedUI\n\npublic struct Feed {}\n")
        try client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": feed, "type": 2]]])
        let diagnostics = try client.diagnostics(for: feed).map(summary)
        #expect(diagnostics.isEmpty, "the editor's text still has no import: \(diagnostics)")
        // The response to the registration was taken as one, not answered as an unknown request.
        _ = try client.request("shutdown", [:])
        #expect(!client.pending.contains { $0["error"] != nil }, "\(client.pending)")
    }
}
