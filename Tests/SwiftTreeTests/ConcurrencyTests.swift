import Dispatch
import Foundation
import Testing
@testable import SwiftTree

@Suite struct ConcurrencyTests {
    /// Many files parsed at once, one parser per thread, sharing one compiled query: every result
    /// equals the result of parsing the same file alone.
    @Test func parsesManyFilesConcurrently() throws {
        let sources = (0..<400).map { index in
            """
            // File \(index) — ☕️
            final class Screen\(index): UIViewController {
                @IBOutlet weak var title\(index): UILabel!
                func load() {
                    network.fetch { [weak self] result in
                        guard let `self` = self else { return }
                        self.render(result, \(index))
                    }
                }
            }

            """
        }
        let query = try Query("((simple_identifier) @id (#match? @id \"^title[0-9]+$\"))")
        let expected = try sources.map { source -> String in
            let tree = Parser().parse(source)
            return try query.matches(in: tree).map { "\($0["id"]!.text)@\($0["id"]!.start)" }.joined()
        }
        let results = ResultBox(count: sources.count)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let parser = Parser()
            for index in stride(from: worker, to: sources.count, by: 8) {
                let tree = parser.parse(sources[index])
                let found = (try? query.matches(in: tree))!.map { "\($0["id"]!.text)@\($0["id"]!.start)" }.joined()
                results.set(index, found + (tree.hasErrors ? "!" : ""))
            }
        }
        #expect(results.values == expected)
        #expect(expected[7] == "title7@3:24")
    }
}

/// A thread-safe array of results.
final class ResultBox: @unchecked Sendable {
    private var storage: [String]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: "", count: count) }

    func set(_ index: Int, _ value: String) { lock.withLock { storage[index] = value } }

    var values: [String] { lock.withLock { storage } }
}
