import ArgumentParser

/// A subcommand whose issue has not landed yet: it says so and exits non-zero.
protocol PendingCommand: ParsableCommand {}

extension PendingCommand {
    func run() throws {
        throw CommandFailure(message: "`swiftmod \(Self.configuration.commandName ?? "")` is not implemented yet",
                             exitCode: ExitStatus.failure)
    }
}

struct ScanCommand: PendingCommand {
    static let configuration = CommandConfiguration(commandName: "scan",
        abstract: "List every use of every configured migration (not implemented yet).",
        discussion: "Example:\n  swiftmod scan Sources")
}

struct BaselineCommand: PendingCommand {
    static let configuration = CommandConfiguration(commandName: "baseline",
        abstract: "Record today's uses in the allowlist baseline (not implemented yet).",
        discussion: "Example:\n  swiftmod baseline")
}

struct CheckCommand: PendingCommand {
    static let configuration = CommandConfiguration(commandName: "check",
        abstract: "Fail when there are uses that the baseline does not allow (not implemented yet).",
        discussion: "Example:\n  swiftmod check --format github")
}

struct ReportCommand: PendingCommand {
    static let configuration = CommandConfiguration(commandName: "report",
        abstract: "Report migration progress per module and team (not implemented yet).",
        discussion: "Example:\n  swiftmod report --format html --output report.html")
}
