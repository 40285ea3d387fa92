import Foundation
import Testing

/// The `xctest-to-swift-testing` fixtures (`Corpus/xctest-to-swift-testing/<case>.swift`, whose
/// `<case>.expected.swift` CorpusTests compares byte for byte with what the binary writes) built
/// and run, before and after the conversion: every case is one test file of one SwiftPM package
/// (one build before, one after, in the same scratch path so the second is incremental), and both
/// builds must succeed, run the same number of tests, all passing, with the tests each case
/// converts running in Swift Testing afterwards. The converted files are also run through the
/// binary again (nothing changes), converted all at once (the same bytes as case by case), and
/// parsed with `swiftc -frontend -parse`.
///
/// About 25 s on 2 cores with Swift 6.3.1 (the first build in a fresh scratch path compiles the
/// test target against Swift Testing's macros: about 11 s; the incremental one after: about 3 s;
/// each `swift test` under a second).
@Suite struct XCTestConversionBuildTests {
    static let codemod = "xctest-to-swift-testing"
    static let folder = CLI.packageRoot + "/Corpus/" + codemod

    /// What a case runs: its XCTest tests before (on Linux and macOS alike: the `#if` of
    /// `operands` takes its first branch on both), and after the conversion its Swift Testing tests
    /// and suites; the rest stay XCTest tests.
    struct Count: Sendable {
        var tests: Int
        var converted: Int
        var suites: Int
    }

    /// Counted in the fixtures (XCTest runs `test()`, not `private func testHelper()`,
    /// `testing(_:)`, `static func testFactory()` nor `testItem(named:)`).
    static let counts: [String: Count] = [
        "assertions": Count(tests: 8, converted: 8, suites: 1),
        "crlf": Count(tests: 2, converted: 2, suites: 1),
        "expectations": Count(tests: 5, converted: 4, suites: 1),
        "extension": Count(tests: 4, converted: 4, suites: 1),
        "half-converted": Count(tests: 4, converted: 2, suites: 1),
        "helpers": Count(tests: 5, converted: 5, suites: 1),
        "lifecycle": Count(tests: 5, converted: 5, suites: 4),
        "not-tests": Count(tests: 2, converted: 2, suites: 1),
        "operands": Count(tests: 7, converted: 7, suites: 1),
        "shadowing": Count(tests: 6, converted: 6, suites: 1),
        "skips": Count(tests: 4, converted: 4, suites: 1),
        "throwing-operands": Count(tests: 4, converted: 4, suites: 1),
    ]
    /// The tests XCTest skips (`skips`: three of its four), which pass no assertion.
    static let skipped = 3
    /// The tests that stay XCTest (`accuracy:` and `measure {}` have no Swift Testing form).
    static let leftAsXCTest = ["AverageAccuracyTests.testThirds", "AveragePerformanceTests.testSpeed", "EventBusQueueTests.testDeliveryOnAQueue"]

