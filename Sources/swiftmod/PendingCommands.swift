import ArgumentParser

/// A subcommand whose issue has not landed yet: it says so and exits non-zero.
protocol PendingCommand: ParsableCommand {}

extension PendingCommand {
    func run() throws {
        throw CommandFailure(message: "`swiftmod \(Self.configuration.commandName ?? "")` is not implemented yet",
                             exitCode: ExitStatus.failure)
    }
}

struct ReportCommand: PendingCommand {
    static let configuration = CommandConfiguration(commandName: "report",
        abstract: "Report migration progress per module and team (not implemented yet).",
        discussion: "Example:\n  swiftmod report --format html --output report.html")
}
