import Foundation
import Testing
@testable import Workspace
import TestSupport

/// The pieces every command stands on: caches, globs, root discovery, the parallel map, git's
/// changed files and the manifest search.
@Suite struct CacheFileTests {
    @Test func aPayloadReadsBackOnlyWhenIntact() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/cache/c.bin"
        var writer = ByteWriter()
        writer.write("Sources/ü 😀.swift")
        writer.write(-42)
        writer.write(3.25)
        writer.write(true)
        writer.write(Int?.none)
        writer.write(Int?.some(7))
        CacheFile.write(path, format: "f-1", key: "k", payload: writer.bytes)
        let payload = try #require(CacheFile.read(path, format: "f-1", key: "k"))
        var reader = ByteReader(payload)
        #expect(try reader.readString() == "Sources/ü 😀.swift")
        #expect(try reader.readInt() == -42)
        #expect(try reader.readDouble() == 3.25)
        #expect(try reader.readBool())
        #expect(try reader.readOptionalInt() == nil)
        #expect(try reader.readOptionalInt() == 7)
        #expect(reader.isAtEnd)
        #expect(throws: ByteReader.Truncated.self) { try reader.readInt() }
        // Another format or key, an altered byte, a truncated file: nothing.
        #expect(CacheFile.read(path, format: "f-2", key: "k") == nil)
        #expect(CacheFile.read(path, format: "f-1", key: "other") == nil)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[bytes.count - 3] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(CacheFile.read(path, format: "f-1", key: "k") == nil)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(CacheFile.read(path, format: "f-1", key: "k") == nil)
    }

    @Test func aStringLengthPastTheEndIsTruncationNotACrash() throws {
        var writer = ByteWriter()
        writer.write(1_000_000)
        var reader = ByteReader(writer.bytes + [1, 2, 3])
        #expect(throws: ByteReader.Truncated.self) { try reader.readString() }
        var negative = ByteReader(ByteWriter().bytes)
        #expect(throws: ByteReader.Truncated.self) { try negative.readString() }
        // A length so large that adding it to the offset would overflow (a damaged cache whose
        // checksum still matches): truncation, not a trap.
        var huge = ByteWriter()
        huge.write(7)
        huge.write(Int.max)
        for read in [{ (reader: inout ByteReader) in _ = try reader.readString() }, { (reader: inout ByteReader) in _ = try reader.readBytes() }] {
            var reader = ByteReader(huge.bytes + [1, 2, 3])
            #expect(try reader.readInt() == 7)
            #expect(throws: ByteReader.Truncated.self) { try read(&reader) }
        }
        var bytes = ByteWriter()
        bytes.write(bytes: [1, 2, 3])
        var whole = ByteReader(bytes.bytes)
        #expect(try whole.readBytes() == [1, 2, 3])
        #expect(whole.isAtEnd)
    }

    @Test func aStampRoundTrips() throws {
        let stamp = FileStamp(size: 12, modified: 1_700_000_000.123456789, changed: 1_700_000_001.5, inode: .max, device: 9)
        var writer = ByteWriter()
        stamp.write(to: &writer)
        var reader = ByteReader(writer.bytes)
        #expect(try FileStamp(from: &reader) == stamp)
    }
}

@Suite struct GlobTests {
    @Test func anchoredPatternsMatchFromTheRoot() throws {
        #expect(try Glob("Sources/**/*.swift").matches("Sources/A/B.swift"))
        #expect(try Glob("Sources/**/*.swift").matches("Sources/B.swift"))
        #expect(try !Glob("Sources/*.swift").matches("Sources/A/B.swift"))
        #expect(try Glob("Pods").matches("Pods/X/Y.swift"))
        #expect(try !Glob("Pods").matches("App/Pods/Y.swift"))
        #expect(try Glob("/App/?.swift").matches("App/A.swift"))
        #expect(try !Glob("App/?.swift").matches("App/AB.swift"))
        #expect(try Glob("a+b (1).swift").matches("a+b (1).swift"))
    }

