import Foundation
import Testing

/// `run --write` and `baseline` against an unlucky or hostile tree: links out of the tree, odd
/// names, interrupted runs and their leftovers, concurrent baseline updates.
@Suite struct WriteHardeningCLITests {
    static let outlet = "class V {\n    @IBOutlet weak var label: UILabel!\n}\n"
    static let fixed = "class V {\n    @IBOutlet var label: UILabel!\n}\n"

    @Test func linksOutOfTheTreeAreLeftAloneUnlessAsked() throws {
        let scratch = try Scratch()
        try scratch.write("outside/O.swift", Self.outlet)
        try scratch.write("repo/In.swift", Self.outlet)
        try FileManager.default.createSymbolicLink(atPath: scratch.url("repo/L.swift").path, withDestinationPath: "../outside/O.swift")
        let repo = scratch.url("repo").path
        try CLI.run("git", ["init", "-q"], in: repo)

        let dry = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: repo)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("--- a/In.swift"))
        #expect(!dry.stdout.contains("O.swift") && !dry.stdout.contains("L.swift"))
        #expect(dry.stderr.contains("note: L.swift: a symbolic link to "))
        #expect(dry.stderr.contains("outside the tree; left alone"))
        // The dry run's diff applies as it is.
        try scratch.write("patch.diff", dry.stdout)
        let check = try CLI.run("git", ["apply", "--check", scratch.url("patch.diff").path], in: repo)
        #expect(check.status == 0, "\(check.stderr)")

        let json = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--format", "json"], in: repo)
        #expect(json.stdout.contains("\"outsideLinks\""))
        #expect(json.stdout.contains("\"path\" : \"L.swift\""))

        let written = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--write"], in: repo)
        #expect(written.status == 0)
        #expect(try scratch.text("repo/In.swift") == Self.fixed)
        #expect(try scratch.text("outside/O.swift") == Self.outlet)

        let followed = try CLI.swiftmod(["run", "strong-iboutlet", "L.swift", "--write", "--follow-outside-links"], in: repo)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout.contains("--- a/L.swift"))
        #expect(try scratch.text("outside/O.swift") == Self.fixed)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.url("repo/L.swift").path) == "../outside/O.swift")
    }

    @Test func aFolderLinkOutOfTheTreeGivenAsAPathIsLeftAlone() throws {
        let scratch = try Scratch()
        try scratch.write("outside/deep/O.swift", Self.outlet)
        try scratch.write("repo/Sources/In.swift", Self.outlet)
        let repo = scratch.url("repo").path
        try CLI.run("git", ["init", "-q"], in: repo)
        // A link to a folder outside (up and out, as `Up -> ../..` would be).
        try FileManager.default.createSymbolicLink(atPath: scratch.url("repo/Sources/Out").path, withDestinationPath: "../../outside")
        for paths in [["Sources/Out"], ["Sources/Out/deep"], ["Sources/Out/deep/O.swift"], ["Sources"]] {
            let run = try CLI.swiftmod(["run", "strong-iboutlet"] + paths + ["--write"], in: repo)
            #expect(run.status == 0, "\(paths): \(run.stderr)")
            #expect(try scratch.text("outside/deep/O.swift") == Self.outlet, "\(paths)")
            if paths != ["Sources"] {
                #expect(run.stderr.contains("reached through a symbolic link: it is"), "\(paths): \(run.stderr)")
            }
        }
        #expect(try scratch.text("repo/Sources/In.swift") == Self.fixed)
        // Asked for, it is followed.
        let followed = try CLI.swiftmod(["run", "strong-iboutlet", "Sources/Out", "--write", "--follow-outside-links"], in: repo)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(try scratch.text("outside/deep/O.swift") == Self.fixed)
    }

    @Test func theBaselineIsNeverWrittenOutsideTheRepository() throws {
        let scratch = try Scratch()
        try scratch.write("repo/In.swift", Self.outlet)
        try scratch.write("repo/.swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try scratch.write("outside/keep.jsonl", "not ours\n")
        let repo = scratch.url("repo").path
        try CLI.run("git", ["init", "-q"], in: repo)
        // Through a link that leads out.
        try FileManager.default.createSymbolicLink(atPath: repo + "/.swiftmod-baseline.jsonl", withDestinationPath: "../outside/keep.jsonl")
        for arguments in [["baseline"], ["baseline", "--prune"], ["baseline", "In.swift"]] {
            let run = try CLI.swiftmod(arguments, in: repo)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("outside the repository"), "\(run.stderr)")
        }
        #expect(try scratch.text("outside/keep.jsonl") == "not ours\n")
        // Through a `baseline:` that climbs out.
        try FileManager.default.removeItem(atPath: repo + "/.swiftmod-baseline.jsonl")
        try scratch.write("repo/.swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nbaseline: ../outside/new.jsonl\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo).status == 2)
        #expect(!FileManager.default.fileExists(atPath: scratch.url("outside/new.jsonl").path))
        // Inside, in a folder still to be made, is fine.
        try scratch.write("repo/.swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nbaseline: Tools/lockdown/baseline.jsonl\n")
        #expect(try CLI.swiftmod(["baseline"], in: repo).status == 0)
        #expect(FileManager.default.fileExists(atPath: repo + "/Tools/lockdown/baseline.jsonl"))
    }

    @Test func oddNamesAreQuotedAsGitDoesAndTheDiffApplies() throws {
        let scratch = try Scratch()
        let names = ["tab\there", "new\nline", "carriage\rreturn", "quote\"d", "back\\slash", "with space", "ünïcode", "plain"]
        for name in names { try scratch.write("repo/\(name).swift", Self.outlet) }
        let repo = scratch.url("repo").path
        try CLI.run("git", ["init", "-q"], in: repo)
        let dry = try CLI.swiftmod(["run", "strong-iboutlet", "."], in: repo)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("--- \"a/tab\\there.swift\"\n"))
        #expect(dry.stdout.contains("+++ \"b/new\\nline.swift\"\n"))
        #expect(dry.stdout.contains("--- \"a/carriage\\rreturn.swift\"\n"))
        #expect(dry.stdout.contains("--- \"a/quote\\\"d.swift\"\n"))
        #expect(dry.stdout.contains("--- \"a/back\\\\slash.swift\"\n"))
        try scratch.write("patch.diff", data: dry.stdoutBytes)
        let applied = try CLI.run("git", ["apply", scratch.url("patch.diff").path], in: repo)
        #expect(applied.status == 0, "\(applied.stderr)")
        for name in names { #expect(try scratch.text("repo/\(name).swift") == Self.fixed, "\(name)") }
    }

    @Test func aFileNamedTwiceIsOneFile() throws {
        let scratch = try Scratch()
        try scratch.write("Sources/A.swift", Self.outlet)
        let absolute = scratch.url("Sources/A.swift").path
        try FileManager.default.createSymbolicLink(atPath: scratch.url("Linked").path, withDestinationPath: "Sources")
        let result = try CLI.swiftmod(["run", "strong-iboutlet", "Sources/A.swift", absolute, "./Sources/../Sources/A.swift",
                                       "Sources", scratch.url("Sources").path, "Linked/A.swift", "Linked"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 file scanned"))
        #expect(result.stdout.components(separatedBy: "--- a/Sources/A.swift\n").count == 2)
    }

    @Test func theNextRunRemovesStaleTemporaryFiles() throws {
        let scratch = try Scratch()
        try scratch.write("A.swift", Self.outlet)
        let gone = try scratch.write(".A.swift.swiftmod-999999999-Qq11qq", "half a file")
        let fresh = try scratch.write(".A.swift.swiftmod-Zz99zz", "maybe another tool's run, still writing")
        let result = try CLI.swiftmod(["run", "strong-iboutlet", ".", "--write"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: removed .A.swift.swiftmod-999999999-Qq11qq"))
        #expect(!FileManager.default.fileExists(atPath: gone))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(try scratch.text("A.swift") == Self.fixed)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedRunLeavesNoTemporaryFiles(signal number: Int32) throws {
        let scratch = try Scratch()
        let count = 1500
        for index in 0..<count {
            try scratch.write(String(format: "F%04d.swift", index), String(repeating: Self.outlet, count: 20))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["run", "strong-iboutlet", ".", "--write", "--jobs", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The files go in order with one job: once the first is written, the run is writing.
        let deadline = Date().addingTimeInterval(60)
        while (try? scratch.text("F0000.swift")) == String(repeating: Self.outlet, count: 20), Date() < deadline {
            usleep(2_000)
        }
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(names.filter { $0.contains(".swiftmod-") }.isEmpty)
        #expect(names.count == count)
        // Every file is either as it was or fully rewritten.
        let allowed: Set<String> = [String(repeating: Self.outlet, count: 20), String(repeating: Self.fixed, count: 20)]
        for name in names { #expect(allowed.contains(try scratch.text(name)), "\(name)") }
    }

    @Test func baselineWaitsForItsLockAndFailsClearlyWhenItIsHeld() throws {
        let scratch = try Scratch()
        try scratch.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try scratch.write("A.swift", Self.outlet)
        let lockPath = scratch.url(".swiftmod-baseline.jsonl.lock").path
        let holder = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX) == 0)
        let blocked = try CLI.swiftmod(["baseline"], in: scratch.path, environment: ["SWIFTMOD_LOCK_TIMEOUT": "0.5"])
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains(".swiftmod-baseline.jsonl.lock: locked by another swiftmod run for more than 0.5 s"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url(".swiftmod-baseline.jsonl").path))
        close(holder)
        let recorded = try CLI.swiftmod(["baseline"], in: scratch.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try scratch.text(".swiftmod-baseline.jsonl").contains("\"file\":\"A.swift\""))
        #expect(!FileManager.default.fileExists(atPath: lockPath))
    }

    @Test func concurrentPartialBaselinesKeepEachOthersEntries() throws {
        let scratch = try Scratch()
        try scratch.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try scratch.write("A.swift", Self.outlet)
        #expect(try CLI.swiftmod(["baseline"], in: scratch.path).status == 0)
        let names = (0..<6).map { "Part\($0)/P.swift" }
        for name in names { try scratch.write(name, Self.outlet) }
        let group = DispatchGroup()
        let statuses = StatusBox()
        for name in names {
            group.enter()
            DispatchQueue.global().async {
                let status = (try? CLI.swiftmod(["baseline", (name as NSString).deletingLastPathComponent], in: scratch.path))?.status ?? -1
                statuses.append(status)
                group.leave()
            }
        }
        group.wait()
        #expect(statuses.values == Array(repeating: 0, count: names.count))
        let baseline = try scratch.text(".swiftmod-baseline.jsonl")
        for name in names + ["A.swift"] { #expect(baseline.contains("\"file\":\"\(name)\""), "\(name)") }
    }
}

/// Exit statuses gathered from several threads.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int32] = []
    var values: [Int32] { lock.lock(); defer { lock.unlock() }; return statuses }
    func append(_ status: Int32) { lock.lock(); statuses.append(status); lock.unlock() }
}
