import Foundation
import Testing

/// A bulk run over a few thousand generated files: every weak implicitly unwrapped outlet is
/// rewritten, optional ones stay, every changed file still parses, and a second run changes
/// nothing.
@Suite struct BulkRunTests {
    static let fileCount = 2_000

    /// A file of a realistic shape; `seed` varies names, layout and which outlets appear.
    static func file(_ seed: Int) -> (text: String, weakIUO: Int, weakOptional: Int) {
        var weakIUO = 0, weakOptional = 0
        var lines = ["import UIKit", "", "/// Screen \(seed) — généré 🚀", "final class Screen\(seed)ViewController: UIViewController {"]
        for outlet in 0..<(seed % 5) {
            switch (seed + outlet) % 6 {
            case 0: lines.append("    @IBOutlet weak var label\(outlet): UILabel!"); weakIUO += 1
            case 1: lines.append("    @IBOutlet private weak var button\(outlet): UIButton!"); weakIUO += 1
            case 2: lines.append("    @IBOutlet weak var optional\(outlet): UIView?"); weakOptional += 1
            case 3: lines += ["    @IBOutlet", "    weak var split\(outlet): UIStackView!"]; weakIUO += 1
            case 4: lines.append("    @IBOutlet var strong\(outlet): UILabel!")
            default: lines.append("    weak @IBOutlet var reversed\(outlet): UISwitch! // 🔁"); weakIUO += 1
            }
        }
        lines += [
            "    private let note = \"@IBOutlet weak var inString: UILabel!\"",
            "    override func viewDidLoad() {",
            "        super.viewDidLoad()",
            "        service.load { [weak self] value in",
            "            guard let self else { return }",
            "            #if DEBUG",
            "            print(\"loaded \\(value) in \\(self)\")",
            "            #endif",
            "        }",
            "    }",
            "}",
            "",
        ]
        return (lines.joined(separator: seed % 7 == 0 ? "\r\n" : "\n"), weakIUO, weakOptional)
    }

    static let weakIUOPattern = #"(?m)^\s*(@IBOutlet\s+(private\s+)?weak|weak\s+@IBOutlet)\s+var\s+\w+:\s*\w+!"#

    static func count(_ pattern: String, in text: String) -> Int {
        (try? NSRegularExpression(pattern: pattern))?.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) ?? 0
    }

    @Test func bulkRewrite() throws {
        let scratch = try Scratch()
        var expectedEdits = 0, optionals = 0
        var changed: [String] = []
        for seed in 0..<Self.fileCount {
            let file = Self.file(seed)
            // The pattern that checks the result finds every weak outlet before the run.
            #expect(Self.count(Self.weakIUOPattern, in: file.text) == file.weakIUO)
            let path = try scratch.write("Modules/Module\(seed % 40)/Sources/Screen\(seed).swift", file.text)
            expectedEdits += file.weakIUO
            optionals += file.weakOptional
            if file.weakIUO > 0 { changed.append(path) }
        }
        let first = try CLI.swiftmod(["run", "strong-iboutlet", "Modules", "--write"], in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("\(Self.fileCount) files scanned, \(changed.count) written, \(expectedEdits) edits, 0 refused, 0 failed"),
                "\(first.stderr)")

        var weakIUOLeft = 0, optionalLeft = 0, crlfFiles = 0
        for seed in 0..<Self.fileCount {
            let text = try scratch.text("Modules/Module\(seed % 40)/Sources/Screen\(seed).swift")
            weakIUOLeft += Self.count(Self.weakIUOPattern, in: text)
            optionalLeft += Self.count(#"@IBOutlet weak var optional\d+: UIView\?"#, in: text)
            if text.contains("\r\n") { crlfFiles += 1; #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n")) }
            #expect(text.contains("\"@IBOutlet weak var inString: UILabel!\""))
        }
        #expect(weakIUOLeft == 0)
        #expect(optionalLeft == optionals)
        #expect(crlfFiles == (0..<Self.fileCount).filter { $0 % 7 == 0 }.count)
        #expect(try CLI.swiftcParseErrors(changed) == "")

        let second = try CLI.swiftmod(["run", "strong-iboutlet", "Modules"], in: scratch.path)
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("0 to change, 0 edits"))
    }
}
