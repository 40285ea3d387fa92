import Foundation
import Testing
@testable import Lockdown
@testable import Migrations
import Workspace
import TestSupport

@Suite struct BaselineTests {
    func use(_ file: String, _ line: Int, scope: String = "A.f()", text: String = "UIWebView", migration: String = "webview") -> Finding {
        Finding(kind: .use, migration: migration, codemod: "swap-type", file: file, line: line, column: 1,
                endLine: line, endColumn: 10, text: text, scope: scope, inErrorRegion: false)
    }

    @Test func fileIsSortedOneUsePerLineAndRoundTrips() throws {
        let baseline = Baseline(findings: [use("B.swift", 3), use("A.swift", 9, scope: "Z"), use("A.swift", 1, scope: "Y")])
        let lines = baseline.text.components(separatedBy: "\n")
        #expect(lines[0] == #"{"swiftmod-baseline":1}"#)
        #expect(lines[1] == #"{"file":"A.swift","migration":"webview","scope":"Y","text":"UIWebView"}"#)
        #expect(lines[3] == #"{"file":"B.swift","migration":"webview","scope":"A.f()","text":"UIWebView"}"#)
        #expect(lines.count == 5 && lines[4] == "")
        #expect(!baseline.text.contains("\"line\""))
        let folder = try Repository()
        let path = folder.root + "/baseline.json"
        try baseline.write(to: path)
        #expect(try Baseline.load(path) == baseline)
        // Writing the same uses again gives the same bytes.
        try Baseline(findings: [use("A.swift", 1, scope: "Y"), use("B.swift", 40), use("A.swift", 2, scope: "Z")]).write(to: path + "2")
        #expect(try String(contentsOfFile: path + "2", encoding: .utf8) == baseline.text)
    }

    @Test func missingAndCorruptBaselinesAreErrors() throws {
        let folder = try Repository()
        #expect(throws: Baseline.LoadError.self) { try Baseline.load(folder.root + "/none.json") }
        let header = #"{"swiftmod-baseline":1}"#
        for (name, text, line) in [("truncated", header + "\n{\"file\":", 2), ("empty", "", 1),
                                   ("wrong", header + "\n{\"file\": 3}\n", 2), ("future", #"{"swiftmod-baseline":9}"# + "\n", 1),
                                   ("old-json", "{\"version\": 1, \"uses\": []}", 1),
                                   ("conflict", header + "\n<<<<<<< HEAD\n{}\n=======\n>>>>>>> b\n", 2)] {
            try folder.write(name, text)
            do {
                _ = try Baseline.load(folder.root + "/" + name)
                Issue.record("\(name) was read")
            } catch let error as Baseline.LoadError {
                guard case let .corrupt(_, at, _) = error else { Issue.record("\(name): \(error)"); continue }
                #expect(error.description.contains("not a swiftmod baseline"))
                #expect(at == line, "\(name)")
            }
        }
    }

    @Test func linesMovingDoNotMatter() {
        let baseline = Baseline(findings: [use("A.swift", 10), use("A.swift", 20, scope: "A.g()")])
        let comparison = Comparison(uses: [use("A.swift", 110), use("A.swift", 220, scope: "A.g()")], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.fixed.isEmpty)
        #expect(comparison.allowed.count == 2)
    }

    @Test func onlyTheSurplusIsNew() {
        let baseline = Baseline(findings: [use("A.swift", 10), use("A.swift", 11)])
        let comparison = Comparison(uses: [use("A.swift", 10), use("A.swift", 11), use("A.swift", 12)], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.map(\.line) == [12])
    }

    @Test func renamedAndMovedFilesMatchByContent() {
        let baseline = Baseline(findings: [use("Old/A.swift", 1), use("Old/A.swift", 2, scope: "A.g()")])
        let comparison = Comparison(uses: [use("New/Renamed.swift", 5), use("New/Renamed.swift", 9, scope: "A.g()")], baseline: baseline,
                                    fileExists: { $0 != "Old/A.swift" })
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.fixed.isEmpty)
        #expect(comparison.moved.map(\.entry.file) == ["Old/A.swift", "Old/A.swift"])
        // A partial check of the new folder still finds the moved file's entries.
        let partial = Comparison(uses: [use("New/Renamed.swift", 5), use("New/Renamed.swift", 9, scope: "A.g()")], baseline: baseline,
                                 scannedFiles: ["New/Renamed.swift"], fileExists: { $0 != "Old/A.swift" })
        #expect(partial.newUses.isEmpty)
    }

