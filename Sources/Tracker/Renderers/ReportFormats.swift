import CodemodKit
import Migrations
import Foundation
import Workspace

/// The output formats of `swiftmod report`.
public enum ProgressFormat: String, CaseIterable, Sendable {
    case text, json, csv, html, markdown

    public func render(_ report: ProgressReport) -> String {
        switch self {
        case .text: return ProgressText.render(report)
        case .json: return ProgressJSON.render(report)
        case .csv: return ProgressCSV.render(report)
        case .html: return ProgressHTML.render(report)
        case .markdown: return ProgressMarkdown.render(report)
        }
    }
}

extension ProgressReport.Status {
    /// How the status reads.
    public var label: String {
        switch self {
        case .done: return "done"
        case .onTrack: return "on track"
        case .behind: return "behind"
        case .overdue: return "overdue"
        case .noDeadline: return "no deadline"
        case .noHistory: return "no history yet"
        case .noTrend: return "no trend yet"
        }
    }
}

extension ProgressReport.TeamProgress {
    /// How the team's status reads: "behind its commitment" when it committed to a day.
    public var statusLabel: String {
        switch status {
        case .behind where commitment != nil: return "behind its commitment"
        case .onTrack where commitment != nil: return "on track for its commitment"
        default: return status.label
        }
    }
}

extension ProgressReport.Change {
    /// "-42 uses since 2026-11-01, 3 teams done" (the noun: uses or violations).
    public func summary(noun: String) -> String {
        let sign = delta > 0 ? "+" : delta < 0 ? "−" : "±"
        var text = "\(sign)\(abs(delta)) \(noun)\(abs(delta) == 1 ? "" : "s") since \(since)"
        if !teamsDone.isEmpty { text += ", \(teamsDone.count) team\(teamsDone.count == 1 ? "" : "s") done" }
        return text
    }
}

extension ProgressReport.MigrationProgress {
    /// What is counted: violations of a module rule, findings of an outlet rule, uses of a
    /// deprecated pattern.
    public var noun: String {
        switch codemod {
        case Migration.moduleRulesID: "violation"
        case OutletRules.codemodID: "finding"
        default: "use"
        }
    }

    /// The remaining uses grouped by a key (a team: a use counts for each of its owners; a module),
    /// groups in order of size.
    public func uses(by key: (ProgressReport.Use) -> [String]) -> [(name: String, uses: [ProgressReport.Use])] {
        var groups: [String: [ProgressReport.Use]] = [:]
        for use in uses ?? [] { for name in key(use) { groups[name, default: []].append(use) } }
        return groups.map { ($0.key, $0.value) }.sorted { ($1.uses.count, $0.name) < ($0.uses.count, $1.name) }
    }
}

/// The report as JSON: every number the other formats show.
enum ProgressJSON {
    static func render(_ report: ProgressReport) -> String {
        return ((try? JSONText.pretty(report)) ?? "") + "\n"
    }
}

/// The report as CSV, one row per fact, for spreadsheets: the migration's total (with its
/// projection), each module, each team (with its commitment, status and projection), each point
/// of the history (the migration's, and each team's), records missing from the start of the
/// history, module types, and, with `--uses`, each use.
/// `status`, `burn_per_week` and `projected_done` are those of the row's subject.
enum ProgressCSV {
    static let header = ["date", "commit", "migration", "priority", "started", "deadline", "dimension", "name", "uses", "fixable",
                         "status", "burn_per_week", "projected_done", "commitment", "record_date", "record_commit", "file", "line", "code", "url"]

