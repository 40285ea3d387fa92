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
}
