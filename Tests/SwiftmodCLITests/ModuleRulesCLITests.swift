import Foundation
import Testing

/// Module rules as migrations, end to end through the built binary, on a generated repository:
/// 30 SwiftPM packages of 1–3 targets (`*Core`, `*Service`, `*UI`), a legacy package, two feature
/// packages (`Features/*`) and an Xcode project folder, in git. Each rule kind is found at its
/// place (a cycle: every dependency on it); the lock-down (`baseline`, `check`, `--changed-since`), allow comments, every output
/// format, `report` and configuration errors are checked against exact expectations.
@Suite struct ModuleRulesCLITests {
    static let config = """
    migrations: []
    module-types:
      UI:      { modules: ["*UI"] }
      Service: { modules: ["*Service", "Services/**"], may-not-import: [UIKit, SwiftUI], priority: P1, deadline: 2027-06-30 }
      Logic:   { modules: ["*Logic", "*Core"], may-not-depend-on: [UI, LegacyKit] }
      Feature: { modules: ["Features/*"], may-not-depend-on: [Feature] }
    rules:
      - id: no-cycles
        kind: cycles
        priority: P1

    """

    /// The packages of `Packages/`: package `i` has a `Core` target, a `Service` when `i % 3 != 0`
    /// and a `UI` when `i % 3 == 2`.
    static let domains = [
        "Base", "Profile", "Search", "Cart", "Wallet", "Orders", "Shipping", "Tracking", "Coupons", "Payments",
        "Inbox", "Account", "Settings", "Media", "Maps", "Chat", "Rewards", "Reviews", "Catalog", "Auth",
        "Analytics", "Billing", "Calendar", "Camera", "Contacts", "Delivery", "Events", "Gallery", "Help", "Notes",
    ]

    /// Extra SwiftPM dependencies of some targets (element, package path).
    static let extraDependencies: [String: [(element: String, package: String)]] = [
        // A Logic module on a UI module, in the manifest only.
        "WalletCore": [(".product(name: \"OrdersUI\", package: \"Orders\")", "../Orders")],
        // One half of the two-module cycle.
        "CouponsCore": [(".product(name: \"PaymentsCore\", package: \"Payments\")", "../Payments")],
    ]

    // MARK: - The generated repository

    static func manifest(_ index: Int) -> String {
        let domain = domains[index]
        var targets = ["\(domain)Core"]
        if index % 3 != 0 { targets.append("\(domain)Service") }
        if index % 3 == 2 { targets.append("\(domain)UI") }
        var packages = index == 0 ? [] : ["../Base"]
        var text = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "\(domain)",
            platforms: [.iOS(.v16), .macOS(.v13)],
            products: [
        \(targets.map { "        .library(name: \"\($0)\", targets: [\"\($0)\"]),\n" }.joined())    ],

        """
        var body = "    targets: [\n"
        for target in targets {
            var dependencies: [String] = []
            if target.hasSuffix("Core") {
                if index != 0 { dependencies.append(".product(name: \"BaseCore\", package: \"Base\")") }
            } else {
                dependencies.append("\"\(domain)Core\"")
                if target.hasSuffix("UI") { dependencies.append(".target(name: \"\(domain)Service\")") }
            }
            for extra in extraDependencies[target] ?? [] {
                dependencies.append(extra.element)
                packages.append(extra.package)
            }
            if dependencies.isEmpty {
                body += "        .target(name: \"\(target)\"),\n"
            } else {
                body += "        .target(\n            name: \"\(target)\",\n            dependencies: [\n"
                body += dependencies.map { "                \($0),\n" }.joined()
                body += "            ]\n        ),\n"
            }
        }
        if index % 4 == 0 {
            body += "        .testTarget(name: \"\(domain)CoreTests\", dependencies: [\"\(domain)Core\"]),\n"
        }
        body += "    ]\n)\n"
        text += "    dependencies: [\n" + packages.map { "        .package(path: \"\($0)\"),\n" }.joined() + "    ],\n"
        return text + body
    }

    static func source(_ target: String, domain: String, index: Int) -> String {
        if target.hasSuffix("Core") {
            return """
            //
            //  \(target).swift
            //  \(domain)
            //
            import Foundation
            \(index == 0 ? "" : "import BaseCore\n")
            /// One \(domain.lowercased()) item.
            public struct \(domain)Item: Identifiable, Equatable, Sendable {
                public var id: UUID
                public var title: String

                public init(id: UUID = UUID(), title: String) {
                    self.id = id
                    self.title = title
                }
            }

            """
        }
        if target.hasSuffix("Service") {
            return """
            import Foundation
            import \(domain)Core

            /// Loads \(domain.lowercased()) items from the backend.
            public final class \(domain)Client: @unchecked Sendable {
                private let session: URLSession

                public init(session: URLSession = .shared) { self.session = session }

                public func items() async throws -> [\(domain)Item] {
                    let (data, _) = try await session.data(from: URL(string: "https://api.example.com/\(domain.lowercased())")!)
                    return data.isEmpty ? [] : [\(domain)Item(title: "\\(data.count) bytes")]
                }
            }

            """
        }
        return """
        #if canImport(UIKit)
        import UIKit
        #endif
        import SwiftUI
        import \(domain)Core
        import \(domain)Service

        public struct \(domain)List: View {
            public var items: [\(domain)Item]

            public var body: some View {
                List(items) { item in Text(item.title) }
            }
        }

        """
    }

    /// The repository (not yet committed) with its ten findings: five violations of module types
    /// and the five dependencies of its two cycles (2 + 3).
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.git(["init", "-q"])
        try repo.write(".gitignore", ".swiftmod/\n.build/\n")
        try repo.write(".swiftmod.yml", Self.config)
        try repo.write(".github/CODEOWNERS", """
        /Packages/           @acme/platform
        /Packages/Wallet/    @acme/payments
        /Packages/Payments/  @acme/payments
        /Features/           @acme/growth
        /App/                @acme/app

        """)
        for (index, domain) in Self.domains.enumerated() {
            try repo.write("Packages/\(domain)/Package.swift", Self.manifest(index))
            var targets = ["\(domain)Core"]
            if index % 3 != 0 { targets.append("\(domain)Service") }
            if index % 3 == 2 { targets.append("\(domain)UI") }
            for target in targets {
                try repo.write("Packages/\(domain)/Sources/\(target)/\(target).swift", Self.source(target, domain: domain, index: index))
            }
            if index % 4 == 0 {
                try repo.write("Packages/\(domain)/Tests/\(domain)CoreTests/\(domain)CoreTests.swift", """
                import XCTest
                @testable import \(domain)Core

                final class \(domain)CoreTests: XCTestCase {
                    func testTitle() { XCTAssertEqual(\(domain)Item(title: "a").title, "a") }
                }

                """)
            }
        }
        try repo.write("Packages/Legacy/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Legacy", products: [.library(name: "LegacyKit", targets: ["LegacyKit"])], targets: [.target(name: "LegacyKit")])

        """)
        try repo.write("Packages/Legacy/Sources/LegacyKit/LegacyToken.swift", "public struct LegacyToken { public var raw: String }\n")

