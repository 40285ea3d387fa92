import Foundation
import Testing

/// Papercuts of `swiftmod run` a hostile tester found (issue 23): diff headers of absolute paths,
/// swap-type and a member type written `U . /*note*/Item`, and Ctrl-C in an interactive review.
@Suite struct RunPapercutsCLITests {
    static func outlets(_ type: String) -> String {
        "import UIKit\n\nfinal class \(type): UIViewController {\n    @IBOutlet weak var label: UILabel!\n}\n"
    }

    // MARK: - Diff headers of absolute paths

    @Test func anAbsolutePathsDiffAppliesWithGitApply() throws {
        let scratch = try Scratch()
        let inside = try scratch.write("work/Sources/Inside.swift", Self.outlets("Inside"))
        let outside = try scratch.write("other/Outside.swift", Self.outlets("Outside"))
        let work = scratch.url("work").path

        // Inside the current folder: relative, as for a relative path.
        let near = try CLI.swiftmod(["run", "strong-iboutlet", inside], in: work)
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.hasPrefix("--- a/Sources/Inside.swift\n+++ b/Sources/Inside.swift\n"), "\(near.stdout)")
        try near.stdout.write(toFile: scratch.url("near.diff").path, atomically: true, encoding: .utf8)
        let applied = try CLI.run("git", ["apply", scratch.url("near.diff").path], in: work)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try scratch.text("work/Sources/Inside.swift") == Self.outlets("Inside").replacingOccurrences(of: "weak ", with: ""))

        // Outside it: the way from it, which git apply takes with --unsafe-paths (said in a note).
        let far = try CLI.swiftmod(["run", "strong-iboutlet", outside], in: work)
        #expect(far.status == 0, "\(far.stderr)")
        #expect(!far.stdout.contains("a//"), "\(far.stdout)")
        #expect(far.stdout.hasPrefix("--- a/../other/Outside.swift\n+++ b/../other/Outside.swift\n"), "\(far.stdout)")
        #expect(far.stderr.contains("note: 1 file of the diff is outside the current folder, named from it (../); `git apply --unsafe-paths` applies it from here"), "\(far.stderr)")
        try far.stdout.write(toFile: scratch.url("far.diff").path, atomically: true, encoding: .utf8)
        let unsafe = try CLI.run("git", ["apply", "--unsafe-paths", scratch.url("far.diff").path], in: work)
        #expect(unsafe.status == 0, "\(unsafe.stderr)")
        #expect(try scratch.text("other/Outside.swift") == Self.outlets("Outside").replacingOccurrences(of: "weak ", with: ""))
    }

    // MARK: - swap-type and a commented member type

    @Test func aMemberTypeWithACommentAfterTheDotIsNotTheOldType() throws {
        let scratch = try Scratch()
        let source = """
        protocol Store { associatedtype Item }
        func first<U: Store>(_ store: U) where U . /*note*/Item: Equatable, U.Item == Int, Item: Sendable {}

        """
        try scratch.write("Store.swift", source)
        let result = try CLI.swiftmod(["run", "swap-type", "Store.swift", "--param", "from=Item", "--param", "to=Thing"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("+func first<U: Store>(_ store: U) where U . /*note*/Item: Equatable, U.Item == Int, Thing: Sendable {}"), "\(result.stdout)")
        #expect(!result.stdout.contains("/*note*/Thing") && !result.stdout.contains("U.Thing"), "\(result.stdout)")
    }

    // MARK: - Ctrl-C in an interactive review

    /// Output read while a process runs, for a test to wait on.
    final class Transcript: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var closed = false

        func append(_ chunk: Data) { lock.withLock { if chunk.isEmpty { closed = true } else { data.append(chunk) } } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
        var isClosed: Bool { lock.withLock { closed } }

        /// Waits until the text holds `expected` or the output ends; the limit only ends a test
        /// that is failing anyway.
        func wait(for expected: String, limit: TimeInterval = 120) -> Bool {
            let end = Date().addingTimeInterval(limit)
            while Date() < end {
                if text.contains(expected) { return true }
                if isClosed { return text.contains(expected) }
                usleep(20_000)
            }
            return false
        }
    }

    @Test func ctrlCInAReviewSaysWhatWasWrittenAndExits130() throws {
        let repo = try Scratch()
        for name in ["A", "B", "C"] { try repo.write("\(name).swift", Self.outlets(name)) }
        // `script` gives the command a terminal and types what it reads: an answer, then Ctrl-C.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["script", "-qec", "'\(CLI.binary)' run strong-iboutlet . --interactive --color never; echo \"exit status $?\"", "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: repo.path)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["SHELL"] = "/bin/bash"  // bash outlives its command's Ctrl-C to echo the status; dash does not
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let transcript = Transcript()
        output.fileHandleForReading.readabilityHandler = { transcript.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        #expect(transcript.wait(for: "Make this change to A.swift?"), "\(transcript.text)")
        input.fileHandleForWriting.write(Data("y\n".utf8))
        #expect(transcript.wait(for: "Make this change to B.swift?"), "\(transcript.text)")
        input.fileHandleForWriting.write(Data([0x03]))
        #expect(transcript.wait(for: "exit status"), "\(transcript.text)")
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil

        let text = transcript.text
        #expect(text.contains("Accepted 1 of 2 changes (1 file), declined 0, 1 not reviewed (after Ctrl-C; the file under review was left as it was); it was written."), "\(text)")
        #expect(text.contains("exit status 130"), "\(text)")
        #expect(try repo.text("A.swift") == Self.outlets("A").replacingOccurrences(of: "weak ", with: ""), "accepted: written")
        #expect(try repo.text("B.swift") == Self.outlets("B"), "under review: left as it was")
        #expect(try repo.text("C.swift") == Self.outlets("C"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: repo.path).filter { $0.contains(".swiftmod-") }
        #expect(leftovers.isEmpty, "no temporary file: \(leftovers)")
    }
}