    @Test func aFixInOneFileDoesNotPayForANewUseInAnother() {
        let baseline = Baseline(findings: [use("A/Coordinator.swift", 3, scope: "Coordinator.start()")])
        let comparison = Comparison(uses: [use("B/Coordinator.swift", 3, scope: "Coordinator.start()")], baseline: baseline,
                                    fileExists: { _ in true })
        #expect(comparison.newUses.map(\.file) == ["B/Coordinator.swift"])
        #expect(comparison.fixed.map(\.file) == ["A/Coordinator.swift"])
    }

    @Test func fixedUsesLetTheBaselineShrink() {
        let baseline = Baseline(findings: [use("A.swift", 1), use("A.swift", 2, scope: "A.g()")])
        let comparison = Comparison(uses: [use("A.swift", 1)], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.fixed == [Baseline.Entry(file: "A.swift", migration: "webview", scope: "A.g()", text: "UIWebView")])
    }

    @Test func aUseInAnotherDeclarationIsNew() {
        let baseline = Baseline(findings: [use("A.swift", 1)])
        let comparison = Comparison(uses: [use("A.swift", 1), use("A.swift", 30, scope: "B.h()")], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.map(\.scope) == ["B.h()"])
    }

    @Test func partialChecksIgnoreOtherFiles() {
        let baseline = Baseline(findings: [use("A.swift", 1), use("B.swift", 1)])
        let comparison = Comparison(uses: [use("A.swift", 1)], baseline: baseline, scannedFiles: ["A.swift"], fileExists: { _ in true })
        #expect(comparison.fixed.isEmpty)
        #expect(comparison.newUses.isEmpty)
    }

    // The rule: a file has new uses only when it holds more uses of a migration with a text than
    // its baseline entries (following renames); declarations only decide which uses are blamed.

    /// A history that knows no fates, finds every pair asked about this alike, and knows no new lines.
    struct Alike: FileHistory {
        var value: Double
        func fates(of gone: [String]) -> [String: FileFate] { [:] }
        func similarities(of pairs: [FilePair]) -> [FilePair: Double] { Dictionary(uniqueKeysWithValues: pairs.map { ($0, value) }) }
        func newLines(in files: [String: [String]]) -> [String: Set<Int>] { [:] }
    }

    func alike(_ value: Double) -> Alike { Alike(value: value) }

    /// A history that knows renames.
    struct Renames: FileHistory {
        var renamed: [String: String]
        func fates(of gone: [String]) -> [String: FileFate] { renamed.filter { gone.contains($0.key) }.mapValues { .renamed($0) } }
        func similarities(of pairs: [FilePair]) -> [FilePair: Double] { [:] }
        func newLines(in files: [String: [String]]) -> [String: Set<Int>] { [:] }
    }

