import CodemodKit
import Testing
@testable import Migrations
import Workspace
import TestSupport

@Suite struct ConfigurationTests {
    func error(_ yaml: String) -> LocatedError? {
        do {
            _ = try Configuration.parse(yaml, path: ".swiftmod.yml", root: "/repo")
            return nil
        } catch let error as LocatedError {
            return error
        } catch {
            return LocatedError(file: "", line: nil, field: nil, message: "unexpected \(error)")
        }
    }

    @Test func readsEveryField() throws {
        let configuration = try Configuration.parse(Repository.standardConfig + "\nbaseline: ci/baseline.json\ncodemods: [Tools/Codemods]\n",
                                                    path: "/repo/.swiftmod.yml", root: "/repo")
        #expect(configuration.migrations.map(\.id) == ["webview", "backtick-self", "strong-iboutlet"])
        let webview = configuration.migrations[0]
        #expect(webview.priority == .p1)
        #expect(webview.deadline == "2027-03-31")
        #expect(webview.params == ["from": "UIWebView", "to": "WKWebView", "import": "WebKit"])
        #expect(webview.contact == "#ios-platform")
        #expect(webview.line == 2)
        #expect(configuration.migrations[1].priority == .p2)
        #expect(configuration.baselinePath == "/repo/ci/baseline.json")
        #expect(configuration.codemodFolderPaths == ["/repo/Tools/Codemods"])
        #expect(configuration.covers("Sources/A.swift"))
        #expect(!configuration.covers("Pods/X/A.swift"))
    }

    @Test func errorsNameLineAndField() throws {
        #expect(error("migrations:\n  - codemod: swap-type\n    priority: P7\n")?.field == "migrations[0].priority")
        #expect(error("migrations:\n  - codemod: swap-type\n    priority: P7\n")?.line == 3)
        #expect(error("migrations:\n  - codemod: x\n    deadline: next week\n")?.message.contains("2027-03-31") == true)
        #expect(error("migrations:\n  - codemod: x\n  - codemod: x\n")?.message.contains("used by another migration") == true)
        #expect(error("migrations:\n  - codemod: x\n    colour: red\n")?.field == "migrations[0].colour")
        #expect(error("include: [a\n")?.message.contains("invalid YAML") == true)
        #expect(error("baseline: x.json\n")?.field == "migrations")
        #expect(error("migrations:\n  - id: x\n")?.field == "migrations[0].codemod")
    }

    @Test func unknownCodemodAndBadParamsAreLocated() throws {
        let repo = try Repository(config: "migrations:\n  - codemod: nope\n")
        #expect(throws: LocatedError.self) { try repo.migrations() }
        let params = try Repository(config: "migrations:\n  - codemod: swap-type\n    params: { from: A }\n")
        do {
            _ = try params.migrations()
            Issue.record("expected an error")
        } catch let error as LocatedError {
            #expect(error.line == 2)
            #expect(error.message.contains("parameter 'to' is required"))
        }
    }

    @Test(arguments: [
        ("**/*.swift", "A.swift", true), ("**/*.swift", "a/b/C.swift", true), ("**/*.swift", "A.m", false),
        ("Pods/**", "Pods/X/A.swift", true), ("Pods/**", "Sources/Pods/A.swift", false),
        ("**/Generated/**", "App/Generated/A.swift", true), ("**/Generated/**", "Generated/A.swift", true),
        ("Sources/*.swift", "Sources/A.swift", true), ("Sources/*.swift", "Sources/x/A.swift", false),
        ("Tests/", "Tests/A.swift", true), ("?.swift", "A.swift", true), ("?.swift", "AB.swift", false),
    ])
    func globs(pattern: String, path: String, matches: Bool) throws {
        #expect(try Glob(pattern).matches(path) == matches)
    }

    @Test func moduleRulesAreMigrations() throws {
        let configuration = try Configuration.parse("""
        module-types:
          UI:      { modules: ["*UI"] }
          Service: { modules: ["*Service"], may-not-import: [UIKit], priority: P1, deadline: 2027-06-30, contact: "#platform" }
          Logic:   { modules: ["*Core"], may-not-depend-on: [UI], id: logic-shape, why: Logic is tested without UI }
        rules:
          - id: no-cycles
            kind: cycles
            priority: p0
        """, path: ".swiftmod.yml", root: "/repo")
        #expect(configuration.moduleTypes.map(\.name) == ["UI", "Service", "Logic"])
        #expect(configuration.migrations.map(\.id) == ["module-type.Service", "logic-shape", "no-cycles"])
        #expect(configuration.migrations.map(\.rule) == [.moduleType("Service"), .moduleType("Logic"), .cycles])
        let service = configuration.migrations[0]
        #expect(service.priority == .p1 && service.deadline == "2027-06-30" && service.contact == "#platform" && service.line == 3)
        #expect(configuration.migrations[2].priority == .p0)
        let migrations = try Migration.resolve(configuration, catalog: CodemodCatalog(bundled: []))
        #expect(migrations.map(\.isModuleRule) == [true, true, true])
        #expect(migrations[0].summary == "Service modules may not import UIKit")
        #expect(migrations[1].why == "Logic is tested without UI")
        #expect(migrations[0].codemodID == "module-rules" && !migrations[0].fixable)
    }

    @Test(arguments: [
        ("module-types:\n  UI: { modules: [\"*UI\"], priority: P1 }\n", 2, "module-types.UI.priority", "takes no priority"),
        ("module-types:\n  UI: { modules: [] , may-not-import: [X] }\n", 2, "module-types.UI.modules", "is empty"),
        ("module-types:\n  UI: { may-not-import: [X] }\n", 2, "module-types.UI.modules", "is required"),
        ("module-types:\n  My UI: { modules: [A], may-not-import: [X] }\n", 2, "module-types.My UI.id", "must be letters"),
        ("rules:\n  - id: c\n    kind: layers\n", 3, "rules[0].kind", "unknown kind 'layers'"),
        ("rules:\n  - kind: cycles\n", 2, "rules[0].id", "is required"),
        ("migrations:\n  - codemod: x\n    id: no-cycles\nrules:\n  - id: no-cycles\n    kind: cycles\n", 5, "rules[0].id", "used by another migration or rule (line 2)"),
        ("include: [\"**\"]\n", nil, "migrations", "is required"),
        // Found by a hostile review: mistakes that used to do nothing, silently.
        ("module-types:\n  \"\": { modules: [A], may-not-import: [X] }\n", 2, "module-types", "needs a name"),
        ("module-types:\n  [a, b]: { modules: [A], may-not-import: [X] }\n", 2, "module-types", "needs a name"),
        ("module-types:\n  S: { modules: [A], may-not-import: [] }\n", 2, "module-types.S.may-not-import", "is empty"),
        ("module-types:\n  S: { modules: [A], may-not-import: [UIKit.UIView] }\n", 2, "module-types.S.may-not-import[0]", "not a module name"),
        ("rules:\n  - { id: a, kind: cycles }\n  - { id: b, kind: cycles }\n", 3, "rules[1].kind", "a second rule of kind cycles (the first is 'a', line 2)"),
    ] as [(String, Int?, String, String)])
    func moduleRuleErrorsAreLocated(yaml: String, line: Int?, field: String, message: String) throws {
        let found = try #require(error(yaml))
        #expect(found.line == line, "\(found)")
        #expect(found.field == field, "\(found)")
        #expect(found.message.contains(message), "\(found)")
    }
}
