import Foundation
import PackagePlugin

/// Embeds the definitions in `Codemods/` into the target as Swift source, so the binary carries
/// them wherever it is copied.
@main
struct EmbedCodemods: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Codemods")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let inputs = names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
            .map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCodemods.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) codemod definitions",
                executable: try context.tool(named: "CodemodEmbedder").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