    /// A renamed file whose successor holds none of its uses: its entries were once matched
    /// nowhere, neither allowing a repository-wide use that is now in another file nor fixed.
    @Test func theEntriesOfARenamedFileWithoutUsesAreLeftOver() {
        let cycle = use("P/Alpha.swift", 2, scope: "", text: "Payments → Coupons", migration: "no-cycles")
        let baseline = Baseline(findings: [cycle, use("P/Alpha.swift", 9)])
        let exists = { (file: String) in file != "P/Alpha.swift" }
        let history = Renames(renamed: ["P/Alpha.swift": "P/Zeta.swift"])
        // The dependency is now first written in Beta.swift; Zeta.swift's UIWebView is fixed.
        let moved = use("P/Beta.swift", 1, scope: "", text: "Payments → Coupons", migration: "no-cycles")
        let comparison = Comparison(uses: [moved], baseline: baseline, fileExists: exists, history: history, repositoryWide: ["no-cycles"])
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.moved.map(\.use.file) == ["P/Beta.swift"])
        #expect(comparison.fixed == [Baseline.Entry(use("P/Alpha.swift", 9))])
        // Not repository-wide: the use in another file is new.
        let plain = Comparison(uses: [moved], baseline: baseline, fileExists: exists, history: history)
        #expect(plain.newUses.map(\.file) == ["P/Beta.swift"])
        #expect(plain.fixed.count == 2)
        // A partial scan that did not look at the successor knows nothing of its uses: only the
        // repository-wide entry is compared, and nothing is called fixed (its file is gone).
        let partial = Comparison(uses: [moved], baseline: baseline, scannedFiles: ["P/Beta.swift"], fileExists: exists, history: history,
                                 repositoryWide: ["no-cycles"])
        #expect(partial.newUses.isEmpty)
        #expect(partial.fixed.isEmpty)
    }

    @Test func aRenamedMethodIsNotNew() {
        let baseline = Baseline(findings: [use("A.swift", 10, scope: "A.showOnboarding()")])
        let comparison = Comparison(uses: [use("A.swift", 10, scope: "A.startOnboarding()")], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.fixed.isEmpty)
        #expect(comparison.moved.map(\.use.scope) == ["A.startOnboarding()"])
    }

    @Test func aNewIdenticalUseBesideARenamedMethodIsBlamedWhereItWasAdded() {
        let baseline = Baseline(findings: [use("A.swift", 5, scope: "A.viewDidLoad()"), use("A.swift", 20, scope: "A.showOnboarding()")])
        let uses = [use("A.swift", 5, scope: "A.viewDidLoad()"), use("A.swift", 6, scope: "A.viewDidLoad()"),
                    use("A.swift", 20, scope: "A.startOnboarding()")]
        let comparison = Comparison(uses: uses, baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.map(\.line) == [6])
    }

    @Test func extractedCodeIsNotNewAndTheSurplusIsBlamedWhereUsesGrew() {
        // Two uses in viewDidLoad(); one moves into a new addListeners(), and one is added to load().
        let baseline = Baseline(findings: [use("A.swift", 5, scope: "A.viewDidLoad()"), use("A.swift", 6, scope: "A.viewDidLoad()"),
                                           use("A.swift", 30, scope: "A.load()")])
        let uses = [use("A.swift", 5, scope: "A.viewDidLoad()"), use("A.swift", 12, scope: "A.addListeners()"),
                    use("A.swift", 30, scope: "A.load()"), use("A.swift", 31, scope: "A.load()")]
        let comparison = Comparison(uses: uses, baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.map(\.line) == [31])
        // Extraction alone: nothing.
        let alone = Comparison(uses: Array(uses.dropLast()), baseline: baseline, fileExists: { _ in true })
        #expect(alone.newUses.isEmpty)
        #expect(alone.fixed.isEmpty)
    }

    @Test func aTypeRenamedWithItsFileFollowsTheFileByContent() {
        let baseline = Baseline(findings: [use("Old/FooViewController.swift", 4, scope: "FooViewController.titleLabel", text: "weak", migration: "outlets"),
                                           use("Old/FooViewController.swift", 5, scope: "FooViewController.avatar", text: "weak", migration: "outlets")])
        let uses = [use("New/BarViewController.swift", 4, scope: "BarViewController.titleLabel", text: "weak", migration: "outlets"),
                    use("New/BarViewController.swift", 5, scope: "BarViewController.badge", text: "weak", migration: "outlets"),
                    use("New/BarViewController.swift", 6, scope: "BarViewController.avatar", text: "weak", migration: "outlets")]
        let gone = { (file: String) in file != "Old/FooViewController.swift" }
        let similar = Comparison(uses: uses, baseline: baseline, fileExists: gone, history: alike(0.8))
        #expect(similar.newUses.map(\.scope) == ["BarViewController.badge"])
        #expect(similar.fixed.isEmpty)
        #expect(Set(similar.moved.map(\.use.scope)) == ["BarViewController.titleLabel", "BarViewController.avatar"])
        // Content that differs is not a rename: every use there is new, and the old entries are fixed.
        let unlike = Comparison(uses: uses, baseline: baseline, fileExists: gone, history: alike(0.2))
        #expect(unlike.newUses.count == 3)
        #expect(unlike.fixed.count == 2)
        // Without content (no git), most of the gone file's uses and little else also make a rename.
        let unknown = Comparison(uses: uses, baseline: baseline, fileExists: gone)
        #expect(unknown.newUses.count == 1)
    }

    @Test func aGoneFileDoesNotPayForAnUnrelatedNewFile() {
        let baseline = Baseline(findings: [use("Old/Legacy.swift", 4, scope: "Legacy.tableView", text: "weak", migration: "outlets")])
        let uses = [use("New/Inbox.swift", 9, scope: "Inbox.tableView", text: "weak", migration: "outlets")]
        // One use in common is no evidence of a rename.
        let comparison = Comparison(uses: uses, baseline: baseline, fileExists: { $0 != "Old/Legacy.swift" })
        #expect(comparison.newUses.map(\.file) == ["New/Inbox.swift"])
        #expect(comparison.fixed.map(\.file) == ["Old/Legacy.swift"])
        // The same name in another folder is a move.
        let moved = Comparison(uses: [use("New/Legacy.swift", 9, scope: "Legacy.tableView", text: "weak", migration: "outlets")],
                               baseline: baseline, fileExists: { $0 != "Old/Legacy.swift" })
        #expect(moved.newUses.isEmpty)
    }

    @Test func aSplitFileKeepsItsUsesInBothHalves() {
        let baseline = Baseline(findings: [use("Big.swift", 1, scope: "A.f()"), use("Big.swift", 2, scope: "B.g()")])
        let uses = [use("A.swift", 1, scope: "A.f()"), use("B.swift", 1, scope: "B.g()")]
        let comparison = Comparison(uses: uses, baseline: baseline, fileExists: { $0 != "Big.swift" }, history: alike(0.6))
        #expect(comparison.newUses.isEmpty)
        #expect(comparison.fixed.isEmpty)
    }

    @Test func identicalUsesSwappedWithinAFileAreNotNoticed() {
        // The documented limit: one fixed and one added with the same text keep the count.
        let baseline = Baseline(findings: [use("A.swift", 1, scope: "A.f()")])
        let comparison = Comparison(uses: [use("A.swift", 9, scope: "A.g()")], baseline: baseline, fileExists: { _ in true })
        #expect(comparison.newUses.isEmpty)
    }
}

