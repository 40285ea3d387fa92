import Foundation
import CodemodKit
import Workspace

/// The report as compact Markdown, for a pull request comment or a chat message: one table of
/// the migrations (what is left, what changed since the previous record, who is behind), the
/// migrations whose history misses its first records, the teams behind and those without a commitment, and, with `--uses`, each team's remaining uses
/// in collapsed `<details>` blocks (the first 30). Team handles are code, so that posting it
/// does not notify every team mentioned.
enum ProgressMarkdown {
    static func render(_ report: ProgressReport) -> String {
        var lines = ["## Migration progress — \(text(report.date))" + (report.commit.map { " · \(code(String($0.prefix(10))))" } ?? "")
                        + (report.team.map { " · \(text($0))" } ?? ""), ""]
        lines.append("| | Migration | Left | Change | Due | Status |")
        lines.append("| --- | --- | ---: | --- | --- | --- |")
        for migration in report.migrations {
            let due = migration.deadline.map(text) ?? "—"
            let change = migration.change.map { text($0.summary(noun: migration.noun)) } ?? "—"
            lines.append("| \(text(migration.priority)) | **\(text(migration.id))** | \(migration.total) | \(change) | \(due) | \(badge(migration.status)) \(migration.status.label) |")
        }
        var behind: [String] = []
        var uncommitted: [String] = []
        var done: [String] = []
        var missing: [String] = []
        for migration in report.migrations {
            if let history = migration.missingHistory { missing.append("- **\(text(migration.id))**: \(text(history.message))") }
            for team in migration.teams where team.reason != nil {
                behind.append("- **\(text(migration.id))**: \(code(team.owner)), \(team.remaining) left, \(team.statusLabel): \(text(team.reason ?? ""))")
            }
            if !migration.uncommitted.isEmpty {
                uncommitted.append("\(migration.uncommitted.map(code).joined(separator: ", ")) (\(text(migration.id)))")
            }
            if let change = migration.change, !change.teamsDone.isEmpty {
                done.append("\(change.teamsDone.map(code).joined(separator: ", ")) (\(text(migration.id)), since \(text(change.since)))")
            }
        }
        if !missing.isEmpty { lines += ["", "**Missing history**", ""] + missing }
        if !behind.isEmpty { lines += ["", "**Behind**", ""] + behind }
        if !uncommitted.isEmpty { lines += ["", "**Behind without a commitment:** " + uncommitted.joined(separator: "; ")] }
        if !done.isEmpty { lines += ["", "**Done:** " + done.joined(separator: "; ")] }
        for migration in report.migrations where !(migration.uses ?? []).isEmpty {
            for (team, uses) in migration.uses(by: \.owners) {
                lines += ["", "<details><summary>\(html(migration.id)): \(uses.count) \(migration.noun)\(uses.count == 1 ? "" : "s") of <code>\(html(team))</code></summary>", ""]
                for use in uses.prefix(listLimit) {
                    let place = code("\(use.file):\(use.line)")
                    let line = use.code.count > codeLimit ? String(use.code.prefix(codeLimit)) + "…" : use.code
                    lines.append("- " + (use.url.map { "[\(place)](\(destination($0)))" } ?? place) + " (\(text(use.module))) " + code(line))
                }
                if uses.count > listLimit { lines.append("- … and \(uses.count - listLimit) more (`--format html` or `json` lists them all)") }
                lines += ["", "</details>"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Uses listed per team, and characters per code line: a pull request comment holds 65,536
    /// characters.
    static let listLimit = 30
    static let codeLimit = 160

    static func badge(_ status: ProgressReport.Status) -> String {
        switch status {
        case .done: return "✅"
        case .onTrack: return "🟢"
        case .behind: return "🟠"
        case .overdue: return "🔴"
        case .noDeadline, .noHistory, .noTrend: return "⚪"
        }
    }

    /// Text from the repository or the configuration, on one line, with the characters that
    /// could start Markdown or HTML escaped (a team name like `@a_b|c` stays as written, in a
    /// table cell too; nothing here starts a line, so `#`, `-` and `+` need nothing).
    static func text(_ raw: String) -> String {
        var escaped = ""
        for character in SafeText.oneLine(raw) {
            if "\\`*_[]<>|~&".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Text inside HTML (a `<summary>`), on one line.
    static func html(_ raw: String) -> String { ProgressHTML.escape(SafeText.oneLine(raw)) }

    /// Code as written, on one line (`CodeSpans.markdown(code:)`).
    static func code(_ raw: String) -> String { CodeSpans.markdown(code: SafeText.oneLine(raw)) }

    /// A link's destination: in angle brackets, so spaces and parentheses stay in it.
    static func destination(_ url: String) -> String {
        "<" + url.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E").replacingOccurrences(of: " ", with: "%20") + ">"
    }
}
