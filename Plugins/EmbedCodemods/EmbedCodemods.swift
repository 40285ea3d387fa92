import Foundation
import PackagePlugin

/// Embeds the definitions in `Codemods/` into the target as Swift source, so the binary carries
/// them wherever it is copied.
@main
struct EmbedCodemods: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The target folder links to Codemods/, so SwiftPM lists the definitions as the target's
        // files and plans again when one is added or removed.
        let files = target.sourceModule?.sourceFiles.map(\.url) ?? []
        let inputs = files.filter { $0.pathExtension == "yml" || $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
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