    /// The cases: each `<case>.swift` with a `<case>.expected.swift`.
    static let cases: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { $0.hasSuffix(".swift") && !$0.hasSuffix(".expected.swift") }
            .map { String($0.dropLast(".swift".count)) }
            .filter { files.contains($0 + ".expected.swift") }
            .sorted()
    }()

    static func input(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).swift"))
    }

    static func expected(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).expected.swift"))
    }

    /// A case's file in the scratch package: `half-converted` → `Corpus_half_converted.swift`.
    static func packageFile(_ name: String) -> String {
        "Tests/XCTestCorpusTests/Corpus_\(name.replacingOccurrences(of: "-", with: "_")).swift"
    }

    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "XCTestCorpus",
            targets: [
                .target(name: "XCTestCorpus"),
                .testTarget(name: "XCTestCorpusTests", dependencies: ["XCTestCorpus"]),
            ]
        )

        """

    /// What `swift test` printed, read back.
    struct TestRun: CustomStringConvertible {
        var status: Int32 = 0
        /// XCTest's "Executed N tests, with F failures" of all tests (the last such line).
        var xctest = 0
        var xctestFailures = 0
        /// XCTest's "Test Case 'Class.testName' passed" lines: the names.
        var xctestPassed: [String] = []
        /// Swift Testing's "Test run with N tests in S suites passed|failed [with I issues]".
        var swiftTesting = 0
        var swiftTestingSuites = 0
        var swiftTestingPassed = false
        var swiftTestingIssues = 0
        var sawXCTestSummary = false
        var sawSwiftTestingSummary = false

        var total: Int { xctest + swiftTesting }
        var description: String {
            "XCTest \(xctest) tests (\(xctestFailures) failures), Swift Testing \(swiftTesting) tests in \(swiftTestingSuites) suites (\(swiftTestingIssues) issues), exit \(status)"
        }

        init(status: Int32, output: String) {
            self.status = status
            for line in output.split(whereSeparator: \.isNewline) {
                if let match = line.firstMatch(of: #/Executed (\d+) tests?, with (?:\d+ tests? skipped and )?(\d+) failures?/#) {
                    xctest = Int(match.1) ?? -1
                    xctestFailures = Int(match.2) ?? -1
                    sawXCTestSummary = true
                } else if let match = line.firstMatch(of: #/Test Case '(.+)' passed/#) {
                    // Linux: `Class.testName`; macOS: `-[Module.Class testName]`.
                    var name = String(match.1)
                    if let objc = name.firstMatch(of: #/^-\[(?:[^ .]+\.)?([^ ]+) ([^ ]+)\]$/#) { name = "\(objc.1).\(objc.2)" }
                    xctestPassed.append(name)
                } else if let match = line.firstMatch(of: #/Test run with (\d+) tests? in (\d+) suites? (passed|failed)/#) {
                    swiftTesting = Int(match.1) ?? -1
                    swiftTestingSuites = Int(match.2) ?? -1
                    swiftTestingPassed = match.3 == "passed"
                    swiftTestingIssues = line.firstMatch(of: #/ with (\d+) issues?/#).flatMap { Int($0.1) } ?? 0
                    sawSwiftTestingSummary = true
                }
            }
        }
    }

    /// `swift build --build-tests` then `swift test` in the scratch package; nil (and an issue
    /// with the compiler's errors) when the build fails.
    static func buildAndTest(_ scratch: Scratch, _ phase: String) throws -> (run: TestRun, build: Duration, test: Duration)? {
        let buildPath = scratch.url(".build").path
        let clock = ContinuousClock()
        let buildStart = clock.now
        let build = try CLI.run("swift", ["build", "--build-tests", "--scratch-path", buildPath], in: scratch.path)
        let built = clock.now - buildStart
        guard build.status == 0 else {
            let output = (build.stdout + "\n" + build.stderr).split(whereSeparator: \.isNewline)
            let errors = output.filter { $0.contains("error:") }
            Issue.record("\(phase): the fixtures do not build:\n\((errors.isEmpty ? Array(output.suffix(40)) : errors).joined(separator: "\n"))")
            return nil
        }
        let testStart = clock.now
        let test = try CLI.run("swift", ["test", "--skip-build", "--scratch-path", buildPath], in: scratch.path)
        let tested = clock.now - testStart
        let run = TestRun(status: test.status, output: test.stdout + "\n" + test.stderr)
        #expect(test.status == 0 && run.sawXCTestSummary && run.sawSwiftTestingSummary,
                "\(phase): swift test exited \(test.status) (\(run)):\n\(test.stdout.suffix(3_000))\n\(test.stderr.suffix(3_000))")
        return (run, built, tested)
    }

    @Test func everyCaseIsCounted() {
        #expect(Self.cases.count >= 9)
        #expect(Set(Self.cases) == Set(Self.counts.keys), "a case without its counts here, or counts without a case")
    }

    @Test(.timeLimit(.minutes(5)))
    func fixturesBuildAndPassBeforeAndAfterTheConversion() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let scratch = try Scratch()
        try scratch.write("Package.swift", Self.manifest)
        try scratch.write("Sources/XCTestCorpus/XCTestCorpus.swift", "// The library the fixtures test: nothing.\n")
        for name in Self.cases { try scratch.write(Self.packageFile(name), data: try Self.input(name)) }
        guard let before = try Self.buildAndTest(scratch, "before") else { return }

        for name in Self.cases { try scratch.write(Self.packageFile(name), data: try Self.expected(name)) }
        guard let after = try Self.buildAndTest(scratch, "after") else { return }

        let tests = Self.counts.values.map(\.tests).reduce(0, +)
        let converted = Self.counts.values.map(\.converted).reduce(0, +)
        let suites = Self.counts.values.map(\.suites).reduce(0, +)
        // Before: every test is an XCTest test, and passes.
        #expect(before.run.xctest == tests, "before: \(before.run)")
        #expect(before.run.xctestFailures == 0, "before: \(before.run)")
        #expect(before.run.swiftTesting == 0, "before: \(before.run)")
        #expect(before.run.xctestPassed.count == tests - Self.skipped)
        // After: the same tests, all passing, those converted in Swift Testing.
        #expect(after.run.total == before.run.total, "before: \(before.run); after: \(after.run)")
        #expect(after.run.swiftTesting == converted, "after: \(after.run)")
        #expect(after.run.swiftTestingSuites == suites, "after: \(after.run)")
        #expect(after.run.swiftTestingPassed && after.run.swiftTestingIssues == 0, "after: \(after.run)")
        #expect(after.run.xctest == tests - converted, "after: \(after.run)")
        #expect(after.run.xctestFailures == 0, "after: \(after.run)")
        #expect(after.run.xctestPassed.sorted() == Self.leftAsXCTest.sorted())

        func seconds(_ duration: Duration) -> String {
            String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
        print("""
            XCTestConversionBuildTests: \(Self.cases.count) cases, \(tests) tests, \(seconds(clock.now - start)) in all
              before: build \(seconds(before.build)), swift test \(seconds(before.test)): \(before.run)
              after: build \(seconds(after.build)), swift test \(seconds(after.test)): \(after.run)
            """)
    }

    @Test func aSecondRunOverTheConvertedFilesChangesNothing() throws {
        let scratch = try Scratch()
        for name in Self.cases { try scratch.write("Tests/\(name).swift", data: try Self.expected(name)) }
        let dry = try CLI.swiftmod(["run", Self.codemod, "Tests"], in: scratch.path)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.isEmpty, "the second run wants to change:\n\(dry.stdout)")
        #expect(dry.stderr.contains("0 to change"), "\(dry.stderr)")
        let write = try CLI.swiftmod(["run", Self.codemod, "Tests", "--write"], in: scratch.path)
        #expect(write.status == 0, "\(write.stderr)")
        for name in Self.cases {
            #expect(try scratch.read("Tests/\(name).swift") == Self.expected(name), "\(name) changed on a second run")
        }
    }

    @Test func allTheCasesConvertedInOneRunGiveTheSameFiles() throws {
        // The run surveys every file before it rewrites any: the cases together must convert as
        // each does alone.
        let scratch = try Scratch()
        for name in Self.cases { try scratch.write("Tests/\(name).swift", data: try Self.input(name)) }
        let write = try CLI.swiftmod(["run", Self.codemod, "Tests", "--write"], in: scratch.path)
        #expect(write.status == 0, "\(write.stderr)")
        for name in Self.cases {
            let output = try scratch.read("Tests/\(name).swift")
            #expect(output == (try Self.expected(name)), "\(name):\n\(String(decoding: output, as: UTF8.self))")
        }
    }

    @Test func everyFixtureParses() throws {
        let files = Self.cases.flatMap { ["\(Self.folder)/\($0).swift", "\(Self.folder)/\($0).expected.swift"] }
        #expect(try CLI.swiftcParseErrors(files) == "")
    }
}
