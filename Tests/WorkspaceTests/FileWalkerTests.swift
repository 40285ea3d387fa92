import Foundation
import Testing
@testable import Workspace
import TestSupport

@Suite struct FileWalkerTests {
    @Test func findsSwiftFilesAndSkipsTheRest() throws {
        let folder = try TemporaryFolder()
        for file in ["App/A.swift", "App/Nested/B.swift", "App/readme.md", ".hidden/C.swift", "App/.build/D.swift",
                     "Pods/E.swift", "Carthage/F.swift", "App/Generated/G.swift", "App/.H.swift", ".git/I.swift",
                     "App/Package.swift", "App/.build/workspace-state.json", "Podfile", "Pods/Manifest.lock", "Cartfile",
                     "Carthage/Checkouts/K.swift", "Sub/Pods/J.swift", "Sub/Podfile", "Lib/.git", "Lib/L.swift"] {
            try folder.write(file, "let x = 1\n")
        }
        let walk = try FileWalker().walk([folder.path])
        let found = walk.files.map { String($0.dropFirst(folder.path.count + 1)) }
        // Build output and checkouts beside their tool's file are skipped and named; hidden
        // folders and files, and folders merely named like checkouts, are walked.
        #expect(found == [".hidden/C.swift", "App/.H.swift", "App/A.swift", "App/Generated/G.swift", "App/Nested/B.swift",
                          "App/Package.swift", "Sub/Pods/J.swift"])
        // Sub/Pods has a Podfile beside it but no Manifest.lock: CocoaPods did not put it there.
        #expect(walk.skippedFolders.map { String($0.path.dropFirst(folder.path.count + 1)) } == ["App/.build", "Carthage", "Lib", "Pods"])
    }

    @Test func honoursGitignore() throws {
        let folder = try TemporaryFolder()
        guard Git.run(["init", "-q"], in: folder.path) != nil else { return }
        try folder.write(".gitignore", "Generated/\n*.generated.swift\n")
        for file in ["A.swift", "Generated/B.swift", "C.generated.swift", "Sub/D.swift"] {
            try folder.write(file, "let x = 1\n")
        }
        let found = try FileWalker().swiftFiles(under: [folder.path]).map { String($0.dropFirst(folder.path.count + 1)) }
        #expect(found == ["A.swift", "Sub/D.swift"])
        // A file named on the command line is taken even when ignored.
        let explicit = (folder.path as NSString).appendingPathComponent("C.generated.swift")
        #expect(try FileWalker().swiftFiles(under: [explicit]) == [explicit])
    }

    @Test func missingPathIsAnError() {
        #expect(throws: FileWalker.MissingPathError.self) { try FileWalker().swiftFiles(under: ["/no/such/place"]) }
    }
}

/// Paths standardized folder by folder (`PathStandardizer`) read as `standardizingPath` reads
/// them whole: `.` and `..` taken out, a linked folder resolved, the name kept.
@Suite struct PathStandardizerTests {
    @Test func aPathReadsAsStandardizingPathReadsIt() throws {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("swiftmod-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real/inner", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        // A relative link below a folder, a link to a link, and a link to a place that is not.
        try FileManager.default.createDirectory(atPath: root + "/other/deep", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/real/inner/rel", withDestinationPath: "../../other")
        try FileManager.default.createSymbolicLink(atPath: root + "/twice", withDestinationPath: "link")
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/gone")
        let standardizer = PathStandardizer()
        let paths = [root + "/real/inner/../A.swift", root + "/link/inner/B.swift", root + "/link/inner/C.swift", root + "/./real//D.swift",
                     root + "/real/inner/..", root + "/real/", "/Top.swift", root + "/link/inner/B.swift",
                     root + "/real/inner/rel/deep/E.swift", root + "/link/inner/rel/deep/F.swift", root + "/twice/inner/G.swift",
                     root + "/dangling/H.swift", root + "/missing/folder/I.swift", root + "/real/inner/rel/../J.swift"]
        for path in paths {
            #expect(standardizer.standardized(path) == (path as NSString).standardizingPath, "\(path)")
        }
        #expect(standardizer.standardized(root + "/link/inner/B.swift").hasSuffix("/real/inner/B.swift"))
    }
}