        // may-not-import: a Service imports UIKit (inside #if); what only looks like imports is none.
        try repo.write("Packages/Profile/Sources/ProfileService/ProfileImages.swift", #"""
        // Profile images are still drawn with UIKit.
        import Foundation
        #if canImport(UIKit)
        import UIKit
        #endif
        import ProfileCore

        /* Not imports:
           import SwiftUI
           /* import UIKit (nested) */
        */
        // import SwiftUI
        let snippet = "import UIKit"
        let template = """
            import UIKit
            import SwiftUI
            """
        let raw = #"import "UIKit""#
        let interpolated = "\("import SwiftUI")"
        let pattern = #/import\s+UIKit/#

        """#)
        // may-not-depend-on a type: a Logic module imports a UI module (@testable).
        try repo.write("Packages/Cart/Sources/CartCore/CartPreview.swift", """
        import Foundation
        @testable import SearchUI

        /// A cart as search results show it.
        struct CartPreview {}

        """)
        // may-not-depend-on a module by name, in a file with CRLF line endings.
        try repo.write("Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift", [
            "// Labels printed by the legacy backend.", "import Foundation", "import struct LegacyKit.LegacyToken", "",
            "struct LegacyLabel { let token: LegacyToken }", "",
        ].joined(separator: "\r\n"))
        // The three-module cycle: Orders → Shipping → Tracking → Orders.
        try repo.write("Packages/Orders/Sources/OrdersCore/OrderRouting.swift", "import Foundation\nimport ShippingCore\n\nenum OrderRouting {}\n")
        try repo.write("Packages/Shipping/Sources/ShippingCore/ShipmentStatus.swift", "import TrackingCore\n\nenum ShipmentStatus {}\n")
        try repo.write("Packages/Tracking/Sources/TrackingCore/TrackingEvents.swift", "import Foundation\nimport OrdersCore\n\nenum TrackingEvent {}\n")
        // The two-module cycle: CouponsCore depends on PaymentsCore in its manifest, PaymentsCore imports it.
        try repo.write("Packages/Payments/Sources/PaymentsCore/Refunds.swift", "import Foundation\nimport CouponsCore\n\nenum Refunds {}\n")
        // Edges that a later change turns into cycles.
        try repo.write("Packages/Inbox/Sources/InboxCore/InboxAccount.swift", "import AccountCore\n\nenum InboxAccount {}\n")
        try repo.write("Packages/Events/Sources/EventsCore/EventCalendar.swift", "import Foundation\nimport CalendarCore\n\nenum EventCalendar {}\n")

        // Features: a Feature may not depend on another Feature.
        try repo.write("Features/Discover/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(
            name: "Discover",
            dependencies: [.package(path: "../../Packages/Search")],
            targets: [
                .target(name: "DiscoverFeature", dependencies: [.product(name: "SearchUI", package: "Search")]),
            ]
        )

        """)
        try repo.write("Features/Discover/Sources/DiscoverFeature/DiscoverScreen.swift", "import SwiftUI\nimport SearchUI\n\nstruct DiscoverScreen {}\n")
        try repo.write("Features/Checkout/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Checkout", targets: [.target(name: "CheckoutFeature")])

        """)
        try repo.write("Features/Checkout/Sources/CheckoutFeature/CheckoutFlow.swift", """
        import SwiftUI
        import CartCore
        import DiscoverFeature

        struct CheckoutFlow {}

        """)

        // The app: an Xcode project folder (no type: it may depend on anything).
        try repo.write("App/App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objects = {}; }\n")
        try repo.write("App/Sources/ShopApp.swift", """
        // 🛍️ The shop: composes the features.
        import SwiftUI
        import SearchUI
        import OrdersUI
        import CheckoutFeature
        import ProfileService

        @main
        struct ShopApp: App {
            var body: some Scene { WindowGroup { Text("Welcome 👋🏽") } }
        }

