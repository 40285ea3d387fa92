import Foundation
import Testing

/// `backtick-self` over a few thousand generated files, in both styles: no backtick rebinding is
/// left in code, every file still parses, and a second run changes nothing.
@Suite struct BacktickSelfBulkTests {
    static let fileCount = 1_000

    /// A realistic file; `seed` picks which rebinding shapes it holds.
    static func file(_ seed: Int) -> String {
        var body: [String] = []
        let shapes = [
            """
                    api.fetch(page: \(seed)) { [weak self] result in
                        guard let `self` = self else { return }
                        self.items = result.items
                        self.tableView.reloadData()
                    }
            """,
            """
                    timer.onTick { [weak self] tick in
                        if let `self` = self, tick > \(seed % 10) {
                            self.render("tick \\(tick) for \\(self.title ?? "")")
                        } else {
                            self?.stop()
                        }
                    }
            """,
            """
                    stream.onData { [weak self] in
                        while let `self` = self,
                              let chunk = self.buffer.popFirst() {
                            defer { self.count += 1 }
                            self.consume(chunk)
                        }
                    }
            """,
            """
                    queue.async { [weak self] in
                        guard let strongSelf = self else { return }
                        let note = "guard let `self` = self"
                        strongSelf.log(note)
                    }
            """,
            """
                    animator.run { [weak self] in
                        guard let `self` = self,
                              let view = self.view
                        else { return }
                        UIView.animate(withDuration: 0.3) { view.alpha = 0 }
                        DispatchQueue.main.async { [weak self] in
                            guard let `self` = self else { return }
                            self.finish()
                        }
                    }
            """,
        ]
        for index in 0..<(1 + seed % 4) {
            body.append(shapes[(seed + index * 2) % shapes.count])
        }
        return """
        import UIKit

        // Screen \(seed) 📱
        final class Screen\(seed)ViewController: UIViewController {
            var items: [String] = []
            var count = 0

            func start() {
        \(body.joined(separator: "\n"))
            }

            func render(_ text: String) {}
            func finish() {}
        }

        """
    }

    static func leftovers(_ text: String) -> Int {
        // Rebindings in code, not in the string literal the generator also writes.
        text.components(separatedBy: "\n").filter { $0.contains("let `self` = self") && !$0.contains("\"") }.count
    }

    @Test(arguments: [[], ["--param", "binding=this"]])
    func bulkRewrite(_ extra: [String]) throws {
        let scratch = try Scratch()
        var paths: [String] = []
        var rebindings = 0
        for seed in 0..<Self.fileCount {
            let text = Self.file(seed)
            rebindings += Self.leftovers(text)
            paths.append(try scratch.write("Modules/M\(seed % 30)/Screen\(seed).swift", text))
        }
        #expect(rebindings > Self.fileCount)
        let first = try CLI.swiftmod(["run", "backtick-self", "Modules", "--write"] + extra, in: scratch.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("0 refused, 0 failed, 0 skipped"), "\(first.stderr)")
        var left = 0
        for seed in 0..<Self.fileCount {
            left += Self.leftovers(try scratch.text("Modules/M\(seed % 30)/Screen\(seed).swift"))
        }
        #expect(left == 0)
        #expect(try CLI.swiftcParseErrors(paths) == "")
        let second = try CLI.swiftmod(["run", "backtick-self", "Modules"] + extra, in: scratch.path)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("0 to change"))
    }
}
