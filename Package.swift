// swift-tools-version:6.0
import PackageDescription

/// Dependencies point one way: swiftmod (CLI) → LanguageServer → Tracker, Lockdown (features) → Migrations (the shared
/// migration model: configuration, findings, the scanner) → CodemodKit (engine) → SwiftTree (parser),
/// InterfaceBuilder (storyboards and xibs) and Workspace (files, paths, git, caches, parallelism; it knows nothing of Swift or codemods).
let package = Package(
    name: "swiftmod",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "swiftmod", targets: ["swiftmod"]),
        .library(name: "SwiftTree", targets: ["SwiftTree"]),
        .plugin(name: "SwiftmodCommand", targets: ["SwiftmodCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C stubs over the sources that scripts/bootstrap installs in .deps/.
        .target(
            name: "CTreeSitter",
            path: "Sources/CTreeSitter",
            cSettings: [
                .headerSearchPath("../../.deps/tree-sitter/lib/src"),
                .headerSearchPath("../../.deps/tree-sitter/lib/include"),
                .define("_POSIX_C_SOURCE", to: "200112L"),
                .define("_DEFAULT_SOURCE"),
                .unsafeFlags(["-w"]),
            ]
        ),
        .target(
            name: "CTreeSitterSwift",
            path: "Sources/CTreeSitterSwift",
            cSettings: [.unsafeFlags(["-w"])]
        ),
        // Workspace: repository root, file discovery, paths, globs, the byte reader, caches, the
        // parallel map, atomic writes and git. Foundation only: nothing here knows about codemods.
        .target(name: "Workspace"),
        // Parser frontend.
        .target(
            name: "SwiftTree",
            dependencies: ["CTreeSitter", "CTreeSitterSwift"]
        ),
        // Interface Builder files: storyboards and xibs read as objects and their connections.
        .target(name: "InterfaceBuilder"),
        // Engine: definitions, matching, edits, the safety net, diffs and atomic writes.
        .target(
            name: "CodemodKit",
            dependencies: ["SwiftTree", "InterfaceBuilder", "Workspace", .product(name: "Yams", package: "Yams")]
        ),
        // The definitions of Codemods/, embedded in the binary by a build plugin.
        .target(
            name: "BundledCodemods",
            plugins: [.plugin(name: "EmbedCodemods")]
        ),
        .executableTarget(name: "CodemodEmbedder"),
        .plugin(
            name: "EmbedCodemods",
            capability: .buildTool(),
            dependencies: ["CodemodEmbedder"]
        ),
        // The migration model shared by the features: `.swiftmod.yml`, migrations, findings and the
        // scanner (one consumer of the file pipeline for every migration), with its cache.
        .target(name: "Migrations", dependencies: ["CodemodKit", "SwiftTree", "Workspace", .product(name: "Yams", package: "Yams")]),
        // Lock-down for CI: baselines, comparison (renames, blame) and reporters.
        .target(name: "Lockdown", dependencies: ["Migrations", "CodemodKit", "SwiftTree", "Workspace"]),
        // Migration tracker: modules, CODEOWNERS, history (SQLite), progress reports.
        .target(name: "Tracker", dependencies: [
            "Migrations", "CodemodKit", "SwiftTree", "Workspace", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Where developers work: a language server for editors (diagnostics, hover, code actions).
        .target(name: "LanguageServer", dependencies: ["Lockdown", "Migrations", "CodemodKit", "BundledCodemods", "SwiftTree", "Workspace"]),
        // `swift package swiftmod …` in a package that depends on this one.
        .plugin(
            name: "SwiftmodCommand",
            capability: .command(
                intent: .custom(verb: "swiftmod", description: "Run swiftmod (check, scan, run, report, …) in the package's folder."),
                permissions: [.writeToPackageDirectory(reason: "swiftmod run --write, baseline and report --record write files in the package's folder")]
            ),
            dependencies: ["swiftmod"]
        ),
        // Command-line interface.
        .executableTarget(
            name: "swiftmod",
            dependencies: [
                "SwiftTree",
                "InterfaceBuilder",
                "Workspace",
                "CodemodKit",
                "BundledCodemods",
                "Migrations",
                "Lockdown",
                "Tracker",
                "LanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What several test suites share: temporary folders and repositories.
        .target(name: "TestSupport", dependencies: ["Migrations", "CodemodKit", "BundledCodemods", "Workspace"], path: "Tests/TestSupport"),
        .testTarget(name: "WorkspaceTests", dependencies: ["Workspace", "TestSupport"]),
        .testTarget(name: "SwiftTreeTests", dependencies: ["SwiftTree"]),
        .testTarget(name: "InterfaceBuilderTests", dependencies: ["InterfaceBuilder"]),
        .testTarget(name: "CodemodKitTests", dependencies: ["CodemodKit", "InterfaceBuilder", "Workspace", "BundledCodemods", "TestSupport"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "CodemodKit", "Workspace", "BundledCodemods", "TestSupport"]),
        .testTarget(name: "LockdownTests", dependencies: ["Lockdown", "Migrations", "CodemodKit", "Workspace", "BundledCodemods", "TestSupport"]),
        .testTarget(name: "TrackerTests", dependencies: ["Tracker", "Migrations", "Workspace"]),
        // End-to-end tests of the built `swiftmod` binary (`swift build --build-tests` builds it).
        .testTarget(name: "SwiftmodCLITests", dependencies: ["SwiftTree", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