        """)
        return repo
    }

    /// The repository with a baseline of its findings, committed.
    func baselinedRepository() throws -> Scratch {
        let repo = try repository()
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("Recorded 10 uses in .swiftmod-baseline.jsonl (module-type.Feature: 1, module-type.Logic: 3, module-type.Service: 1, no-cycles: 5)."),
                "\(recorded.stdout)")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "baseline"])
        return repo
    }

    // MARK: - Helpers

    struct Output: Decodable {
        var mode: String
        var findings: [Item]
        var summary: Summary
        struct Item: Decodable {
            var kind, migration, codemod, file: String
            var line, column, characterColumn: Int
            var text, scope, message: String
            var module, detail, priority, deadline: String?
        }
        struct Summary: Decodable {
            var findings, allowedByBaseline, allowedInline, fixedSinceBaseline: Int
            var text: String
        }
    }

    func decode(_ result: CLI.Result) throws -> Output {
        do {
            return try JSONDecoder().decode(Output.self, from: result.stdoutBytes)
        } catch {
            Issue.record("not the JSON report: \(error)\n\(result.stdout)\n\(result.stderr)")
            throw error
        }
    }

    /// The 1-based line of the one line of a file that contains `needle`.
    func line(_ repo: Scratch, _ file: String, _ needle: String) throws -> Int {
        let lines = try repo.text(file).components(separatedBy: "\n")
        let found = lines.indices.filter { lines[$0].contains(needle) }
        try #require(found.count == 1, "\(file): \(found.count) lines hold \(needle)")
        return found[0] + 1
    }

    /// One finding as `migration file:line:column text | module | detail` (a use) or
    /// `kind file:line text` (an allow comment problem).
    func describe(_ item: Output.Item) -> String {
        item.kind == "use"
            ? "\(item.migration) \(item.file):\(item.line):\(item.column) \(item.text) | \(item.module ?? "-") | \(item.detail ?? "-")"
            : "\(item.kind) \(item.migration) \(item.file):\(item.line) \(item.text)"
    }

    /// The error lines of text output.
    func errors(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.contains(": error: ") }
    }

    /// The ten findings of `repository()`: every dependency on a cycle is one, at the first place
    /// it is written (an import, or the manifest's dependency), named `A → B`.
    func expectedFindings(_ repo: Scratch) throws -> [String] {
        let wallet = "Packages/Wallet/Package.swift"
        let walletLine = try line(repo, wallet, "\"OrdersUI\"")
        let coupons = "Packages/Coupons/Package.swift"
        let couponsLine = try line(repo, coupons, "\"PaymentsCore\"")
        return [
            "module-type.Feature Features/Checkout/Sources/CheckoutFeature/CheckoutFlow.swift:3:8 import DiscoverFeature | CheckoutFeature | CheckoutFeature (Feature) may not depend on DiscoverFeature (Feature)",
            "module-type.Logic Packages/Cart/Sources/CartCore/CartPreview.swift:2:18 import SearchUI | CartCore | CartCore (Logic) may not depend on SearchUI (UI)",
            "no-cycles \(coupons):\(couponsLine):17 CouponsCore → PaymentsCore | CouponsCore | CouponsCore → PaymentsCore is on the dependency cycle CouponsCore → PaymentsCore → CouponsCore",
            "no-cycles Packages/Orders/Sources/OrdersCore/OrderRouting.swift:2:8 OrdersCore → ShippingCore | OrdersCore | OrdersCore → ShippingCore is on the dependency cycle OrdersCore → ShippingCore → TrackingCore → OrdersCore",
            "no-cycles Packages/Payments/Sources/PaymentsCore/Refunds.swift:2:8 PaymentsCore → CouponsCore | PaymentsCore | PaymentsCore → CouponsCore is on the dependency cycle PaymentsCore → CouponsCore → PaymentsCore",
            "module-type.Service Packages/Profile/Sources/ProfileService/ProfileImages.swift:4:8 import UIKit | ProfileService | ProfileService (Service) may not import UIKit",
            "module-type.Logic Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift:3:15 import struct LegacyKit.LegacyToken | ShippingCore | ShippingCore (Logic) may not depend on LegacyKit",
            "no-cycles Packages/Shipping/Sources/ShippingCore/ShipmentStatus.swift:1:8 ShippingCore → TrackingCore | ShippingCore | ShippingCore → TrackingCore is on the dependency cycle ShippingCore → TrackingCore → OrdersCore → ShippingCore",
            "no-cycles Packages/Tracking/Sources/TrackingCore/TrackingEvents.swift:2:8 TrackingCore → OrdersCore | TrackingCore | TrackingCore → OrdersCore is on the dependency cycle TrackingCore → OrdersCore → ShippingCore → TrackingCore",
            // A manifest's dependency is named by its simplest spelling.
            "module-type.Logic \(wallet):\(walletLine):17 \"OrdersUI\" | WalletCore | WalletCore (Logic) may not depend on OrdersUI (UI)",
        ]
    }

    // MARK: - 1. Each rule kind

    @Test func eachRuleKindIsFoundOnceAtItsPlace() throws {
        let repo = try repository()
        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: repo.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        let output = try decode(scan)
        #expect(output.findings.map(describe) == (try expectedFindings(repo)))
        #expect(output.findings.allSatisfy { $0.codemod == "module-rules" })
        // A manifest's forbidden dependency is told apart by its target; an import needs no scope,
        // nor a dependency on a cycle (one of a kind, wherever it is written).
        #expect(output.findings.map(\.scope) == ["", "", "", "", "", "", "", "", "", "WalletCore"])
        #expect(output.summary.text == "10 uses of 4 migrations", "\(output.summary.text)")

        // The text report says which rule and what is wrong, and how to fix it.
        let text = try CLI.swiftmod(["scan"], in: repo.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("""
        Packages/Profile/Sources/ProfileService/ProfileImages.swift:4:8: warning: violation of module rule 'module-type.Service' (P1, due 2027-06-30): ProfileService (Service) may not import UIKit
            why: module type Service keeps the codebase's shape: its modules may not import UIKit, SwiftUI
            fix: remove the import, or move the code that needs it to a module allowed to depend on it