/// The baseline's fast line reader agrees with a JSON decoder on every line swiftmod writes.
@Suite struct EntryLineTests {
    @Test func writtenLinesReadBackAsTheDecoderReadsThem() throws {
        let texts = ["weak", "guard let `self` = self", "quote \" back \\ slash / tab \t nl \n cr \r",
                     "ünïcødé 名前 😀 \u{1} \u{7F} \u{2028}", "", "UIWebView(frame: .zero)"]
        for text in texts {
            let entry = Baseline.Entry(file: "Sources/ä \"q\"/A.swift", migration: "m-1", scope: "A.f(_:)", text: text)
            let line = try JSONText.line(entry)
            #expect(EntryLine.read(line) == entry, "\(line)")
            #expect(try JSONDecoder().decode(Baseline.Entry.self, from: Data(line.utf8)) == entry)
        }
        // Escapes another writer may use: \u sequences, surrogate pairs, \/ and \b \f.
        let escaped = #"{"file":"a\/b.swift","migration":"m","scope":"\u00e9\ud83d\ude00","text":"\b\f\u0041"}"#
        let expected = try JSONDecoder().decode(Baseline.Entry.self, from: Data(escaped.utf8))
        #expect(EntryLine.read(escaped) == expected)
    }

    @Test func otherLinesAreLeftToTheDecoder() {
        for line in [#"{"file":"a","migration":"m","scope":"s"}"#,                      // a key missing
                     #"{"migration":"m","file":"a","scope":"s","text":"t"}"#,           // another order
                     #"{ "file":"a","migration":"m","scope":"s","text":"t"}"#,          // blanks
                     #"{"file":"a","migration":"m","scope":"s","text":"t","x":1}"#,     // an extra key
                     #"{"file":"a","migration":"m","scope":"s","text":"\ud83d"}"#,      // a lone surrogate
                     #"{"file":"a","migration":"m","scope":"s","text":"\q"}"#,          // a bad escape
                     #"{"file":"a","migration":"m","scope":"s","text":"we\u+061k"}"#,   // a sign in \u
                     #"{"file":"a","migration":"m","scope":"s","text":"w\u-000"}"#,
                     #"{"file":"a","migration":"m","scope":"s","text":"w\u 061"}"#,
                     #"{"file":"a","migration":"m","scope":"s","text":"t"} x"#,         // trailing text
                     "<<<<<<< HEAD", ""] {
            #expect(EntryLine.read(line) == nil, "\(line)")
        }
    }
}
