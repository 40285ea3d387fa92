import Foundation
import Testing

/// `swiftmod modules`: module types, owners and the dependency graph of a repository with
/// several SwiftPM packages and an Xcode project folder.
@Suite struct ModulesCLITests {
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", """
        migrations:
          - codemod: strong-iboutlet
        module-types:
          UI:      { modules: ["*UI"] }
          Service: { modules: ["*Service", "Services/**"], may-not-import: [UIKit, SwiftUI] }
          Logic:   { modules: ["*Logic", "*Core"], may-not-depend-on: [UI] }
          App:     { modules: ["App"] }

        """)
        try repo.write(".github/CODEOWNERS", "Packages/Feed/ @acme/feed\nServices/ @acme/platform\n")
        try repo.write("Packages/Feed/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(
            name: "Feed",
            products: [.library(name: "FeedUI", targets: ["FeedUI"])],
            dependencies: [.package(path: "../../Services")],
            targets: [
                .target(name: "FeedUI", dependencies: [
                    "FeedCore",
                    .product(name: "NetworkService", package: "Services"),
                ]),
                .target(name: "FeedCore", path: "Core"),
                .testTarget(name: "FeedTests", dependencies: [.target(name: "FeedCore")]),
            ]
        )
        """)
        try repo.write("Packages/Feed/Sources/FeedUI/FeedView.swift", """
        @testable import FeedCore
        #if canImport(UIKit)
        import UIKit
        #endif

        final class FeedView: UIView {}
        """)
        try repo.write("Packages/Feed/Core/Model.swift", "import Foundation\nstruct Model {}\n")
        try repo.write("Packages/Feed/Core/Bad.swift", "import FeedUI\n")
        try repo.write("Packages/Feed/Tests/FeedTests/ModelTests.swift", "import XCTest\n@testable import FeedCore\n")
        try repo.write("Services/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Services", targets: [.target(name: "NetworkService")])
        """)
        try repo.write("Services/Sources/NetworkService/Client.swift", """
        // A service that should not know UI.
        import UIKit
        import struct FeedCore.Model
        """)
        try repo.write("App/App.xcodeproj/project.pbxproj", "// project\n")
        try repo.write("App/Sources/AppDelegate.swift", "import FeedUI\nimport NetworkService\n// import FeedCore (a comment)\nlet s = \"import FeedCore\"\n")
        return repo
    }

    @Test func modulesHaveTypesOwnersAndDependencies() throws {
        let repo = try repository()
        let result = try CLI.swiftmod(["modules", "--format", "json"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        struct Module: Decodable {
            var name, path, source: String
            var type: String?
            var owners: [String]
            var dependencies: [Dependency]
            var imports: [String]
            struct Dependency: Decodable, Equatable { var module, kind, file: String; var line: Int }
        }
        let modules = try JSONDecoder().decode([Module].self, from: Data(result.stdout.utf8))
        let byName = Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0) })
        #expect(modules.map(\.name) == ["App", "FeedCore", "FeedTests", "FeedUI", "NetworkService"])
        #expect(byName["FeedUI"]?.type == "UI")
        #expect(byName["FeedCore"]?.type == "Logic")
        #expect(byName["NetworkService"]?.type == "Service")   // by its folder, Services/**
        #expect(byName["App"]?.type == "App")
        #expect(byName["FeedTests"]?.type == nil)
        #expect(byName["FeedCore"]?.path == "Packages/Feed/Core")
        #expect(byName["FeedUI"]?.owners == ["@acme/feed"])
        #expect(byName["NetworkService"]?.owners == ["@acme/platform"])
        // SwiftPM dependencies at their line in the manifest; imports at theirs, attributes and
        // #if included; comments and strings are not imports.
        #expect(byName["FeedUI"]?.dependencies == [
            .init(module: "FeedCore", kind: "import", file: "Packages/Feed/Sources/FeedUI/FeedView.swift", line: 1),
            .init(module: "FeedCore", kind: "package", file: "Packages/Feed/Package.swift", line: 9),
            .init(module: "NetworkService", kind: "package", file: "Packages/Feed/Package.swift", line: 10),
        ])
        #expect(byName["FeedUI"]?.imports == ["FeedCore", "UIKit"])
        #expect(byName["NetworkService"]?.dependencies.map(\.module) == ["FeedCore"])
        #expect(byName["NetworkService"]?.imports == ["FeedCore", "UIKit"])
        #expect(byName["App"]?.dependencies.map(\.module) == ["FeedUI", "NetworkService"])
        #expect(byName["FeedTests"]?.dependencies.map(\.kind) == ["import", "package"])
    }

    @Test func textAndDotShowTheSameGraph() throws {
        let repo = try repository()
        let text = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("FeedUI (UI)  Packages/Feed/Sources/FeedUI  @acme/feed\n  depends on: FeedCore (import, package), NetworkService (package)\n  imports: UIKit\n"),
                "\(text.stdout)")
        let dot = try CLI.swiftmod(["modules", "--format", "dot"], in: repo.path)
        #expect(dot.stdout.hasPrefix("digraph modules {"))
        #expect(dot.stdout.contains("\"FeedUI\" [label=\"FeedUI\\nUI\"];"))
        #expect(dot.stdout.contains("\"FeedUI\" -> \"FeedCore\";"))
        #expect(dot.stdout.contains("\"NetworkService\" -> \"FeedCore\";"))
        #expect(!dot.stdout.contains("UIKit"))
    }

    @Test func dependenciesTheTypesForbidAreViolationsAtTheirPlace() throws {
        let repo = try repository()
        let result = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  violation: Services/Sources/NetworkService/Client.swift:2: NetworkService (Service) may not import UIKit (may-not-import)\n"),
                "\(result.stdout)")
        #expect(result.stdout.contains("  violation: Packages/Feed/Core/Bad.swift:1: FeedCore (Logic) may not depend on FeedUI (UI) (may-not-depend-on)\n"),
                "\(result.stdout)")
        // FeedUI imports UIKit: allowed for its type.
        #expect(result.stdout.components(separatedBy: "violation:").count - 1 == 2, "\(result.stdout)")
        #expect(result.stderr.contains("2 violations of module types"))
        let dot = try CLI.swiftmod(["modules", "--format", "dot"], in: repo.path)
        #expect(dot.stdout.contains("\"FeedCore\" -> \"FeedUI\" [color=red];"), "\(dot.stdout)")
        #expect(dot.stdout.contains("\"FeedUI\" -> \"FeedCore\";"))
    }

    @Test func everyDependencyOnACycleIsListedOnceWithItsShortestCycle() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Big", targets: [
            .target(name: "Payments", dependencies: ["Coupons"]),
            .target(name: "Coupons"),
            .target(name: "Alpha", dependencies: ["Beta"]),
            .target(name: "Beta", dependencies: ["Gamma"]),
            .target(name: "Gamma"),
            .target(name: "Leaf", dependencies: ["Alpha"]),
        ])
        """)
        try repo.write("Sources/Coupons/C.swift", "import Payments\n")      // Payments <-> Coupons
        try repo.write("Sources/Gamma/G.swift", "import Foundation\nimport Alpha\n")  // Alpha -> Beta -> Gamma -> Alpha
        try repo.write("Sources/Leaf/L.swift", "import Alpha\n")
        let result = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        // Each module lists its dependencies on a cycle, at the place each is written: two for
        // the two-module cycle, three for the three-module one; Leaf → Alpha is on none.
        let cycles = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  cycle: ") }
        #expect(cycles == [
            "  cycle: Alpha -> Beta -> Gamma -> Alpha, closed at Package.swift:6 (package)",
            "  cycle: Beta -> Gamma -> Alpha -> Beta, closed at Package.swift:7 (package)",
            "  cycle: Coupons -> Payments -> Coupons, closed at Sources/Coupons/C.swift:1 (import)",
            "  cycle: Gamma -> Alpha -> Beta -> Gamma, closed at Sources/Gamma/G.swift:2 (import)",
            "  cycle: Payments -> Coupons -> Payments, closed at Package.swift:4 (package)",
        ], "\(result.stdout)")
        #expect(result.stdout.contains("Gamma  Sources/Gamma\n  depends on: Alpha (import)\n  imports: Foundation\n  cycle: Gamma -> Alpha -> Beta -> Gamma, closed at Sources/Gamma/G.swift:2 (import)\n"),
                "\(result.stdout)")
        #expect(result.stderr.contains("swiftmod modules: 6 modules, 0 violations of module types, 5 dependencies on cycles\n"), "\(result.stderr)")
    }

    @Test func aModuleTypeWithoutModulesIsALocatedError() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nmodule-types:\n  UI: { may-not-import: [SwiftUI] }\n")
        let result = try CLI.swiftmod(["modules"], in: repo.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains(".swiftmod.yml:4: field 'module-types.UI.modules': is required"), "\(result.stderr)")
    }

    @Test func onlyDeclaredTargetsAreModules() throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nmodule-types:\n  Kit: { modules: [\"Modules/**\"] }\n")
        try repo.write("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let coreDependency: Target.Dependency = .target(name: "Core")
        let package = Package(
            name: "Root",
            products: [.plugin(name: "GenProduct", targets: ["Gen"])],
            targets: [
                .target(name: "Core", path: "Modules/Core"),
                .target(name: "App", dependencies: [coreDependency], path: "."),
                .plugin(name: "Gen", capability: .buildTool()),
            ]
        )
        """)
        try repo.write("Modules/Core/Core.swift", "public struct Core {}\n")
        try repo.write("Sources/App/Main.swift", "@testable\nimport `Core`\nimport App\n")
        let result = try CLI.swiftmod(["modules", "--format", "json"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        struct Module: Decodable { var name, path: String; var type: String?; var imports: [String]; var dependencies: [Dependency]
            struct Dependency: Decodable { var module, kind: String; var line: Int } }
        let modules = try JSONDecoder().decode([Module].self, from: Data(result.stdout.utf8))
        // A dependency held in a variable and a plugin product are not targets.
        #expect(modules.map(\.name) == ["App", "Core", "Gen"])
        let byName = Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0) })
        #expect(byName["Core"]?.path == "Modules/Core")
        #expect(byName["Core"]?.type == "Kit")
        // `path: "."` is the package's folder, the root; a backticked import names the module, at its line.
        #expect(byName["App"]?.path == "")
        #expect(byName["App"]?.dependencies.map { "\($0.module) \($0.kind) \($0.line)" } == ["Core import 2"])
        #expect(byName["App"]?.imports == ["Core"])
    }
}
