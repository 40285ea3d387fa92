import Foundation
import Testing
@testable import Lockdown

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
}