    @Test func gitignorePatternsFollowCodeOwnersRules() throws {
        #expect(try Glob("*.swift", syntax: .gitignore).matches("Deep/In/A.swift"))
        #expect(try Glob("Feed", syntax: .gitignore).matches("Packages/Feed/A.swift"))
        #expect(try !Glob("/Feed", syntax: .gitignore).matches("Packages/Feed/A.swift"))
        #expect(try Glob("docs/*", syntax: .gitignore).matches("docs/a.md"))
        #expect(try !Glob("docs/*", syntax: .gitignore).matches("docs/x/a.md"))
        #expect(try Glob("build/", syntax: .gitignore).matches("x/build/a.swift"))
        #expect(try !Glob("build/", syntax: .gitignore).matches("x/build"))
        #expect(try Glob("**", syntax: .gitignore).matches("anything/at/all"))
    }

    @Test func oddNamesAndManyStarsMatchQuickly() throws {
        #expect(try Glob("**/*.swift").matches("a\nb/new\nline.swift"))
        #expect(try Glob("?.swift").matches("é.swift"))
        #expect(try Glob("??.swift").matches("😀x.swift"))
        #expect(try Glob("(a)[b]{c}+.swift").matches("(a)[b]{c}+.swift"))
        #expect(try !Glob("a.swift").matches("aXswift"))
        let long = String(repeating: "a", count: 200) + ".swift"
        let stars = try Glob("*a*a*a*a*a*a*a*a*a*a*b")
        // Without remembering the positions tried, this would take longer than anyone waits.
        #expect(!stars.matches(long))
        #expect(try Glob("**/**/**/**/x/**").matches(String(repeating: "d/", count: 60) + "x/y.swift"))
    }
}

@Suite struct RootDiscoveryTests {
    @Test func findsTheNearestFileAbove() throws {
        let folder = try TemporaryFolder()
        try folder.write("repo/.swiftmod.yml", "migrations: []\n")
        try folder.write("repo/Sources/Deep/A.swift", "let a = 1\n")
        let found = RootDiscovery.nearest(".swiftmod.yml", from: folder.path + "/repo/Sources/Deep")
        #expect(found.map { ($0 as NSString).resolvingSymlinksInPath } == (folder.path + "/repo/.swiftmod.yml" as NSString).resolvingSymlinksInPath)
        #expect(RootDiscovery.nearest("no-such-\(UUID().uuidString).yml", from: folder.path) == nil)
    }
}

@Suite struct ParallelMapTests {
    @Test func keepsTheOrderAndMakesOneWorkerPerThread() {
        final class Worker: @unchecked Sendable { var items = 0 }
        let made = NSLock()
        nonisolated(unsafe) var workers: [Worker] = []
        let items = Array(0..<1_000)
        let doubled = ParallelMap.map(items, jobs: 3, worker: { () -> Worker in
            let worker = Worker()
            made.lock(); workers.append(worker); made.unlock()
            return worker
        }) { worker, item in
            worker.items += 1
            return item * 2
        }
        #expect(doubled == items.map { $0 * 2 })
        #expect((1...3).contains(workers.count))
        #expect(workers.map(\.items).reduce(0, +) == items.count)
        #expect(ParallelMap.map([Int](), jobs: 2, worker: { 0 }) { _, item in item }.isEmpty)
    }
}

@Suite struct DiscoveryTests {
    @Test func manifestsAndProjectsAreFoundByTheWalksRules() throws {
        let folder = try TemporaryFolder()
        for file in ["Package.swift", "Packages/Feed/Package.swift", ".build/checkouts/X/Package.swift",
                     "Pods/Y/Package.swift", "Podfile", "Pods/Manifest.lock", "App/App.xcodeproj/project.pbxproj", "App/App.xcodeproj/Inner/Package.swift"] {
            try folder.write(file, "// x\n")
        }
        let manifests = FileWalker().entries(under: folder.path, named: { $0 == "Package.swift" })
        #expect(manifests.map { String($0.dropFirst(folder.path.count + 1)) } == ["Package.swift", "Packages/Feed/Package.swift"])
        let projects = FileWalker().entries(under: folder.path, named: { $0.hasSuffix(".xcodeproj") }, folders: true)
        #expect(projects.map { String($0.dropFirst(folder.path.count + 1)) } == ["App/App.xcodeproj"])
    }

