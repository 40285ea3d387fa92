import Foundation
@testable import Migrations
import Testing


@Suite struct ModuleMapTests {
    func repository(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-modules-\(UUID().uuidString)").path
        for (path, content) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try content.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func swiftPMTargetsXcodeFoldersAndExplicitGlobs() throws {
        let root = try repository([
            "Packages/Feed/Package.swift": """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(
                name: "Feed",
                targets: [
                    .target(name: "FeedUI", dependencies: ["FeedCore"]),
                    .target(name: "FeedCore", path: "Core/Sources"),
                    .testTarget(name: "FeedTests", dependencies: [.target(name: "FeedCore")]),
                ]
            )
            """,
            "App/App.xcodeproj/project.pbxproj": "// project",
            "App/Sources/AppDelegate.swift": "",
            "Scripts/tool.swift": "",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configuration = try Configuration.parse("migrations:\n  - codemod: x\nmodules:\n  Tooling: [\"Scripts/**\"]\n",
                                                    path: root + "/.swiftmod.yml", root: root)
        let map = ModuleMap.discover(root: root, configuration: configuration)
        #expect(map.module(of: "Packages/Feed/Sources/FeedUI/FeedView.swift") == "FeedUI")
        #expect(map.module(of: "Packages/Feed/Core/Sources/Model.swift") == "FeedCore")
        // FeedCore lives in Core/Sources only: `.target(name: "FeedCore")` among FeedTests'
        // dependencies names it, it does not declare a second folder (it once did).
        #expect(map.module(of: "Packages/Feed/Sources/FeedCore/Model.swift") == ModuleMap.noModule)
        #expect(map.module(of: "Packages/Feed/Tests/FeedTests/FeedTests.swift") == "FeedTests")
        #expect(map.module(of: "App/Sources/AppDelegate.swift") == "App")
        #expect(map.module(of: "Scripts/tool.swift") == "Tooling")
        #expect(map.module(of: "Other/x.swift") == ModuleMap.noModule)
    }

    @Test func nearestFolderWins() {
        let map = ModuleMap(explicit: [], folders: [
            .init(path: "App", name: "App", source: "App/App.xcodeproj"),
            .init(path: "App/Packages/Kit/Sources/Kit", name: "Kit", source: "App/Packages/Kit/Package.swift"),
        ])
        #expect(map.module(of: "App/Packages/Kit/Sources/Kit/A.swift") == "Kit")
        #expect(map.module(of: "App/Screens/B.swift") == "App")
        #expect(map.module(of: "AppExtras/C.swift") == ModuleMap.noModule)
    }

    /// A group of modules that depend on each other holds several cycles: each dependency within
    /// it is reported once, on the module that depends, at its first place (an import before the
    /// manifest), with the shortest cycle through it; a dependency into the group is on none.
    @Test func everyDependencyWithinAGroupIsReportedWithItsShortestCycle() throws {
        let manifest = """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "P", targets: [
            .target(name: "A", dependencies: ["B"]),
            .target(name: "B", dependencies: ["A", "C"]),
            .target(name: "C", dependencies: ["A"]),
            .target(name: "D", dependencies: ["A"]),
        ])
        """
        let root = try repository(["Package.swift": manifest, "Sources/A/a.swift": "import C\n", "Sources/D/d.swift": "import B\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configuration = try Configuration.parse("migrations: []\n", path: root + "/.swiftmod.yml", root: root)
        let files = ["Sources/A/a.swift", "Sources/D/d.swift", "Package.swift"].map { root + "/" + $0 }
        let graph = ModuleGraph.discover(root: root, configuration: configuration, files: files)
        let cycles = graph.modules.flatMap { module in module.cycles.map { "\($0.modules.joined(separator: ">")) at \($0.closedBy.file):\($0.closedBy.line)" } }
        // A→B, A→C (A imports C), B→A, B→C (its shortest way back is through A), C→A; D only
        // depends on the group.
        #expect(cycles == ["A>B>A at Package.swift:4", "A>C>A at Sources/A/a.swift:1", "B>A>B at Package.swift:5",
                           "B>C>A>B at Package.swift:5", "C>A>C at Package.swift:6"])
    }
}
