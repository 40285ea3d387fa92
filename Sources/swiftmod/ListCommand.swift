import ArgumentParser
import CodemodKit
import Workspace

/// `swiftmod list`: the codemods available.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the codemods: id, whether each rewrites, and its summary.",
        discussion: """
        Shows the bundled codemods and those in --codemods folders. --format markdown prints
        a catalog page of them with their examples (docs/codemods.md is the bundled one's).

        Examples:
          swiftmod list
          swiftmod list --verbose --codemods Tools/Codemods
          swiftmod list --format markdown --codemods Tools/Codemods > codemods.md

        Guide: docs/codemods.md (the catalog), docs/writing-codemods.md
        """
    )

    @OptionGroup var codemods: CodemodOptions

    @Flag(name: .shortAndLong, help: "Also show why each pattern is deprecated, its parameters and origin.")
    var verbose = false

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, markdown }

    @Option(help: "Output format: text, or markdown (a catalog page with each codemod's examples).")
    var format: Format = .text

    func run() throws {
        let definitions = try codemods.catalog().definitions
        if format == .markdown {
            print(CatalogPage(definitions: definitions).text, terminator: "")
            return
        }
        let width = definitions.map(\.id.count).max() ?? 2
        // With folders of codemods, where each comes from: bundled, or the folder's file.
        let display = DisplayPath()
        let origins = definitions.map { $0.origin.hasPrefix("<bundled>") ? "bundled" : display($0.origin) }
        let showsOrigin = origins.contains { $0 != "bundled" }
        let originWidth = showsOrigin ? origins.map(\.count).max() ?? 0 : 0
        func originColumn(_ text: String) -> String { showsOrigin ? text.padding(toLength: originWidth, withPad: " ", startingAt: 0) + "  " : "" }
        print("\("ID".padding(toLength: width, withPad: " ", startingAt: 0))  REWRITES  \(originColumn("FROM"))SUMMARY")
        for (definition, origin) in zip(definitions, origins) {
            let id = definition.id.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(id)  \(definition.rewrites ? "yes     " : "no      ")  \(originColumn(origin))\(definition.filled(definition.summary))")
            guard verbose else { continue }
            if !definition.why.isEmpty { print("    why: \(definition.filled(definition.why))") }
            if let replacement = definition.replacement { print("    instead: \(definition.filled(replacement))") }
            if let docs = definition.docs { print("    docs: \(docs)") }
            for parameter in definition.params {
                let value = parameter.defaultValue.map { $0.isEmpty ? "optional" : "default \($0)" } ?? "required"
                print("    --param \(parameter.name)=…  (\(value))\(parameter.summary.isEmpty ? "" : " \(parameter.summary)")")
            }
            print("    from: \(definition.origin)\(definition.patternRule != nil ? " (an ast-grep rule)" : "")")
        }
    }
}
