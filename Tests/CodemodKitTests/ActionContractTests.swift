import BundledCodemods
@testable import CodemodKit
import Testing

/// Built-in actions declare the captures and parameters they need, and loading a definition
/// checks them (issue 13): a wrong capture name is an error at load, never a silent non-match.
@Suite struct ActionContractTests {
    /// A swap-type definition, with the query's capture and the declared parameters to vary.
    func swapType(capture: String = "name", params: String = "from: { default: A }\n  to: { default: B }") -> String {
        """
        id: my-swap
        summary: Swap
        why: test
        params:
          \(params)
        match:
          query: |
            ((type_identifier) @\(capture) (#eq? @\(capture) "{{from}}"))
          use: \(capture)
        rewrite:
          action: swap-type
        """
    }

    func loadError(_ yaml: String, checksQueries: Bool = true) -> LocatedError? {
        do {
            _ = try DefinitionLoader(checksQueries: checksQueries).load(yaml: yaml, origin: "my.yml")
            return nil
        } catch let error as LocatedError {
            return error
        } catch {
            return LocatedError(file: "?", line: nil, field: nil, message: "unexpected \(error)")
        }
    }

    @Test func theBuiltInActionsDeclareTheirContracts() throws {
        let swap = try #require(ActionRegistry.standard.action(named: "swap-type"))
        #expect(swap.contract.requiredCaptures == ["name"])
        #expect(swap.contract.parameters.filter(\.isRequired).map(\.name) == ["from", "to"])
        #expect(swap.contract.parameters.filter { !$0.isRequired }.map(\.name) == ["module", "import"])
        let rebind = try #require(ActionRegistry.standard.action(named: "rebind-self"))
        #expect(rebind.contract.requiredCaptures == ["binding"])
        #expect(rebind.contract.parameters.allSatisfy { !$0.isRequired })
    }

    @Test func aDefinitionThatKeepsTheContractLoads() throws {
        #expect(loadError(swapType()) == nil)
        #expect(loadError(swapType(), checksQueries: false) == nil)
    }

    /// Checked with the compiled query (user definitions) and from the query's text (bundled ones).
    @Test(arguments: [true, false])
    func aWrongCaptureNameIsAnErrorAtLoad(checksQueries: Bool) throws {
        let found = try #require(loadError(swapType(capture: "nam"), checksQueries: checksQueries))
        #expect(found.file == "my.yml")
        #expect(found.field == "rewrite.action")
        #expect(found.line == 12)  // the line of `action: swap-type`
        #expect(found.message == "action 'swap-type' needs the capture @name, which the query does not define (its captures: @nam)")
        #expect(found.description == "my.yml:12: field 'rewrite.action': action 'swap-type' needs the capture @name, which the query does not define (its captures: @nam)")
    }

    @Test(arguments: [true, false])
    func aMissingParameterIsAnErrorAtLoad(checksQueries: Bool) throws {
        let found = try #require(loadError(swapType(params: "from: { default: A }"), checksQueries: checksQueries))
        #expect(found.field == "rewrite.action")
        #expect(found.line == 11)
        #expect(found.message.hasPrefix("action 'swap-type' needs the parameter 'to' ("))
        #expect(found.message.hasSuffix("); declare it under 'params' (declared: from)"))
    }

    @Test func aParameterWithTheActionsDefaultMayBeLeftOut() throws {
        // `module` and `import` have defaults in swap-type; rebind-self needs no parameter at all.
        #expect(loadError(swapType()) == nil)
        let rebind = """
        id: my-rebind
        summary: Rebind
        why: test
        match:
          query: ((simple_identifier) @binding (#eq? @binding "`self`"))
        rewrite:
          - action: rebind-self
        """
        #expect(loadError(rebind) == nil)
        let wrong = try #require(loadError(rebind.replacingOccurrences(of: "@binding", with: "@b")))
        #expect(wrong.field == "rewrite[0].action")
        #expect(wrong.line == 7)
        #expect(wrong.message.contains("needs the capture @binding"))
    }

    @Test func theBundledCodemodsKeepTheirContracts() throws {
        // Loaded with their queries compiled and checked, as a user's copy would be.
        for (origin, yaml) in BundledCodemods.definitions {
            #expect(throws: Never.self, "\(origin)") { try DefinitionLoader().load(yaml: yaml, origin: origin) }
        }
    }

    @Test func violationsListCapturesThenParameters() {
        let contract = ActionContract(requiredCaptures: ["a", "b"], optionalCaptures: ["c"],
                                      parameters: [.init("p", summary: ""), .init("q", summary: "", default: "x")])
        #expect(contract.violations(captures: ["a", "b"], parameters: ["p"]) == [])
        #expect(contract.violations(captures: ["b", "c"], parameters: []) == [.missingCapture("a"), .missingParameter("p")])
    }

    @Test func captureNamesAreReadFromTheQueryText() {
        #expect(Codemod.captureNames(in: #"((a) @x (#eq? @x "@not") ; @comment"# + "\n(b) @y.z @x") == ["x", "y.z"])
        #expect(Codemod.firstCapture(in: #"("@s") (a) @first (b) @second"#) == "first")
    }
}
