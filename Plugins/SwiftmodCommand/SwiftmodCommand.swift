import Foundation
import PackagePlugin

/// `swift package swiftmod ARGUMENTS`: runs `swiftmod` with ARGUMENTS in the package's folder
/// (`swift package swiftmod check`, `… run strong-iboutlet --module FeedUI`, `… report`).
@main
struct SwiftmodCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "swiftmod")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SwiftmodFailed(status: process.terminationStatus)
        }
    }
}

struct SwiftmodFailed: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "swiftmod exited with status \(status)" }
}
