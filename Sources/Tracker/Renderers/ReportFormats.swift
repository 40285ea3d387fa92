import Foundation

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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self) + "\n"
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
        return rows.joined(separator: "\n") + "\n"
    }

    static func field(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// The report for a terminal.
enum ProgressText {
    static func render(_ report: ProgressReport) -> String {
        var output = "Migration progress on \(report.date)\(report.commit.map { " at \($0.prefix(10))" } ?? "")\n"
        for migration in report.migrations {
            var head = "\n\(migration.id)  \(migration.priority)"
            if let deadline = migration.deadline { head += "  due \(deadline)" }
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
            output += head + "\n  \(migration.summary)\n"
            output += "  \(migration.total) use\(migration.total == 1 ? "" : "s") left"
            if migration.fixable > 0 { output += ", \(migration.fixable) fixable with `swiftmod run \(migration.id)`" }
            output += "\n"
            if let docs = migration.docs { output += "  docs: \(docs)\n" }
            if let contact = migration.contact { output += "  contact: \(contact)\n" }
            if !migration.modules.isEmpty {
                output += "  by module: " + migration.modules.map { "\($0.name) \($0.uses)" }.joined(separator: ", ") + "\n"
                output += "  by owner:  " + migration.owners.map { "\($0.name) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            if migration.history.count > 1 {
                output += "  history:   " + migration.history.suffix(8).map { "\($0.date) \($0.uses)" }.joined(separator: ", ") + "\n"
            }
            for team in migration.teamsBehind {
                output += "  behind:    \(team.owner) (\(team.remaining) left): \(team.reason)\n"
            }
        }
        return output
    }
}
