import ArgumentParser
import CodemodKit
import Workspace

/// `swiftmod list`: the codemods available.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the codemods: id, whether each rewrites, and its summary.",
        discussion: """
        Shows the bundled codemods and those in --codemods folders.

        Examples:
          swiftmod list
          swiftmod list --verbose --codemods Tools/Codemods
        """
    )

    @OptionGroup var codemods: CodemodOptions

    @Flag(name: .shortAndLong, help: "Also show why each pattern is deprecated, its parameters and origin.")
    var verbose = false

    func run() throws {
        let definitions = try codemods.catalog().definitions
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