    @Test func changedFilesFollowTheWalksRules() throws {
        let folder = try TemporaryFolder()
        let root = folder.path
        guard Git.run(["init", "-q"], in: root) != nil else { return }
        try folder.write("A.swift", "let a = 1\n")
        try folder.write("B.swift", "let b = 1\n")
        _ = Git.run(["add", "."], in: root)
        _ = Git.run(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], in: root)
        try folder.write("A.swift", "let a = 2\n")                 // changed
        try folder.write("Sub/New.swift", "let n = 1\n")           // untracked
        try folder.write("Podfile", "target 'App'\n")
        try folder.write("Pods/Manifest.lock", "PODFILE CHECKSUM: 1\n")
        try folder.write("Pods/P.swift", "let p = 1\n")            // CocoaPods' checkouts: skipped
        try folder.write("Sub/Pods/Q.swift", "let q = 1\n")        // no Podfile beside: a team's
        try folder.write(".hidden/H.swift", "let h = 1\n")         // a hidden folder: checked
        try folder.write("notes.md", "x\n")                        // not Swift
        try FileManager.default.removeItem(atPath: root + "/B.swift")  // gone
        #expect(FileWalker().swiftFiles(changedSince: "HEAD", root: root) == [".hidden/H.swift", "A.swift", "Sub/New.swift", "Sub/Pods/Q.swift"])
        #expect(FileWalker().swiftFiles(changedSince: "HEAD", root: root, under: ["Sub"]) == ["Sub/New.swift", "Sub/Pods/Q.swift"])
        #expect(FileWalker().changes(since: "HEAD", root: root)?.skipped.map(\.path) == ["Pods"])
        #expect(FileWalker().swiftFiles(changedSince: "no-such-revision", root: root) == nil)
        #expect(FileWalker.skippedFolder(of: "Pods/x.swift", root: root)?.path == "Pods")
        #expect(FileWalker.skippedFolder(of: "Sub/Pods/x.swift", root: root) == nil)
        #expect(FileWalker.skippedFolder(of: ".x.swift", root: root) == nil)
    }
}

@Suite struct RepositoryPathTests {
    @Test func cleanPathsAreToldByTheirText() {
        for clean in ["/a/b.swift", "/a/.hidden/b.swift", "/a/..b/c", "/a/b...", "/a/b./c"] {
            #expect(RepositoryPath.isClean(clean.utf8), "\(clean)")
        }
        for unclean in ["/a/./b.swift", "/a/../b.swift", "/a//b.swift", "/a/b/..", "/a/b/.", "/a/b/"] {
            #expect(!RepositoryPath.isClean(unclean.utf8), "\(unclean)")
        }
    }

    @Test func relativePathsAgreeWhateverTheSpelling() {
        #expect(RepositoryPath.relative("/repo/Sources/A.swift", root: "/repo") == "Sources/A.swift")
        #expect(RepositoryPath.relative("/repo/Sources/../Sources/./A.swift", root: "/repo") == "Sources/A.swift")
        #expect(RepositoryPath.relative("/repo//Sources/A.swift", root: "/repo/") == "Sources/A.swift")
        #expect(RepositoryPath.relative("/other/A.swift", root: "/repo") == nil)
        #expect(RepositoryPath.relative("/repository/A.swift", root: "/repo") == nil)
    }
}

/// Git is run with posix_spawn and waitpid: output of any size, input, failures.
@Suite struct GitRunTests {
    @Test func outputOfAnySizeInputAndFailuresAreReportedFaithfully() throws {
        // More than a pipe holds (64 KB): read while the program writes, so it never blocks.
        let big = try #require(Git.spawn(["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x"], input: -1))
        #expect(big.count == 300_000)
        #expect(big.allSatisfy { $0 == UInt8(ascii: "x") })
        // Standard input is given through a file.
        let folder = try TemporaryFolder()
        if Git.run(["init", "-q"], in: folder.path) != nil {
            let hashed = try #require(Git.run(["hash-object", "--stdin"], in: folder.path, input: Array("hello\n".utf8)))
            #expect(String(decoding: hashed, as: UTF8.self).hasPrefix("ce013625030ba8dba906f756967f9e9ca394464a"))
        }
        // A failing command, a missing program and a program killed by a signal give nil.
        #expect(Git.spawn(["sh", "-c", "echo partial; exit 3"], input: -1) == nil)
        #expect(Git.spawn(["no-such-program-\(UUID().uuidString)"], input: -1) == nil)
        #expect(Git.spawn(["sh", "-c", "kill -9 $$"], input: -1) == nil)
        // Without input, the program reads an empty standard input (never the terminal).
        #expect(Git.spawn(["sh", "-c", "cat; echo done"], input: -1).map { String(decoding: $0, as: UTF8.self) } == "done\n")
    }
}
