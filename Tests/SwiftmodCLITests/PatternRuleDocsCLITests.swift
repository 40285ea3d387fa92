import Foundation
import Testing

/// The pattern-rule documentation and its examples, through the built binary: the eight rules of
/// `Examples/PatternRules` pass `swiftmod test` with the examples each needs, every complete rule
/// of `docs/patterns.md` loads and its examples hold, and the commands the page marks runnable
/// run from the repository root (and print what the page shows after them).
@Suite struct PatternRuleDocsCLITests {
    static let docs = "docs/patterns.md"
    static let rules = "Examples/PatternRules"

    typealias Block = DocsPage.Block

    static func blocks() throws -> [Block] { try DocsPage(docs).blocks }

    /// What each rule file's `examples:` holds: entries under match, no-match and fix, and the
    /// `↓` markers of match examples (the files write one entry per `    - ` line).
    static func exampleCounts(_ text: String) -> (match: Int, noMatch: Int, fix: Int, markers: Int) {
        var section = ""
        var counts = (match: 0, noMatch: 0, fix: 0, markers: 0)
        var inExamples = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("examples:") { inExamples = true; continue }
            guard inExamples else { continue }
            if let key = ["match", "no-match", "fix"].first(where: { line == "  \($0):" }) { section = key; continue }
            if section == "match", line.contains("↓") { counts.markers += line.components(separatedBy: "↓").count - 1 }
            guard line.hasPrefix("    - ") else { continue }
            switch section {
            case "match": counts.match += 1
            case "no-match": counts.noMatch += 1
            case "fix": counts.fix += 1
            default: break
            }
        }
        return counts
    }

    @Test func theEightExampleRulesPassTheirExamples() throws {
        let result = try CLI.swiftmod(["test", Self.rules], in: CLI.packageRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 passed, 0 failed"), "\(result.stdout)")
        // `✓ ID: N examples hold`, one line per rule.
        var counted: [String: Int] = [:]
        for line in result.stdout.components(separatedBy: "\n") where line.hasPrefix("✓ ") {
            let parts = line.dropFirst(2).components(separatedBy: ": ")
            if parts.count == 2, let number = Int(parts[1].components(separatedBy: " ")[0]) { counted[parts[0]] = number }
        }
        let expected: Set = ["xctassert-equal-bool", "no-key-window", "layout-anchors", "main-queue-async-to-task",
                             "no-release-print", "reload-data-keeping-selection", "drop-nil-completion", "xctunwrap-to-require"]
        #expect(Set(counted.keys) == expected, "\(result.stdout)")

        // Which rules rewrite: `swiftmod list` says.
        let list = try CLI.swiftmod(["list", "--codemods", Self.rules], in: CLI.packageRoot)
        #expect(list.status == 0, "\(list.stderr)")
        let rewriting = Set(list.stdout.components(separatedBy: "\n").compactMap { line -> String? in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            return columns.count > 1 && columns[1] == "yes" ? String(columns[0]) : nil
        })
        #expect(rewriting.isSuperset(of: ["xctassert-equal-bool", "layout-anchors", "main-queue-async-to-task",
                                          "reload-data-keeping-selection", "drop-nil-completion", "xctunwrap-to-require"]))

        for id in expected {
            let text = try String(contentsOfFile: "\(CLI.packageRoot)/\(Self.rules)/\(id).yml", encoding: .utf8)
            #expect(text.contains("\nmessage: ") && text.contains("\nnote: "), "\(id): a message and a note (why)")
            let counts = Self.exampleCounts(text)
            #expect(counts.match >= 2 && counts.markers >= 2, "\(id): at least two match examples, with ↓ markers: \(counts)")
            #expect(counts.noMatch >= 2, "\(id): at least two no-match look-alikes: \(counts)")
            if rewriting.contains(id) { #expect(counts.fix >= 2, "\(id): at least two fix examples: \(counts)") }
            #expect(counted[id] == counts.match + counts.noMatch + counts.fix, "\(id): swiftmod test ran every example: \(counts)")
        }
    }

    @Test func theDocsLinkEveryExampleRule() throws {
        let page = try String(contentsOfFile: CLI.packageRoot + "/" + Self.docs, encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot + "/" + Self.rules).filter { $0.hasSuffix(".yml") }
        #expect(files.count == 8)
        for file in files { #expect(page.contains("(../\(Self.rules)/\(file))"), "docs/patterns.md links \(file)") }
    }

    @Test func everyRuleOfTheDocsLoadsAndItsExamplesHold() throws {
        let rules = try Self.blocks().filter { $0.language == "yaml" && $0.text.hasPrefix("id:") }
        #expect(rules.count >= 20, "the page's rules: \(rules.count)")
        let folder = try Scratch()
        var ids: [String] = []
        for rule in rules {
            try folder.write(String(format: "rules/line-%04d.yml", rule.line), rule.text)
            ids.append(String(rule.text.components(separatedBy: "\n")[0].dropFirst(3)).trimmingCharacters(in: .whitespaces))
        }
        #expect(Set(ids).count == ids.count, "each rule of the page has its own id: \(ids)")
        // Each loads (a broken one is named with its file, that is its line in the page)...
        let list = try CLI.swiftmod(["list", "--codemods", folder.url("rules").path])
        #expect(list.status == 0, "\(list.stderr)")
        for id in ids { #expect(list.stdout.contains(id), "\(id) is listed") }
        // ...and its examples hold.
        let tested = try CLI.swiftmod(["test", folder.url("rules").path])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.contains("\(rules.count) passed, 0 failed"), "\(tested.stdout)")
        #expect(!tested.stdout.contains("no examples"), "every rule of the page shows what it does: \(tested.stdout)")
    }

    @Test func theRunnableCommandsOfTheDocsRunAndPrintWhatThePageShows() throws {
        let blocks = try Self.blocks()
        let bin = try Scratch()
        let path = try bin.folderWithSwiftmod() + ":/usr/bin:/bin"
        var ran = 0
        for (index, block) in blocks.enumerated() where block.language == "sh" && block.marker == "<!-- runnable -->" {
            var output = ""
            for command in block.text.components(separatedBy: "\n") where !command.trimmingCharacters(in: .whitespaces).isEmpty {
                #expect(command.hasPrefix("swiftmod "), "line \(block.line): a runnable block holds swiftmod commands: \(command)")
                let result = try CLI.run("/bin/sh", ["-c", command], in: CLI.packageRoot, environment: ["PATH": path])
                #expect(result.status == 0, "docs line \(block.line): `\(command)` exited \(result.status)\n\(result.stdout)\(result.stderr)")
                output += result.stdout + result.stderr
                ran += 1
            }
            // A ```text block right after shows (part of) what the commands print.
            if index + 1 < blocks.count, blocks[index + 1].language == "text", blocks[index + 1].line <= block.line + block.text.components(separatedBy: "\n").count + 3 {
                for line in blocks[index + 1].text.components(separatedBy: "\n") where !line.isEmpty {
                    #expect(output.contains(line), "docs line \(blocks[index + 1].line): the output holds `\(line)`\n\(output)")
                }
            }
        }
        #expect(ran >= 10, "runnable commands: \(ran)")
    }
}
