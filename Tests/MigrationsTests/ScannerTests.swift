import Testing
@testable import Migrations
import Workspace
import TestSupport

@Suite struct ScannerTests {
    @Test func findsUsesOfEveryMigrationWithScopes() throws {
        let repo = try Repository()
        try repo.write("Sources/Help.swift", """
        import UIKit

        final class HelpViewController: UIViewController {
            @IBOutlet weak var titleLabel: UILabel!
            private let webView = UIWebView()

            func load() {
                fetch { [weak self] in
                    guard let `self` = self else { return }
                    self.webView.reload()
                }
            }
        }

        """)
        try repo.write("Pods/Lib/Web.swift", "let web = UIWebView()\n")
        let result = try repo.scan()
        #expect(result.files == ["Sources/Help.swift"])
        #expect(result.findings.map { "\($0.migration)@\($0.line):\($0.column) \($0.scope) \($0.text)" } == [
            "strong-iboutlet@4:15 HelpViewController.titleLabel weak",
            "webview@5:27 HelpViewController.webView UIWebView",
            "backtick-self@9:23 HelpViewController.load() `self`",
        ])
    }

    @Test func allowCommentsAllowOneUseAndAreCheckedThemselves() throws {
        let repo = try Repository()
        try repo.write("A.swift", """
        // swiftmod:allow webview -- the help screen ships its own HTML renderer until 2027
        let a = UIWebView()
        let b = UIWebView() // swiftmod:allow webview -- legacy SDK needs it
        let c = UIWebView()
        // swiftmod:allow webview
        let d = UIWebView()
        // swiftmod:allow webview -- nothing below uses it

        // swiftmod:allow webvieww -- a typo
        let e = "// swiftmod:allow webview -- in a string, not a comment"

        """)
        let result = try repo.scan()
        #expect(result.allowed == 3)
        #expect(result.findings.map { "\($0.kind.rawValue)@\($0.line)" } == [
            "use@4", "allowWithoutReason@5", "unusedAllow@7", "unusedAllow@9",
        ])
        #expect(result.findings[3].text.contains("not a configured migration"))
    }

    @Test func usesInUnparsableRegionsAreStillCounted() throws {
        let repo = try Repository()
        try repo.write("Broken.swift", """
        let ok = UIWebView()
        func f() {
            let x = [1, 2,
            }}} UIWebView ((( UIWebView
        }

        """)
        let result = try repo.scan()
        let uses = result.uses.filter { $0.migration == "webview" }
        #expect(uses.count == 3)
        #expect(uses.filter(\.inErrorRegion).count >= 1)
        #expect(uses.first?.inErrorRegion == false)
    }

    @Test func unreadableFilesAreReported() throws {
        let repo = try Repository()
        try repo.write("Good.swift", "let a = UIWebView()\n")
        try [UInt8]([0x6C, 0x65, 0x74, 0xFF]).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: repo.root + "/Bad.swift")) }
        let result = try repo.scan()
        #expect(result.uses.count == 1)
        #expect(result.failures.count == 1)
        #expect(result.failures[0].description.hasPrefix("Bad.swift: not valid UTF-8"))
    }

    /// `Café.swift` written NFC and NFD: two files (Linux keeps both), one key of a dictionary of
    /// strings. Neither is cached: each use stays at its own file, cold and warm, even when the
    /// two hold the same text.
    @Test func namesEqualButForNormalisationKeepTheirOwnFindings() throws {
        let repo = try Repository()
        let composed = "Caf\u{E9}.swift", decomposed = "Cafe\u{301}.swift"
        try repo.write(composed, "class NFC { var web: UIWebView? }\n")
        try repo.write(decomposed, "class NFD { var web: UIWebView? }\n")
        try repo.write("Same\u{E9}.swift", "let a = UIWebView()\n")
        try repo.write("Same\u{65}\u{301}.swift", "let a = UIWebView()\n")
        let configuration = try repo.configuration()
        let scanner = Scanner(root: repo.root, migrations: try repo.migrations(), jobs: 2)
        let files = try Scanner.files(of: configuration, under: [])
        #expect(files.count == 4)
        let cachePath = repo.root + "/.swiftmod/cache/scan.cache"
        func uses() -> [String] {
            scanner.scan(files, cachePath: cachePath, version: "test").uses.filter { $0.migration == "webview" }
                .map { "\(Array($0.file.utf8)) \($0.scope)" }.sorted()
        }
        let expected = [
            "\(Array(composed.utf8)) NFC.web", "\(Array(decomposed.utf8)) NFD.web",
            "\(Array("Same\u{E9}.swift".utf8)) a", "\(Array("Same\u{65}\u{301}.swift".utf8)) a",
        ].sorted()
        #expect(uses() == expected)
        #expect(uses() == expected)
        #expect(uses() == expected)
        // One of two of the same text cached alone (by a scan of it only) is not the other's.
        try repo.write(decomposed, "class NFC { var web: UIWebView? }\n")
        try FileManager.default.removeItem(atPath: cachePath)
        _ = scanner.scan([files.first { PathKey.sameBytes($0, repo.root + "/" + composed) }!], cachePath: cachePath, version: "test")
        let same = expected.map { $0.replacingOccurrences(of: "NFD.web", with: "NFC.web") }
        #expect(uses() == same)
        #expect(uses() == same)
    }
}

import Foundation

/// The cache trusts what git trusts (issue 12).
@Suite struct ScanCacheStampTests {
    @Test func entriesOfFilesModifiedAsTheCacheIsWrittenAreRacy() throws {
        var cache = ScanCache(key: "k")
        let now = 1_800_000_000.5
        func entry(_ modified: Double) -> ScanCache.Entry {
            ScanCache.Entry(stamp: FileStamp(size: 1, modified: modified, changed: modified, inode: 1, device: 1), hash: 1, findings: [], allowed: 0)
        }
        cache.entries = ["old.swift": entry(now - 100), "fresh.swift": entry(now - 0.2), "same-second.swift": entry(now.rounded(.down))]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        cache.save(path, now: now)
        let loaded = ScanCache.load(path, key: "k")
        #expect(loaded.entries["old.swift"]?.racy == false)
        #expect(loaded.entries["fresh.swift"]?.racy == true)
        #expect(loaded.entries["same-second.swift"]?.racy == true)
    }

    @Test func eachCacheKeysItsContentHashesItsOwnWay() throws {
        // A pair of files made to share a hash under a key known ahead is no pair under a cache's.
        var cache = ScanCache(key: "k")
        #expect(cache.seed != ScanCache(key: "k").seed)
        cache.entries = ["a.swift": ScanCache.Entry(stamp: FileStamp(size: 1, modified: 1, changed: 1, inode: 1, device: 1), hash: 7, findings: [], allowed: 0)]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        cache.save(path)
        // (Kept with it: its entries' hashes stay comparable.)
        #expect(ScanCache.load(path, key: "k").seed == cache.seed)
        #expect(ScanCache.load(path, key: "k").entries["a.swift"]?.hash == 7)
    }

    @Test func aStampComparesInodeAndStatusChange() throws {
        let base = FileStamp(size: 10, modified: 5, changed: 6, inode: 7, device: 8)
        var other = base
        other.changed = 9
        #expect(base != other)
        other = base
        other.inode = 70
        #expect(base != other)
    }
}
