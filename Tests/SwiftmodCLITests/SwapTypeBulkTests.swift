import Foundation
import Testing

/// `swap-type` over a few thousand generated files: no use of the old type is left outside its own
/// declaration, strings and comments; every changed file parses; a second run changes nothing.
@Suite struct SwapTypeBulkTests {
    static let fileCount = 1_500

    static let positions = [
        "    let client: OldClient = OldClient()",
        "    let shared = OldClient.shared",
        "    let kind: OldClient.Type = OldClient.self",
        "    var pool: [OldClient] = []",
        "    var byName: [String: OldClient?] = [:]",
        "    let make: (OldClient) -> OldClient? = { $0 as? OldClient }",
        "    func check(_ x: Any) -> Bool { x is OldClient }",
        "    func generic<T>(_ t: T) where T: OldClient {}",
        "    let boxed = Box<OldClient>(OldClient.init())",
        "    let pair: (OldClient, Int)? = nil",
    ]

    static func file(_ seed: Int) -> String {
        var lines = ["import Foundation", "", "// Feature \(seed): OldClient in a comment stays", "final class Feature\(seed): \(seed % 3 == 0 ? "OldClient" : "NSObject") {"]
        for index in 0..<(2 + seed % 5) { lines.append(positions[(seed * 3 + index) % positions.count]) }
        lines += [
            "    let note = \"OldClient is only a word here\"",
            "    let lookalike = OldClientFactory()",
            "}",
            "typealias Client\(seed) = OldClient",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// Lines that still use the old type in code (comments and strings cut away).
    static func leftovers(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { line in
            var code = line
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            code = code.replacingOccurrences(of: #""[^"]*""#, with: "", options: .regularExpression)
            return code.range(of: #"\bOldClient\b"#, options: .regularExpression) != nil
        }
    }

    @Test func bulkSwap() throws {
        let scratch = try Scratch()
        try scratch.write("Sources/Legacy/OldClient.swift", """
        open class OldClient {
            public static let shared = OldClient()
            public init() {}
            func clone() -> OldClient { OldClient() }
        }

        """)
        var paths: [String] = []
        for seed in 0..<Self.fileCount {
            paths.append(try scratch.write("Sources/M\(seed % 25)/Feature\(seed).swift", Self.file(seed)))
        }
        let first = try CLI.swiftmod(["run", "swap-type", "Sources", "--write", "--param", "from=OldClient", "--param", "to=NewClient"],
                                     in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("\(Self.fileCount) written"), "\(first.stderr)")
        var left: [String] = []
        for seed in 0..<Self.fileCount {
            let text = try scratch.text("Sources/M\(seed % 25)/Feature\(seed).swift")
            left += Self.leftovers(text)
            #expect(text.contains("\"OldClient is only a word here\""))
            #expect(text.contains("OldClientFactory()"))
        }
        #expect(left == [])
        // The old type's own declaration is untouched.
        #expect(try scratch.text("Sources/Legacy/OldClient.swift").contains("func clone() -> OldClient { OldClient() }"))
        #expect(try CLI.swiftcParseErrors(paths) == "")
        let second = try CLI.swiftmod(["run", "swap-type", "Sources", "--param", "from=OldClient", "--param", "to=NewClient"],
                                      in: scratch.path)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("0 to change"))
    }
}