    static func render(_ report: ProgressReport) -> String {
        var rows = [header.joined(separator: ",")]
        func row(_ values: [String: String]) { rows.append(header.map { field(values[$0] ?? "") }.joined(separator: ",")) }
        for migration in report.migrations {
            let head = ["date": report.date, "commit": report.commit ?? "", "migration": migration.id, "priority": migration.priority,
                        "started": migration.started ?? "", "deadline": migration.deadline ?? ""]
            func projected(_ projection: ProgressReport.Projection?) -> [String: String] {
                ["burn_per_week": projection.map { "\($0.burnPerWeek)" } ?? "", "projected_done": projection?.completionDate ?? ""]
            }
            row(head.merging(["dimension": "total", "uses": "\(migration.total)", "fixable": "\(migration.fixable)",
                              "status": migration.status.rawValue]) { $1 }.merging(projected(migration.projection)) { $1 })
            for count in migration.modules {
                row(head.merging(["dimension": "module", "name": count.name, "uses": "\(count.uses)", "fixable": "\(count.fixable)"]) { $1 })
            }
            for team in migration.teams {
                row(head.merging(["dimension": "owner", "name": team.owner, "uses": "\(team.remaining)", "fixable": "\(team.fixable)",
                                  "status": team.status.rawValue, "commitment": team.commitment ?? ""]) { $1 }.merging(projected(team.projection)) { $1 })
            }
            if let missing = migration.missingHistory {
                row(head.merging(["dimension": "missing-history", "name": missing.message, "record_date": missing.firstRecord ?? ""]) { $1 })
            }
            for point in migration.history {
                row(head.merging(["dimension": "history", "uses": "\(point.uses)", "record_date": point.date, "record_commit": point.commit ?? ""]) { $1 })
            }
            for team in migration.teams {
                for point in team.history {
                    row(head.merging(["dimension": "owner-history", "name": team.owner, "uses": "\(point.uses)",
                                      "record_date": point.date, "record_commit": point.commit ?? ""]) { $1 })
                }
            }
            for use in migration.uses ?? [] {
                row(head.merging(["dimension": "use", "name": use.owners.joined(separator: " "), "file": use.file, "line": "\(use.line)",
                                  "code": use.code, "url": use.url ?? "", "uses": "1"]) { $1 })
            }
        }
        // Module types: their rule's violations left, as a dimension of their own.
        for typeRow in report.modules?.types ?? [] {
            let rule = report.migrations.first { $0.id == typeRow.rule }
            row(["date": report.date, "commit": report.commit ?? "", "migration": typeRow.rule ?? "", "priority": rule?.priority ?? "",
                 "deadline": rule?.deadline ?? "", "status": rule?.status.rawValue ?? "", "dimension": "module-type", "name": typeRow.type,
                 "uses": "\(typeRow.violations)", "fixable": "0"])
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// One cell: never a formula (`SafeText.spreadsheetCell`; a plain number such as `-0.8` is
    /// left a number), quoted (RFC 4180) when it holds a comma, a quote or a line break.
    static func field(_ raw: String) -> String {
        let isNumber = Double(raw) != nil && raw.unicodeScalars.allSatisfy { "0123456789.-".unicodeScalars.contains($0) }
        let text = isNumber ? raw : SafeText.spreadsheetCell(raw)
        return text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text != raw
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// The report for a terminal (or a CI log): every name and text from the repository or the
/// configuration stays on its line (`SafeText.oneLine`).
enum ProgressText {
    static func render(_ report: ProgressReport) -> String {
        func t(_ text: String) -> String { SafeText.oneLine(text) }
        var output = "Migration progress on \(report.date)\(report.commit.map { " at \(t(String($0.prefix(10))))" } ?? "")"
            + (report.team.map { " for \(t($0))" } ?? "") + "\n"
        for migration in report.migrations {
            var head = "\n\(t(migration.id))  \(t(migration.priority))"
            if let started = migration.started { head += "  started \(t(started))" }
            if let deadline = migration.deadline { head += "  due \(t(deadline))" }
            head += "  — \(migration.status.label.uppercased())"
            if let projection = migration.projection, migration.total > 0 {
                if projection.burnPerWeek > 0 {
                    head += " (\(projection.burnPerWeek) uses/week"
                    if let date = projection.completionDate { head += ", done by \(date)" }
                    head += ")"
                } else {
                    head += " (no progress)"
                }
            }
            if migration.total == 0, let date = migration.projection?.completionDate { head += " (since \(date))" }
            output += head + "\n  \(t(migration.summary))\n"
            let noun = migration.noun
            output += "  \(migration.total) \(noun)\(migration.total == 1 ? "" : "s") left"
            if let change = migration.change { output += " (\(change.summary(noun: noun))\(change.teamsDone.isEmpty ? "" : ": " + change.teamsDone.map(t).joined(separator: ", ")))" }
            if migration.fixable > 0 { output += ", \(migration.fixable) fixable with `swiftmod run \(t(migration.id))`" }
            output += "\n"
            if let missing = migration.missingHistory { output += "  warning: \(t(missing.message))\n" }
            if let docs = migration.docs { output += "  docs: \(t(docs))\n" }
            if let contact = migration.contact { output += "  contact: \(t(contact))\n" }
            if !migration.modules.isEmpty {
                output += "  by module: " + migration.modules.map { "\(t($0.name)) \($0.uses)" }.joined(separator: ", ") + "\n"
                output += "  by owner:  " + migration.owners.map { "\(t($0.name)) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            if migration.history.count > 1 {
                output += "  history:   " + (migration.history.count > 8 ? "(\(migration.history.count - 8) earlier) " : "")
                    + migration.history.suffix(8).map { "\($0.date) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            for team in migration.teams where team.commitment != nil || team.reason != nil {
                var line = "  team:      \(t(team.owner)) \(team.remaining) left, \(team.statusLabel)"
                if let commitment = team.commitment { line += " (committed to \(t(commitment)))" }
                if let reason = team.reason { line += ": \(t(reason))" }
                output += line + "\n"
            }
            if !migration.uncommitted.isEmpty {
                output += "  behind without a commitment: \(migration.uncommitted.map(t).joined(separator: ", ")) (add `commitments:` to .swiftmod.yml)\n"
            }
            for (team, uses) in migration.uses(by: \.owners) {
                output += "  uses of \(t(team)) (\(uses.count)):\n"
                for use in uses { output += "    \(t(use.file)):\(use.line): \(t(use.code))\n" }
            }
        }
        if let modules = report.modules {
            output += "\nModules: \(modules.modules.filter { !$0.external }.count), \(modules.edges.count) dependencies (`swiftmod modules` lists them)\n"
            for row in modules.types {
                output += "  \(t(row.type)): \(row.modules) module\(row.modules == 1 ? "" : "s")"
                output += row.rule == nil ? ", no rule\n" : ", \(row.violations) violation\(row.violations == 1 ? "" : "s") left in \(row.violatingModules) of them (\(t(row.forbids)))\n"
            }
            for cycle in modules.cycles { output += "  cycle: \(cycle.map(t).joined(separator: " → "))\n" }
        }
        return output
    }
}
