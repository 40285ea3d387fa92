import CodemodKit
import Migrations
import Foundation
import Workspace

/// The output formats of `swiftmod report`.
public enum ProgressFormat: String, CaseIterable, Sendable {
    case text, json, csv, html

    public func render(_ report: ProgressReport) -> String {
        switch self {
        case .text: return ProgressText.render(report)
        case .json: return ProgressJSON.render(report)
        case .csv: return ProgressCSV.render(report)
        case .html: return ProgressHTML.render(report)
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
        }
    }
}

/// The report as JSON: every number the other formats show.
enum ProgressJSON {
    static func render(_ report: ProgressReport) -> String {
        return ((try? JSONText.pretty(report)) ?? "") + "\n"
    }
}

/// The report as CSV: one row per migration total, module and owner.
enum ProgressCSV {
    static func render(_ report: ProgressReport) -> String {
        var rows = ["date,commit,migration,priority,deadline,status,dimension,name,uses,fixable"]
        for migration in report.migrations {
            let head = [report.date, report.commit ?? "", migration.id, migration.priority, migration.deadline ?? "", migration.status.rawValue]
            rows.append((head + ["total", "", "\(migration.total)", "\(migration.fixable)"]).map(field).joined(separator: ","))
            for count in migration.modules {
                rows.append((head + ["module", count.name, "\(count.uses)", "\(count.fixable)"]).map(field).joined(separator: ","))
            }
            for count in migration.owners {
                rows.append((head + ["owner", count.name, "\(count.uses)", "\(count.fixable)"]).map(field).joined(separator: ","))
            }
        }
        // Module types: their rule's violations left, as a dimension of their own.
        for row in report.modules?.types ?? [] {
            let rule = report.migrations.first { $0.id == row.rule }
            let head = [report.date, report.commit ?? "", row.rule ?? "", rule?.priority ?? "", rule?.deadline ?? "", rule?.status.rawValue ?? ""]
            rows.append((head + ["module-type", row.type, "\(row.violations)", "0"]).map(field).joined(separator: ","))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// One cell: never a formula (`SafeText.spreadsheetCell`), quoted (RFC 4180) when it holds a
    /// comma, a quote or a line break.
    static func field(_ raw: String) -> String {
        let text = SafeText.spreadsheetCell(raw)
        return text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text != raw
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// The report for a terminal (or a CI log): every name and text from the repository or the
/// configuration stays on its line (`SafeText.oneLine`).
enum ProgressText {
    static func render(_ report: ProgressReport) -> String {
        func t(_ text: String) -> String { SafeText.oneLine(text) }
        var output = "Migration progress on \(report.date)\(report.commit.map { " at \(t(String($0.prefix(10))))" } ?? "")\n"
        for migration in report.migrations {
            var head = "\n\(t(migration.id))  \(t(migration.priority))"
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
            let noun = migration.codemod == Migration.moduleRulesID ? "violation" : "use"
            output += "  \(migration.total) \(noun)\(migration.total == 1 ? "" : "s") left"
            if migration.fixable > 0 { output += ", \(migration.fixable) fixable with `swiftmod run \(t(migration.id))`" }
            output += "\n"
            if let docs = migration.docs { output += "  docs: \(t(docs))\n" }
            if let contact = migration.contact { output += "  contact: \(t(contact))\n" }
            if !migration.modules.isEmpty {
                output += "  by module: " + migration.modules.map { "\(t($0.name)) \($0.uses)" }.joined(separator: ", ") + "\n"
                output += "  by owner:  " + migration.owners.map { "\(t($0.name)) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            if migration.history.count > 1 {
                output += "  history:   " + migration.history.suffix(8).map { "\($0.date) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            for team in migration.teamsBehind {
                output += "  behind:    \(t(team.owner)) (\(team.remaining) left): \(t(team.reason))\n"
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
