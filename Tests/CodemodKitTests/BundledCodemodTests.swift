import BundledCodemods
@testable import CodemodKit
import Testing
import Workspace

/// Every bundled codemod loads, has examples, and every example holds (like SwiftLint's rule
/// examples).
@Suite struct BundledCodemodTests {
    static let catalog = try! CodemodCatalog(bundled: BundledCodemods.definitions)

    @Test func bundledCodemodsAreThere() {
        #expect(Self.catalog.definitions.map(\.id).contains("strong-iboutlet"))
    }

    @Test(arguments: catalog.definitions.map(\.id))
    func examplesHold(id: String) throws {
        let definition = try #require(Self.catalog.definitions.first { $0.id == id })
        #expect(!definition.matchExamples.isEmpty, "a codemod needs match examples")
        #expect(!definition.noMatchExamples.isEmpty, "a codemod needs no-match examples")
        if definition.rewrites { #expect(!definition.fixExamples.isEmpty, "a rewriting codemod needs fix examples") }
        let (failures, count) = ExampleRunner().run(definition)
        #expect(count > 0)
        #expect(failures.map(\.description) == [])
    }

    @Test func exampleRunnerCatchesAWrongAfter() throws {
        var broken = try #require(Self.catalog.definitions.first { $0.id == "strong-iboutlet" })
        broken.fixExamples[0].after = broken.fixExamples[0].before
        broken.noMatchExamples.append(.init(code: "class A { @IBOutlet weak var x: UILabel! }", params: [:], line: 1))
        let failures = ExampleRunner().run(broken).failures
        #expect(failures.count == 2)
        #expect(failures.contains { $0.message.contains("did not become 'after'") })
        #expect(failures.contains { $0.message.contains("expected no match") })
    }
}
