import Foundation
import Testing

/// A page of the documentation (the README, `docs/*.md`, `docs/design/*.md`) as the tests read
/// it: its fenced blocks with the marker line before each, its links, its headings' anchors.
struct DocsPage {
    /// Repository-relative.
    let path: String
    let lines: [String]

    init(_ path: String) throws {
        self.path = path
        lines = try String(contentsOfFile: CLI.packageRoot + "/" + path, encoding: .utf8).components(separatedBy: "\n")
    }

    static func all() throws -> [DocsPage] {
        var paths = ["README.md"]
        for folder in ["docs", "docs/design"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot + "/" + folder)
            paths += names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
        }
        return try paths.map(DocsPage.init)
    }

    /// A fenced block: its language, its text (without the fence's indentation), the line of its
    /// opening fence, and the line before the fence (its marker, if any).
    struct Block {
        var language: String
        var text: String
        var line: Int
        var marker: String
        /// The line of its closing fence.
        var endLine: Int
        /// Its non-empty lines.
        var commands: [String] { text.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
    }

    var blocks: [Block] {
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let indentation = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indentation)
            guard trimmed.hasPrefix("```") else { index += 1; continue }
            let fence = String(trimmed.prefix { $0 == "`" })
            let language = String(trimmed.dropFirst(fence.count)).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != fence {
                body.append(String(lines[end].dropFirst(min(indentation, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            let marker = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            blocks.append(Block(language: language, text: body.joined(separator: "\n") + "\n", line: index + 1, marker: marker, endLine: end + 1))
            index = end + 1
        }
        return blocks
    }

    /// The lines outside fenced blocks, with their numbers (links and headings live there).
    var prose: [(number: Int, text: String)] {
        var inside: String?
        var result: [(Int, String)] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let fence = inside {
                if trimmed == fence { inside = nil }
                continue
            }
            if trimmed.hasPrefix("```") {
                inside = String(trimmed.prefix { $0 == "`" })
                continue
            }
            result.append((index + 1, line))
        }
        return result
    }

    /// The anchors of the page's headings, as GitHub makes them (lowercase; letters, digits,
    /// spaces, `-` and `_` kept; spaces to `-`; a repeated one gets `-1`, `-2`), and of its
    /// `<a id="…">` tags.
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for (_, line) in prose {
            if let id = line.range(of: #"<a (id|name)="([^"]+)""#, options: .regularExpression) {
                result.insert(String(line[id]).components(separatedBy: "\"")[1])
            }
            guard line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var slug = ""
            for character in title.lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" { slug.append(character) }
                else if character == " " { slug.append("-") }
            }
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    /// Every Markdown link `[text](target)` in the prose (not in code spans), with its line.
    var links: [(line: Int, target: String)] {
        var result: [(Int, String)] = []
        for (number, line) in prose {
            // Code spans hold no links.
            let text = line.replacingOccurrences(of: #"`[^`]*`"#, with: "", options: .regularExpression)
            var rest = text[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].components(separatedBy: " ")[0]
                result.append((number, target))
                rest = after[close...]
            }
        }
        return result
    }
}

/// The documentation cannot lie (issue 27): the README stays short; every link and anchor
/// resolves; every shell and YAML block is run as its marker says (`<!-- runnable -->` from the
/// repository root, `<!-- runnable in: sample -->` in a copy of the sample app, `<!-- config -->`,
/// `<!-- codemod -->`), or says why not (`<!-- not run: why -->`); the catalog of codemods is the
/// one the codemods make; every command's help names its page.
@Suite struct DocsCLITests {
    static let shellLanguages: Set = ["sh", "bash", "shell", "console"]
    static let yamlLanguages: Set = ["yaml", "yml"]

    @Test func theReadmeIsShortAndMapsTheDocs() throws {
        let readme = try DocsPage("README.md")
        #expect(readme.lines.count <= 151, "README.md: \(readme.lines.count) lines")
        let linked = Set(readme.links.map(\.target).map { $0.components(separatedBy: "#")[0] })
        let pages = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot + "/docs").filter { $0.hasSuffix(".md") }
        for page in pages { #expect(linked.contains("docs/" + page), "the README links docs/\(page)") }
    }

    @Test func everyLinkAndAnchorResolves() throws {
        let pages = try DocsPage.all()
        var anchors: [String: Set<String>] = [:]
        for page in pages { anchors[page.path] = page.anchors }
        var checked = 0
        for page in pages {
            let folder = (page.path as NSString).deletingLastPathComponent
            for (line, target) in page.links {
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                checked += 1
                let parts = target.components(separatedBy: "#")
                let file = parts[0].isEmpty ? page.path : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: CLI.packageRoot + "/" + file), "\(page.path):\(line): \(target): no such file")
                if parts.count > 1, file.hasSuffix(".md") {
                    let known = try anchors[file] ?? DocsPage(file).anchors
                    #expect(known.contains(parts[1]), "\(page.path):\(line): \(target): no such anchor in \(file)")
                }
            }
        }
        #expect(checked >= 50, "links checked: \(checked)")
    }

    @Test func everyShellAndYAMLBlockSaysHowItRuns() throws {
        for page in try DocsPage.all() {
            for block in page.blocks {
                let marker = block.marker
                let notRun = marker.hasPrefix("<!-- not run: ") && marker.hasSuffix(" -->") && marker.count > "<!-- not run:  -->".count
                if Self.shellLanguages.contains(block.language) {
                    #expect(notRun || marker == "<!-- runnable -->" || marker == "<!-- runnable in: sample -->",
                            "\(page.path):\(block.line): a shell block is runnable, or says why not (`<!-- not run: why -->`)")
                } else if Self.yamlLanguages.contains(block.language) {
                    // (The pattern language's page is checked by `PatternRuleDocsCLITests`: its
                    // rules start with `id:`.)
                    let rule = page.path == "docs/patterns.md" && block.text.hasPrefix("id:")
                    #expect(notRun || rule || marker == "<!-- config -->" || marker == "<!-- codemod -->",
                            "\(page.path):\(block.line): a YAML block is a config, a codemod, or says why not")
                }
            }
        }
    }

    /// A copy of the sample app in a git repository of its own, as a new user would have it.
    static func sampleApp() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.copy("Examples/SampleApp")
        try CLI.run("git", ["init", "-q"], in: scratch.path)
        try CLI.run("git", ["add", "-A"], in: scratch.path)
        try CLI.run("git", ["-c", "user.name=docs", "-c", "user.email=docs@example.com", "commit", "-qm", "sample app"], in: scratch.path)
        return scratch
    }

    @Test func theRunnableCommandsRunAsThePagesSay() throws {
        let bin = try Scratch()
        let path = try bin.folderWithSwiftmod() + ":/usr/bin:/bin"
        let environment = ["PATH": path, "GIT_AUTHOR_NAME": "docs", "GIT_AUTHOR_EMAIL": "docs@example.com",
                           "GIT_COMMITTER_NAME": "docs", "GIT_COMMITTER_EMAIL": "docs@example.com"]
        var ran = 0
        // (The pattern language's page runs its own: `PatternRuleDocsCLITests`.)
        for page in try DocsPage.all() where page.path != "docs/patterns.md" {
            let blocks = page.blocks
            var sample: Scratch?
            for (index, block) in blocks.enumerated() where Self.shellLanguages.contains(block.language) {
                let folder: String
                switch block.marker {
                case "<!-- runnable -->": folder = CLI.packageRoot
                case "<!-- runnable in: sample -->":
                    if sample == nil { sample = try Self.sampleApp() }
                    folder = sample!.path
                default: continue
                }
                var output = ""
                for command in block.commands where !command.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                    var expected: Int32 = 0
                    if let range = command.range(of: #"#\s*exits\s+([0-9]+)\s*$"#, options: .regularExpression) {
                        expected = Int32(command[range].filter(\.isNumber)) ?? 0
                    }
                    let result = try CLI.run("/bin/sh", ["-c", command], in: folder, environment: environment)
                    #expect(result.status == expected, "\(page.path):\(block.line): `\(command)` exited \(result.status), not \(expected)\n\(result.stdout)\(result.stderr)")
                    output += result.stdout + result.stderr
                    ran += 1
                }
                // A ```text block right after shows (part of) what the commands print.
                if index + 1 < blocks.count, blocks[index + 1].language == "text", blocks[index + 1].line <= block.endLine + 3 {
                    for line in blocks[index + 1].text.components(separatedBy: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        #expect(output.contains(line), "\(page.path):\(blocks[index + 1].line): the output holds `\(line)`\n\(output)")
                    }
                }
            }
        }
        #expect(ran >= 40, "commands run: \(ran)")
    }

    @Test func everyConfigurationAndCodemodOfTheDocsLoads() throws {
        var configs = 0, codemods = 0
        let rules = try Scratch()
        for page in try DocsPage.all() where page.path != "docs/patterns.md" {
            for block in page.blocks where Self.yamlLanguages.contains(block.language) {
                let place = "\(page.path):\(block.line)"
                switch block.marker {
                case "<!-- config -->":
                    let sample = try Self.sampleApp()
                    try sample.write("docs-config.yml", block.text)
                    let scan = try CLI.swiftmod(["scan", "--config", "docs-config.yml"], in: sample.path)
                    #expect(scan.status != 2, "\(place): the configuration does not load\n\(scan.stderr)")
                    configs += 1
                case "<!-- codemod -->":
                    let name = "\(page.path.replacingOccurrences(of: "/", with: "-"))-\(block.line).yml"
                    try rules.write("rules/" + name, block.text)
                    codemods += 1
                default:
                    continue
                }
            }
        }
        if codemods > 0 {
            let tested = try CLI.swiftmod(["test", rules.url("rules").path])
            #expect(tested.status == 0, "the docs' codemods (files named page-line.yml):\n\(tested.stdout)\(tested.stderr)")
            #expect(tested.stdout.contains("\(codemods) passed, 0 failed"), "\(tested.stdout)")
        }
        #expect(configs >= 3 && codemods >= 3, "configurations \(configs), codemods \(codemods)")
    }

    /// The ast-grep project `docs/patterns.md` shows file by file: its rules' tests hold, and its
    /// lock-down passes as committed (on a copy: the test writes nothing into the repository).
    @Test func theAstGrepProjectOfThePatternPageRuns() throws {
        let copy = try Scratch()
        try copy.copy("Examples/AstGrepProject")
        // (Not the cache a run in the repository may have left: the copy starts cold.)
        try? FileManager.default.removeItem(atPath: copy.path + "/.swiftmod")
        let tested = try CLI.swiftmod(["test", "."], in: copy.path)
        #expect(tested.status == 0 && tested.stdout.contains("0 failed"), "\(tested.stdout)\(tested.stderr)")
        let check = try CLI.swiftmod(["check"], in: copy.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // Each file the page shows is the project's own.
        let page = try String(contentsOfFile: CLI.packageRoot + "/docs/patterns.md", encoding: .utf8)
        for block in try DocsPage("docs/patterns.md").blocks where block.text.hasPrefix("# Examples/AstGrepProject/") {
            let file = String(block.text.components(separatedBy: "\n")[0].dropFirst(2))
            let text = try String(contentsOfFile: CLI.packageRoot + "/" + file, encoding: .utf8)
            #expect(text.contains(block.text.components(separatedBy: "\n").dropFirst().joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)),
                    "docs/patterns.md:\(block.line) shows \(file) as it is")
        }
        #expect(page.contains("Examples/AstGrepProject"))
    }

    @Test func theCatalogIsTheOneTheCodemodsMake() throws {
        // (From an empty folder: only the bundled codemods.)
        let empty = try Scratch()
        let generated = try CLI.swiftmod(["list", "--format", "markdown"], in: empty.path)
        #expect(generated.status == 0, "\(generated.stderr)")
        let page = try String(contentsOfFile: CLI.packageRoot + "/docs/codemods.md", encoding: .utf8)
        #expect(generated.stdout == page, "docs/codemods.md is stale: run `swiftmod list --format markdown > docs/codemods.md`")
        // Every bundled codemod, with its examples.
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot + "/Codemods").filter { $0.hasSuffix(".yml") }
        for file in files {
            let id = String(file.dropLast(4))
            #expect(page.contains("\n## \(id)\n"), "docs/codemods.md has a section for \(id)")
        }
        #expect(page.contains("**Triggers**") && page.contains("**Does not trigger:**") && page.contains("**Corrected:**") && page.contains("↓"))
    }

    @Test func everyCommandsHelpNamesItsPage() throws {
        let top = try CLI.swiftmod(["--help"])
        #expect(top.stdout.contains("docs/"), "swiftmod --help points to the docs:\n\(top.stdout)")
        // (A line longer than 80 columns is wrapped by the help, its last page alone on a line.)
        #expect(!top.stdout.components(separatedBy: "\n").contains { $0.hasPrefix("docs/") }, "a line of the guides is wrapped:\n\(top.stdout)")
        // The subcommands, as the top help lists them.
        var commands: [String] = []
        var inList = false
        for line in top.stdout.components(separatedBy: "\n") {
            if line.hasPrefix("SUBCOMMANDS:") { inList = true; continue }
            guard inList else { continue }
            let name = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " ")[0]
            if line.hasPrefix("    "), !name.isEmpty, !name.hasPrefix("-") { commands.append(name) }
        }
        #expect(commands.count >= 10, "\(commands)")
        for command in commands where command != "help" {
            let help = try CLI.swiftmod([command, "--help"])
            let pages = help.stdout.components(separatedBy: "docs/").dropFirst().map { String($0.prefix { !$0.isWhitespace && $0 != ")" && $0 != "," }) }
            #expect(!pages.isEmpty, "`swiftmod \(command) --help` names its page")
            for page in pages {
                let file = page.components(separatedBy: "#")[0].trimmingCharacters(in: CharacterSet(charactersIn: ".;:"))
                #expect(FileManager.default.fileExists(atPath: CLI.packageRoot + "/docs/" + file), "`swiftmod \(command) --help` names docs/\(file), which exists")
            }
        }
    }
}
