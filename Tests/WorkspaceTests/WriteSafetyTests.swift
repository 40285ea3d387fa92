import Foundation
import Testing
@testable import Workspace
import TestSupport

/// Temporary files of interrupted runs, and paths that never resolve links.
@Suite struct WorkspaceWriteSafetyTests {
    @Test func temporaryFilesInFlightAreRemovedOnInterrupt() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.swift", "let a = 1\n")
        let (descriptor, path) = try #require(TemporaryFiles.create(in: folder.path, for: "A.swift"))
        close(descriptor)
        #expect((path as NSString).lastPathComponent.hasPrefix(".A.swift.swiftmod-\(getpid())-"))
        #expect(TemporaryFiles.removeInFlight(stop: false).contains(path))
        #expect(try folder.temporaryFiles().isEmpty)
    }

    @Test func temporaryNamesAreRecognisedStrictly() {
        #expect(TemporaryName(".A.swift.swiftmod-Ab12cD").map { [$0.original, "\($0.writer as Any)"] } == ["A.swift", "nil"])
        #expect(TemporaryName(".A.swift.swiftmod-4242-Ab12cD")?.writer == 4242)
        #expect(TemporaryName(".A.swift.swiftmod-4242-Ab12cD")?.original == "A.swift")
        for other in ["A.swift.swiftmod-Ab12cD", ".A.swift.swiftmod-Ab12c", ".A.swift.swiftmod-x-Ab12cD", ".A.swift.swp",
                      "..swiftmod-Ab12cD", ".swiftmod-Ab12cD", ".swiftmod-baseline.jsonl.lock", ".A.swift.swiftmod-1-2-Ab12cD"] {
            #expect(TemporaryName(other) == nil, "\(other)")
        }
    }

    @Test func staleTemporaryFilesOfThisToolAreRemoved() throws {
        let folder = try TemporaryFolder()
        try folder.write("A.swift", "let a = 1\n")
        let old = try folder.write(".A.swift.swiftmod-Ab12cD", "half")        // old, names no process
        let fresh = try folder.write(".A.swift.swiftmod-Zz99zz", "half")      // fresh, names no process
        let gone = try folder.write(".A.swift.swiftmod-999999999-Qq11qq", "half")  // its process is gone
        let alive = try folder.write(".A.swift.swiftmod-\(getpid())-Ww22ww", "half")  // ours, in flight
        let orphan = try folder.write(".B.swift.swiftmod-Ab12cD", "half")     // no B.swift: not ours to judge
        let unrelated = try folder.write(".A.swift.swp", "vim")
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        for path in [old, orphan, unrelated] { utimensat(AT_FDCWD, path, &times, 0) }
        let removed = TemporaryFiles.removeStale(in: [folder.path])
        #expect(removed.sorted() == [gone, old].sorted())
        for kept in [fresh, alive, orphan, unrelated] { #expect(FileManager.default.fileExists(atPath: kept)) }
    }

    @Test func displayPathsNeverResolveLinks() throws {
        let folder = try TemporaryFolder()
        let real = try folder.write("outside/O.swift", "let a = 1\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/tree", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/tree/L.swift", withDestinationPath: real)
        let display = DisplayPath(base: folder.path + "/tree")
        #expect(display(folder.path + "/tree/L.swift") == "L.swift")
        #expect(display(folder.path + "/tree/./x/../L.swift") == "L.swift")
        #expect(display(folder.path + "/tree") == ".")
        #expect(DisplayPath.lexicallyNormalized("./A//B/../C.swift") == "A/C.swift")
        #expect(DisplayPath.lexicallyNormalized("../A/./B.swift") == "../A/B.swift")
        #expect(WriteBoundary(roots: [folder.path + "/tree"]).outsideTarget(of: folder.path + "/tree/L.swift") == RepositoryPath.real(real))
        #expect(WriteBoundary(roots: [folder.path]).outsideTarget(of: folder.path + "/tree/L.swift") == nil)
    }

    @Test func outsideTargetsAgreeWithOneByOneResolution() throws {
        let folder = try TemporaryFolder()
        let real = try folder.write("outside/O.swift", "let a = 1\n")
        try folder.write("tree/In.swift", "let a = 1\n")
        try folder.write("tree/Deep/er/In.swift", "let a = 1\n")
        try folder.write("outside/sub/S.swift", "let a = 1\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/tree/L.swift", withDestinationPath: real)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/tree/Linked", withDestinationPath: folder.path + "/outside/sub")
        let boundary = WriteBoundary(roots: [RepositoryPath.real(folder.path + "/tree")!])
        // Relative paths from the working folder (never changed: tests run side by side).
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let tree = String(repeating: "../", count: depth) + folder.path.dropFirst() + "/tree/"
        let paths = [tree + "In.swift", tree + "Deep/er/In.swift", tree + "L.swift", tree + "Linked/S.swift", tree + "./Deep/../In.swift",
                     folder.path + "/tree/Linked/S.swift", folder.path + "/tree/In.swift", tree + "../outside/O.swift", tree + "Missing/X.swift"]
        let together = boundary.outsideTargets(of: paths)
        for (index, path) in paths.enumerated() {
            #expect(together[index] == boundary.outsideTarget(of: path), "\(path)")
        }
        #expect(Set(together.keys) == [2, 3, 5, 7])
    }
}