        """), "\(text.stdout)")
        #expect(text.stdout.contains("Packages/Tracking/Sources/TrackingCore/TrackingEvents.swift:2:8: warning: violation of module rule 'no-cycles' (P1): TrackingCore → OrdersCore is on the dependency cycle TrackingCore → OrdersCore → ShippingCore → TrackingCore\n"),
                "\(text.stdout)")
        #expect(text.stdout.contains("Packages/Coupons/Package.swift:21:17: warning: violation of module rule 'no-cycles' (P1): CouponsCore → PaymentsCore is on the dependency cycle CouponsCore → PaymentsCore → CouponsCore\n"),
                "\(text.stdout)")
        #expect(text.stdout.contains("fix: remove this dependency or another on the cycle (each breaks it), or move what both modules need into a module of its own\n"), "\(text.stdout)")
        #expect(text.stdout.contains("fix: remove the dependency from target WalletCore, or move the code that needs it\n"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: ": warning: ").count - 1 == 10)

        // The Xcode project folder is a module (of no type: it may depend on anything).
        let modules = try CLI.swiftmod(["modules", "--format", "json"], in: repo.path)
        #expect(modules.status == 0, "\(modules.stderr)")
        struct Module: Decodable { var name, path, source: String; var type: String?; var dependencies: [Dependency]
            struct Dependency: Decodable { var module: String } }
        let all = try JSONDecoder().decode([Module].self, from: modules.stdoutBytes)
        // 30 packages of 1, 2 or 3 targets, 8 test targets, LegacyKit, two features, the app.
        #expect(all.count == 10 * 6 + 8 + 1 + 2 + 1)
        let app = try #require(all.first { $0.name == "App" })
        #expect(app.path == "App")
        #expect(app.source == "App/App.xcodeproj")
        #expect(app.type == nil)
        #expect(app.dependencies.map(\.module) == ["CheckoutFeature", "OrdersUI", "ProfileService", "SearchUI"])
        #expect(all.first { $0.name == "CheckoutFeature" }?.type == "Feature")
        #expect(all.first { $0.name == "LegacyKit" }?.type == nil)
    }

    // MARK: - 2. Baseline, then history

    @Test func checkFailsOnlyOnANewViolation() throws {
        let repo = try baselinedRepository()
        let clean = try CLI.swiftmod(["check"], in: repo.path)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stderr.contains("no new uses (10 allowed by the baseline)"), "\(clean.stderr)")

        // A commit that only moves imports within their files: a header comment above them, the
        // lines reordered (an import on a cycle and the manifest's dependency too).
        try repo.write("Packages/Profile/Sources/ProfileService/ProfileImages.swift",
                       "// Copyright © 2026 Acme.\n// Profile images.\n\n"
                       + (try repo.text("Packages/Profile/Sources/ProfileService/ProfileImages.swift"))
                           .replacingOccurrences(of: "import Foundation\n#if canImport(UIKit)\nimport UIKit\n#endif\nimport ProfileCore\n",
                                                 with: "import ProfileCore\nimport Foundation\n\n#if canImport(UIKit)\nimport UIKit\n#endif\n"))
        try repo.write("Packages/Cart/Sources/CartCore/CartPreview.swift",
                       "// Cart previews.\n\n/// A cart as search results show it.\n@testable import SearchUI\nimport Foundation\n\nstruct CartPreview {}\n")
        try repo.write("Packages/Payments/Sources/PaymentsCore/Refunds.swift", "// Refunds.\n\nimport CouponsCore\nimport Foundation\n\nenum Refunds {}\n")
        let wallet = try repo.text("Packages/Wallet/Package.swift")
        try repo.write("Packages/Wallet/Package.swift", wallet
            .replacingOccurrences(of: "import PackageDescription\n", with: "import PackageDescription\n\n// The wallet: cards and balances.\n")
            .replacingOccurrences(of: "                .product(name: \"BaseCore\", package: \"Base\"),\n                .product(name: \"OrdersUI\", package: \"Orders\"),\n",
                                  with: "                .product(name: \"OrdersUI\", package: \"Orders\"),\n                .product(name: \"BaseCore\", package: \"Base\"),\n"))
        #expect(try repo.text("Packages/Wallet/Package.swift") != wallet)
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "tidy imports"])
        let scan = try decode(try CLI.swiftmod(["scan", "--format", "json"], in: repo.path))
        #expect(scan.findings.count == 10)
        #expect(scan.findings.contains { $0.file == "Packages/Payments/Sources/PaymentsCore/Refunds.swift" && $0.line == 3 && $0.migration == "no-cycles" })
        for arguments in [["check"], ["check", "--changed-since", "HEAD~1"]] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 0, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(errors(check.stdout).isEmpty, "\(arguments): \(check.stdout)")
            #expect(check.stderr.contains("swiftmod check: no new uses"), "\(arguments): \(check.stderr)")
        }
        #expect(try CLI.swiftmod(["check"], in: repo.path).stderr.contains("no new uses (10 allowed by the baseline)"))

        // A commit that adds an unrelated file (allowed imports only) and a README.
        try repo.write("Packages/Notes/Sources/NotesCore/Note+Formatting.swift", "import Foundation\nimport BaseCore\n\nextension NotesItem {}\n")
        try repo.write("Packages/Notes/README.md", "# Notes\n\nimport UIKit is not allowed in services.\n")
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "notes formatting"])
        for arguments in [["check"], ["check", "--changed-since", "HEAD~1"]] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 0, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(errors(check.stdout).isEmpty, "\(arguments): \(check.stdout)")
        }

        // A commit that adds one violation, in a file that had none, after an emoji.
        try repo.write("Packages/Media/Sources/MediaService/MediaService.swift",
                       "/* 🎬 playback */ import SwiftUI\n" + (try repo.text("Packages/Media/Sources/MediaService/MediaService.swift")))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "media preview"])
        let expected = "Packages/Media/Sources/MediaService/MediaService.swift:1:28: error: new violation of module rule 'module-type.Service' (P1, due 2027-06-30): MediaService (Service) may not import SwiftUI"
        for arguments in [["check"], ["check", "--changed-since", "HEAD~1"], ["check", "--changed-since", "HEAD~3"]] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 1, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(errors(check.stdout) == [expected], "\(arguments): \(check.stdout)")
            #expect(check.stdout.contains("    exception: add `// swiftmod:allow module-type.Service -- reason` at the end of this line or on the line before\n"))
            #expect(check.stderr.contains("swiftmod check: 1 new use the baseline does not allow"), "\(arguments): \(check.stderr)")
        }
        #expect(try CLI.swiftmod(["check"], in: repo.path).stderr.contains("1 new use the baseline does not allow (10 allowed by the baseline)"))
        // Only the module rule that is broken: the others pass.
        let others = try CLI.swiftmod(["check", "--migration", "module-type.Logic", "--migration", "no-cycles"], in: repo.path)
        #expect(others.status == 0, "\(others.stdout)")
    }

    // MARK: - 3. A cycle closed by a change in another module

    @Test func aNewCycleThroughAnUnchangedFileIsCaughtByChangedSince() throws {
        let repo = try baselinedRepository()
        // AccountCore now imports InboxCore, which imported AccountCore already: both dependencies
        // are now on a cycle, one of them in a file the commit does not touch. A partial check
        // compares every dependency on a cycle in the repository with the baseline, so it sees both.
        let account = "Packages/Account/Sources/AccountCore/AccountCore.swift"
        try repo.write(account, (try repo.text(account)).replacingOccurrences(of: "import BaseCore\n", with: "import BaseCore\nimport InboxCore\n"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "account reads the inbox"])
        let accountCycle = "Packages/Account/Sources/AccountCore/AccountCore.swift:7:8: error: new violation of module rule 'no-cycles' (P1): AccountCore → InboxCore is on the dependency cycle AccountCore → InboxCore → AccountCore"
        let inboxCycle = "Packages/Inbox/Sources/InboxCore/InboxAccount.swift:1:8: error: new violation of module rule 'no-cycles' (P1): InboxCore → AccountCore is on the dependency cycle InboxCore → AccountCore → InboxCore"
        // The partial check compares every module rule's findings with the baseline (they come
        // from the whole repository's graph), having scanned the one changed file.
        // The new uses are in two files, whichever were checked.
        for (arguments, allowed) in [(["check"], "(10 allowed by the baseline) in 2 files; 114 files checked"),
                                     (["check", "--changed-since", "HEAD~1"], "(10 allowed by the baseline) in 2 files; 1 file checked")] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 1, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(errors(check.stdout) == [accountCycle, inboxCycle], "\(arguments): \(check.stdout)")
            #expect(check.stderr.contains("swiftmod check: 2 new uses the baseline does not allow \(allowed)\n"), "\(arguments): \(check.stderr)")
        }

        // The same through a manifest: CalendarCore now depends on EventsCore in Calendar's
        // Package.swift, and EventsCore imported CalendarCore already.
        let calendar = "Packages/Calendar/Package.swift"
        try repo.write(calendar, (try repo.text(calendar))
            .replacingOccurrences(of: "        .package(path: \"../Base\"),\n", with: "        .package(path: \"../Base\"),\n        .package(path: \"../Events\"),\n")
            .replacingOccurrences(of: "                .product(name: \"BaseCore\", package: \"Base\"),\n",
                                  with: "                .product(name: \"BaseCore\", package: \"Base\"),\n                .product(name: \"EventsCore\", package: \"Events\"),\n"))
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "calendar shows events"])
        let calendarLine = try line(repo, calendar, "\"EventsCore\", package")
        let calendarCycle = "\(calendar):\(calendarLine):17: error: new violation of module rule 'no-cycles' (P1): CalendarCore → EventsCore is on the dependency cycle CalendarCore → EventsCore → CalendarCore"
        let eventsCycle = "Packages/Events/Sources/EventsCore/EventCalendar.swift:2:8: error: new violation of module rule 'no-cycles' (P1): EventsCore → CalendarCore is on the dependency cycle EventsCore → CalendarCore → EventsCore"
        let all = [accountCycle, calendarCycle, eventsCycle, inboxCycle]
        // Whole, since the last commit, the manifest alone: the repository's four new
        // dependencies on cycles every time (the one in the first commit is still not baselined).
        for arguments in [["check"], ["check", "--changed-since", "HEAD~1"], ["check", calendar]] {
            let check = try CLI.swiftmod(arguments, in: repo.path)
            #expect(check.status == 1, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(errors(check.stdout) == all, "\(arguments): \(check.stdout)")
        }
        // Checking only the module-type rules, the cycles are not looked at.
        let types = try CLI.swiftmod(["check", "--changed-since", "HEAD~1", "--migration", "module-type.Logic"], in: repo.path)
        #expect(types.status == 0, "\(types.stdout)\(types.stderr)")
    }

    // MARK: - 4. Allow comments

    @Test func allowCommentsForModuleRules() throws {
        let repo = try repository()
        let profile = "Packages/Profile/Sources/ProfileService/ProfileImages.swift"
        try repo.write(profile, (try repo.text(profile))
            .replacingOccurrences(of: "\nimport UIKit\n", with: "\nimport UIKit // swiftmod:allow module-type.Service -- images are drawn with UIKit until Q3\n"))
        let cart = "Packages/Cart/Sources/CartCore/CartPreview.swift"
        try repo.write(cart, (try repo.text(cart))
            .replacingOccurrences(of: "@testable import", with: "// swiftmod:allow module-type.Logic -- previews reuse the search cells\n@testable import"))
        let wallet = "Packages/Wallet/Package.swift"
        try repo.write(wallet, (try repo.text(wallet))
            .replacingOccurrences(of: "                .product(name: \"OrdersUI\"",
                                  with: "                // swiftmod:allow module-type.Logic -- split in WAL-12\n                .product(name: \"OrdersUI\""))
        // Allowed (PaymentsCore → CouponsCore, on its own line), but without a reason.
        let payments = "Packages/Payments/Sources/PaymentsCore/Refunds.swift"
        try repo.write(payments, "import Foundation\nimport CouponsCore // swiftmod:allow no-cycles\n\nenum Refunds {}\n")
        // Allows nothing: no violation on its line or the next.
        let base = "Packages/Base/Sources/BaseCore/BaseCore.swift"
        try repo.write(base, "// swiftmod:allow module-type.Service -- nothing to allow here\n" + (try repo.text(base)))
        // Allows nothing: the violation on its line is of another rule (CRLF file).
        let shipping = "Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift"
        try repo.write(shipping, (try repo.text(shipping))
            .replacingOccurrences(of: "import struct LegacyKit.LegacyToken\r\n",
                                  with: "import struct LegacyKit.LegacyToken // swiftmod:allow module-type.Service -- wrong rule\r\n"))
        // Allows nothing: a file of no module (a script) holds no module's dependencies.
        try repo.write("Scripts/release.swift", "// swiftmod:allow module-type.Service -- the release script\nimport UIKit\n")

        let scan = try CLI.swiftmod(["scan", "--format", "json"], in: repo.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        let output = try decode(scan)
        #expect(output.findings.map(describe) == [
            "module-type.Feature Features/Checkout/Sources/CheckoutFeature/CheckoutFlow.swift:3:8 import DiscoverFeature | CheckoutFeature | CheckoutFeature (Feature) may not depend on DiscoverFeature (Feature)",
            "unusedAllow module-type.Service Packages/Base/Sources/BaseCore/BaseCore.swift:1 swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
            // The other dependency of the two-module cycle is not allowed by the comment on this one.
            "no-cycles Packages/Coupons/Package.swift:21:17 CouponsCore → PaymentsCore | CouponsCore | CouponsCore → PaymentsCore is on the dependency cycle CouponsCore → PaymentsCore → CouponsCore",
            "no-cycles Packages/Orders/Sources/OrdersCore/OrderRouting.swift:2:8 OrdersCore → ShippingCore | OrdersCore | OrdersCore → ShippingCore is on the dependency cycle OrdersCore → ShippingCore → TrackingCore → OrdersCore",
            "allowWithoutReason no-cycles Packages/Payments/Sources/PaymentsCore/Refunds.swift:2 swiftmod:allow no-cycles needs a reason: // swiftmod:allow no-cycles -- why",
            "module-type.Logic Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift:3:15 import struct LegacyKit.LegacyToken | ShippingCore | ShippingCore (Logic) may not depend on LegacyKit",
            "unusedAllow module-type.Service Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift:3 swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
            "no-cycles Packages/Shipping/Sources/ShippingCore/ShipmentStatus.swift:1:8 ShippingCore → TrackingCore | ShippingCore | ShippingCore → TrackingCore is on the dependency cycle ShippingCore → TrackingCore → OrdersCore → ShippingCore",
            "no-cycles Packages/Tracking/Sources/TrackingCore/TrackingEvents.swift:2:8 TrackingCore → OrdersCore | TrackingCore | TrackingCore → OrdersCore is on the dependency cycle TrackingCore → OrdersCore → ShippingCore → TrackingCore",
            "unusedAllow module-type.Service Scripts/release.swift:1 swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
        ])
        #expect(output.summary.allowedInline == 4)
        // The allow comments' columns: where the comment starts.
        #expect(output.findings.first { $0.file == shipping && $0.kind == "unusedAllow" }?.column == 37)

        // check: the allowed violations pass, the wrong comments fail it.
        let recorded = try CLI.swiftmod(["baseline"], in: repo.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("Recorded 6 uses in .swiftmod-baseline.jsonl (module-type.Feature: 1, module-type.Logic: 1, no-cycles: 4)."), "\(recorded.stdout)")
        let check = try CLI.swiftmod(["check"], in: repo.path)
        #expect(check.status == 1)
        #expect(errors(check.stdout) == [
            "Packages/Base/Sources/BaseCore/BaseCore.swift:1:1: error: swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
            "Packages/Payments/Sources/PaymentsCore/Refunds.swift:2:20: error: swiftmod:allow no-cycles needs a reason: // swiftmod:allow no-cycles -- why",
            "Packages/Shipping/Sources/ShippingCore/LegacyLabels.swift:3:37: error: swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
            "Scripts/release.swift:1:1: error: swiftmod:allow module-type.Service allows nothing: no violation of module-type.Service on this line or the next",
        ], "\(check.stdout)")
        #expect(check.stderr.contains("no new uses (6 allowed by the baseline, 4 inline); 4 allow comment problems"), "\(check.stderr)")
    }

    // MARK: - 5. Every format of check

    @Test func everyFormatOfCheckNamesTheViolation() throws {
        let repo = try baselinedRepository()
        // A new violation after an emoji (columns differ in bytes, characters and UTF-16), in a
        // file with CRLF line endings.
        let media = "Packages/Media/Sources/MediaService/MediaPlayer.swift"
        try repo.write(media, "import Foundation\r\n/* 🎬 */ import UIKit\r\n\r\nenum MediaPlayer {}\r\n")
        let file = media
        let message = "new violation of module rule 'module-type.Service' (P1, due 2027-06-30): MediaService (Service) may not import UIKit"

        let json = try CLI.swiftmod(["check", "--format", "json"], in: repo.path)
        #expect(json.status == 1, "\(json.stderr)")
        let output = try decode(json)
        #expect(output.mode == "check")
        #expect(output.findings.count == 1)
        let finding = try #require(output.findings.first)
        #expect(finding.kind == "use")
        #expect(finding.migration == "module-type.Service")
        #expect(finding.file == file)
        #expect(finding.line == 2)
        #expect(finding.column == 19)           // bytes: 🎬 is four
        #expect(finding.characterColumn == 16)
        #expect(finding.text == "import UIKit")
        #expect(finding.module == "MediaService")
        #expect(finding.detail == "MediaService (Service) may not import UIKit")
        #expect(finding.message == message)
        #expect(finding.priority == "P1")
        #expect(finding.deadline == "2027-06-30")
        #expect(output.summary.allowedByBaseline == 10)

        let sarif = try CLI.swiftmod(["check", "--format", "sarif"], in: repo.path)
        #expect(sarif.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: sarif.stdoutBytes) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result["ruleId"] as? String == "module-type.Service")
        #expect(result["level"] as? String == "error")
        #expect(((result["message"] as? [String: Any])?["text"] as? String)?.hasPrefix(message + "\n") == true)
        let location = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == file)
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 2)
        #expect(region["startColumn"] as? Int == 17)    // UTF-16: 🎬 is two code units
        #expect(region["endColumn"] as? Int == 22)
        let rules = try #require((((run["tool"] as? [String: Any])?["driver"]) as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["module-type.Service"])
        #expect(rules.first?["name"] as? String == "module-rules")
        #expect(((rules.first?["properties"]) as? [String: Any])?["priority"] as? String == "P1")

        let github = try CLI.swiftmod(["check", "--format", "github"], in: repo.path)
        #expect(github.status == 1)
        let annotations = github.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 1, "\(github.stdout)")
        #expect(annotations.first?.hasPrefix("::error file=\(file),line=2,col=16,endLine=2,endColumn=21,title=swiftmod%3A module-type.Service::\(message)%0A") == true,
                "\(github.stdout)")

        let xcode = try CLI.swiftmod(["check", "--format", "xcode"], in: repo.path)
        #expect(xcode.status == 1)
        let lines = xcode.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(xcode.stdout)")
        let root = URL(fileURLWithPath: repo.path).standardizedFileURL.path
        #expect(lines.first?.hasPrefix("\(root)/\(file):2:19: error: \(message) — why: ") == true, "\(xcode.stdout)")
        #expect(lines.first?.contains(" — fix: remove the import, or move the code that needs it to a module allowed to depend on it — ") == true)

        let text = try CLI.swiftmod(["check"], in: repo.path)
        #expect(text.status == 1)
        #expect(errors(text.stdout) == ["\(file):2:19: error: \(message)"], "\(text.stdout)")
    }

    // MARK: - 6. report

    @Test func reportCountsViolationsPerModuleAndTeam() throws {
        let repo = try repository()
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "start"])
        let report = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-23"], in: repo.path)
        #expect(report.status == 0, "\(report.stderr)")
        struct Progress: Decodable {
            var migrations: [Migration]
            struct Migration: Decodable {
                var id, codemod, priority: String
                var deadline: String?
                var total, fixable: Int
                var modules, owners: [Count]
            }
            struct Count: Decodable, Equatable, CustomStringConvertible {
                var name: String
                var uses: Int
                var description: String { "\(name) \(uses)" }
            }
        }
        let progress = try JSONDecoder().decode(Progress.self, from: report.stdoutBytes)
        // P1 first (the nearest deadline first), then by id.
        #expect(progress.migrations.map(\.id) == ["module-type.Service", "no-cycles", "module-type.Feature", "module-type.Logic"])
        let byID = Dictionary(uniqueKeysWithValues: progress.migrations.map { ($0.id, $0) })
        #expect(byID["module-type.Service"]?.deadline == "2027-06-30")
        #expect(byID["module-type.Service"]?.codemod == "module-rules")
        #expect(progress.migrations.map(\.total) == [1, 5, 1, 3])
        #expect(progress.migrations.allSatisfy { $0.fixable == 0 })
        #expect(byID["module-type.Service"]?.modules.map(\.description) == ["ProfileService 1"])
        #expect(byID["module-type.Service"]?.owners.map(\.description) == ["@acme/platform 1"])
        // The manifest's dependency counts for the target that declares it, not for no module.
        #expect(byID["module-type.Logic"]?.modules.map(\.description) == ["CartCore 1", "ShippingCore 1", "WalletCore 1"])
        #expect(byID["module-type.Logic"]?.owners.map(\.description) == ["@acme/platform 2", "@acme/payments 1"])
        #expect(byID["module-type.Feature"]?.modules.map(\.description) == ["CheckoutFeature 1"])
        #expect(byID["module-type.Feature"]?.owners.map(\.description) == ["@acme/growth 1"])
        // A dependency on a cycle counts for the module that depends (the manifest's for its target).
        #expect(byID["no-cycles"]?.modules.map(\.description) == ["CouponsCore 1", "OrdersCore 1", "PaymentsCore 1", "ShippingCore 1", "TrackingCore 1"])
        #expect(byID["no-cycles"]?.owners.map(\.description) == ["@acme/platform 4", "@acme/payments 1"])
    }

    /// The HTML page draws the module graph: read back from the DOM of headless Chromium, the
    /// modules, their violations, the forbidden and cycle edges and the per-type table equal the
    /// JSON report's.
    @Test func theHTMLReportDrawsTheModuleGraph() throws {
        let repo = try repository()
        try repo.git(["add", "-A"])
        try repo.git(["commit", "-qm", "start"])
        struct Progress: Decodable {
            var modules: Overview
            struct Overview: Decodable {
                var modules: [Module]
                var edges: [Edge]
                var types: [TypeRow]
                var cycles: [[String]]
            }
            struct Module: Decodable { var name: String; var violations: Int; var external: Bool }
            struct Edge: Decodable { var from, to: String; var forbidden, inCycle: Bool }
            struct TypeRow: Decodable { var type: String; var violations: Int }
        }
        let json = try CLI.swiftmod(["report", "--format", "json", "--date", "2026-11-23"], in: repo.path)
        #expect(json.status == 0, "\(json.stderr)")
        let overview = try JSONDecoder().decode(Progress.self, from: json.stdoutBytes).modules
        // Each cycle once, from its first module by name; every dependency on one is marked.
        #expect(overview.cycles.map { $0.joined(separator: " → ") } == [
            "CouponsCore → PaymentsCore → CouponsCore",
            "OrdersCore → ShippingCore → TrackingCore → OrdersCore",
        ])
        #expect(overview.edges.filter(\.inCycle).map { "\($0.from) → \($0.to)" }.sorted() == [
            "CouponsCore → PaymentsCore", "OrdersCore → ShippingCore", "PaymentsCore → CouponsCore", "ShippingCore → TrackingCore", "TrackingCore → OrdersCore",
        ])
        #expect(overview.edges.contains { $0.forbidden && $0.to == "UIKit" }, "the forbidden import of UIKit is drawn")
        #expect(overview.modules.contains { $0.name == "UIKit" && $0.external })
        let html = try CLI.swiftmod(["report", "--format", "html", "--output", "progress.html", "--date", "2026-11-23"], in: repo.path)
        #expect(html.status == 0, "\(html.stderr)")
        let dom = try Browser.require().dumpDOM(repo.url("progress.html").path)
        func attributes(_ element: String, _ names: [String]) -> [[String]] {
            dom.components(separatedBy: "<\(element) ").dropFirst().compactMap { tag in
                let head = tag.prefix { $0 != ">" }
                let values = names.map { name -> String? in
                    guard let range = head.range(of: " \(name)=\"") ?? (head.hasPrefix("\(name)=\"") ? head.range(of: "\(name)=\"") : nil) else { return nil }
                    return String(head[range.upperBound...].prefix { $0 != "\"" })
                }
                return values.contains(nil) ? nil : values.map { $0! }
            }
        }
        let drawnModules = attributes("g", ["data-module", "data-violations"]).map { "\($0[0]) \($0[1])" }.sorted()
        #expect(drawnModules == overview.modules.map { "\($0.name) \($0.violations)" }.sorted())
        #expect(drawnModules.count > 60, "the generated repository's modules are all drawn (\(drawnModules.count))")
        let drawnEdges = attributes("path", ["data-from", "data-to", "data-forbidden", "data-cycle"]).map { $0.joined(separator: " ") }.sorted()
        #expect(drawnEdges == overview.edges.map { "\($0.from) \($0.to) \($0.forbidden) \($0.inCycle)" }.sorted())
        #expect(drawnEdges.filter { $0.hasSuffix("true") || $0.contains(" true ") }.count >= 6)
        let rows = attributes("tr", ["data-name", "data-rule"])
        // A row per type with a rule (UI forbids nothing), naming the rule.
        #expect(rows.map { "\($0[0]) \($0[1])" }.sorted() == ["Feature module-type.Feature", "Logic module-type.Logic", "Service module-type.Service"])
        for row in overview.types {
            guard let start = dom.range(of: "<tr data-name=\"\(row.type)\" data-rule=") else { continue }
            let cell = dom[start.upperBound...].range(of: "data-uses=\"")!
            #expect(dom[cell.upperBound...].prefix { $0 != "\"" } == "\(row.violations)", "\(row.type)")
        }
        #expect(dom.contains("data-cycle=\"\(overview.cycles[0].joined(separator: " → "))\""))
        let shot = repo.url("progress.png").path
        try Browser.require().screenshot(repo.url("progress.html").path, to: shot)
        let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        #expect(size > 20_000, "a rendered page, not a blank one (\(size) bytes)")
    }

    // MARK: - 7. Configuration errors

    @Test(arguments: [
        ("migrations: []\nrules:\n  - id: layers\n    kind: layering\n",
         ".swiftmod.yml:4: field 'rules[0].kind': unknown kind 'layering' (kinds: cycles, outlet-not-guaranteed, stale-connection)"),
        ("migrations: []\nrules:\n  - kind: cycles\n    priority: P1\n",
         ".swiftmod.yml:3: field 'rules[0].id': is required: allow comments and the baseline name the rule by it"),
        ("""
         migrations:
           - codemod: strong-iboutlet
             id: module-type.Service
         module-types:
           Service: { modules: ["*Service"], may-not-import: [UIKit] }

         """,
         ".swiftmod.yml:5: field 'module-types.Service.id': 'module-type.Service' is used by another migration or rule (line 2); give each an id"),
        ("""
         migrations: []
         module-types:
           Service: { modules: ["*Service"], may-not-import: [UIKit] }
         rules:
           - id: module-type.Service
             kind: cycles

         """,
         ".swiftmod.yml:5: field 'rules[0].id': 'module-type.Service' is used by another migration or rule (line 3); give each an id"),
    ])
    func configurationErrorsAreLocated(config: String, message: String) throws {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", config)
        try repo.write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"A\", targets: [.target(name: \"AService\")])\n")
        try repo.write("Sources/AService/A.swift", "import UIKit\n")
        for command in ["scan", "check", "baseline", "report"] {
            let result = try CLI.swiftmod([command], in: repo.path)
            #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
        }
    }
}
