import CodemodKit
import Foundation
import Migrations

/// What `scan` and `check` tell: the findings, with each migration's reasons and help.
public struct Report: Sendable {
    public enum Mode: String, Sendable {
        /// Every use (`scan`): informational.
        case scan
        /// New uses against the baseline (`check`): errors.
        case check
    }

    public var mode: Mode
    public var findings: [Finding]
    public var migrations: [String: Migration]
    /// The repository root, for absolute paths (Xcode).
    public var root: String
    /// Uses the baseline allows (check) or that exist (scan).
    public var allowedCount: Int
    /// Baseline entries no longer used (check).
    public var fixedCount: Int
    /// Uses allowed inline with `// swiftmod:allow`.
    public var inlineAllowedCount: Int
    /// Files that could not be read: the report is incomplete without them.
    public var failures: [FileFailure]
    /// What was not judged (too large, excluded, a dependency folder, misread): named in every
    /// format, counted apart; those that `block` fail `check`.
    public var notJudged: [NotJudged]

    public init(mode: Mode, findings: [Finding], migrations: [Migration], root: String,
                allowedCount: Int = 0, fixedCount: Int = 0, inlineAllowedCount: Int = 0, failures: [FileFailure] = [],
                notJudged: [NotJudged] = []) {
        self.failures = failures
        self.notJudged = notJudged
        self.mode = mode
        self.findings = findings
        self.migrations = Dictionary(uniqueKeysWithValues: migrations.map { ($0.id, $0) })
        self.root = root
        self.allowedCount = allowedCount
        self.fixedCount = fixedCount
        self.inlineAllowedCount = inlineAllowedCount
    }

    /// The one-line message of a finding.
    public func headline(_ finding: Finding) -> String {
        switch finding.kind {
        case .unusedAllow, .allowWithoutReason:
            return finding.text
        case .use:
            guard let migration = migrations[finding.migration] else { return "use of \(finding.migration)" }
            var tags = [migration.settings.priority.rawValue]
            if let deadline = migration.settings.deadline { tags.append("due \(deadline)") }
            if migration.isOutletRule {
                let what = mode == .check ? "new finding of outlet rule" : "finding of outlet rule"
                return "\(what) '\(migration.id)' (\(tags.joined(separator: ", "))): \(finding.detail ?? finding.text)"
            }
            if migration.isModuleRule {
                let what = mode == .check ? "new violation of module rule" : "violation of module rule"
                return "\(what) '\(migration.id)' (\(tags.joined(separator: ", "))): \(finding.detail ?? migration.summary)"
            }
            let what = mode == .check ? "new use of deprecated pattern" : "use of deprecated pattern"
            return "\(what) '\(migration.id)' (\(tags.joined(separator: ", "))): \(migration.summary)"
        }
    }

    /// The explanation lines of a finding: why, what instead, docs, contact, how to fix.
    public func details(_ finding: Finding) -> [String] {
        guard finding.kind == .use, let migration = migrations[finding.migration] else {
            switch finding.kind {
            case .use: return []
            case .allowWithoutReason: return ["say why after `--`: // swiftmod:allow \(finding.migration) -- the reason"]
            case .unusedAllow: return ["remove the comment, or put it on the line of a use (or the line before)"]
            }
        }
        var lines = migration.why.isEmpty ? [] : ["why: \(migration.why)"]
        if let replacement = migration.replacement { lines.append("instead: \(replacement)") }
        if let docs = migration.docs { lines.append("docs: \(docs)") }
        if let contact = migration.settings.contact { lines.append("contact: \(contact)") }
        if migration.settings.rule == .outletNotGuaranteed {
            let path = finding.file.utf8.contains(where: { Self.shellSpecial.contains($0) })
                ? "'" + finding.file.replacingOccurrences(of: "'", with: "'\\''") + "'" : finding.file
            lines.append("fix: swiftmod run iboutlet-optional \(path) (or connect the outlet where its class is used)")
        } else if migration.settings.rule == .staleConnection {
            lines.append("fix: remove the connection in Interface Builder (Connections inspector), or declare `\(finding.text.split(separator: ".").last ?? "")` again")
        } else if migration.settings.rule == .cycles {
            lines.append("fix: remove this dependency or another on the cycle (each breaks it), or move what both modules need into a module of its own")
        } else if migration.isModuleRule {
            lines.append(finding.scope.isEmpty ? "fix: remove the import, or move the code that needs it to a module allowed to depend on it"
                                               : "fix: remove the dependency from target \(finding.scope), or move the code that needs it")
        } else if migration.fixable {
            let path = finding.file.utf8.contains(where: { Self.shellSpecial.contains($0) })
                ? "'" + finding.file.replacingOccurrences(of: "'", with: "'\\''") + "'" : finding.file
            lines.append("fix: swiftmod run \(migration.id) \(path)")
        } else {
            lines.append("fix: by hand (no automatic rewrite)")
        }
        if mode == .check {
            lines.append(finding.file.hasSuffix(".swift")
                ? "exception: add `// swiftmod:allow \(migration.id) -- reason` at the end of this line or on the line before"
                : "exception: `swiftmod baseline` records it (Interface Builder's files take no comments)")
        }
        if finding.inErrorRegion { lines.append("note: this use sits where the file does not parse") }
        return lines
    }

    /// Bytes a shell would read as more than a letter of a file name.
    static let shellSpecial = Set(" '\"$`\\()&;|<>*?[]#~".utf8)

    /// Whether findings are errors (check) or warnings (scan).
    public var severity: String { mode == .check ? "error" : "warning" }

    /// The summary line.
    public var summary: String { failing + counts + unreadable + notJudgedCount }

    /// `fails: 1 file not judged may hold new uses; ` first, when that alone fails a check whose
    /// counts would read as a pass.
    private var failing: String {
        let blocking = notJudged.filter(\.blocks).count
        guard mode == .check, blocking > 0 else { return "" }
        return "fails: \(plural(blocking, "file")) not judged may hold new uses; "
    }

    /// Whether something not judged fails a check: a file that may hold a use and that the
    /// configuration does not leave out on purpose.
    public var hasBlockingNotJudged: Bool { notJudged.contains(where: \.blocks) }

    /// Decides which files too large to parse fail a check: those that may hold more uses of a
    /// migration than the baseline records for them (each use holds its migration's text, so a
    /// file holding the text no more often than it has entries cannot have a new use).
    public mutating func judgeTooLargeFiles(against baseline: Baseline) {
        var entries: [String: [String: Int]] = [:]
        for entry in baseline.entries { entries[entry.file, default: [:]][entry.migration, default: 0] += 1 }
        for index in notJudged.indices where notJudged[index].reason == .tooLarge {
            let item = notJudged[index]
            let over = item.possibleUses.filter { $0.value > entries[item.path]?[$0.key] ?? 0 }.keys.sorted()
            notJudged[index].blocks = !over.isEmpty
            if !over.isEmpty {
                notJudged[index].detail += "; it may hold new uses of \(over.joined(separator: ", ")) (its text is there more often than the baseline has uses): raise max-file-size (in \(Configuration.fileName) or --max-file-size), or exclude the file there"
            }
        }
    }

    /// The severity a not-judged item is reported with: an error when it fails a check, a note
    /// for what is left out on purpose (excluded, dependency folders: said on every run, so it
    /// must not read as something to fix), else a warning.
    public func severity(of item: NotJudged) -> String {
        if item.blocks && mode == .check { return "error" }
        return item.reason == .excluded || item.reason == .skippedFolder ? "note" : "warning"
    }

    /// `; 3 not judged (1 fails the check)`: Swift files left out, apart from those looked at.
    private var notJudgedCount: String {
        guard !notJudged.isEmpty else { return "" }
        let files = notJudged.filter { $0.reason != .misread }.reduce(0) { $0 + $1.files }
        let folders = notJudged.filter { $0.reason == .skippedFolder && !$0.isFile }.count
        let misread = notJudged.filter { $0.reason == .misread }.count
        var parts: [String] = []
        if files > 0 { parts.append("\(plural(files, "file")) not judged") }
        if folders > 0 { parts.append("\(plural(folders, "folder")) not entered") }
        if misread > 0 { parts.append("\(plural(misread, "file")) partly misread by the parser") }
        return "; " + parts.joined(separator: ", ")
    }

    /// The summary line with where the findings are and how many files were looked at:
    /// "5 new uses … in 3 files; 6 files checked" (the findings of module rules may lie in files a
    /// partial check did not read, so the first count is not part of the second).
    public func summary(filesLookedAt: Int) -> String {
        let holding = Set(findings.map(\.file)).count
        let verb = mode == .check ? "checked" : "scanned"
        return failing + counts + (holding == 0 ? "" : " in \(holding) file\(holding == 1 ? "" : "s")") + unreadable
            + "; \(filesLookedAt) file\(filesLookedAt == 1 ? "" : "s") \(verb)" + notJudgedCount
    }

    /// What was found, without the files.
    private var counts: String {
        let uses = findings.filter { $0.kind == .use }.count
        let problems = findings.count - uses
        switch mode {
        case .scan:
            var text = "\(uses) use\(uses == 1 ? "" : "s") of \(migrations.count) migration\(migrations.count == 1 ? "" : "s")"
            if inlineAllowedCount > 0 { text += ", \(inlineAllowedCount) allowed inline" }
            if problems > 0 { text += ", \(problems) allow comment problem\(problems == 1 ? "" : "s")" }
            return text
        case .check:
            var text = uses == 0 ? "no new uses" : "\(uses) new use\(uses == 1 ? "" : "s") the baseline does not allow"
            text += " (\(allowedCount) allowed by the baseline"
            if inlineAllowedCount > 0 { text += ", \(inlineAllowedCount) inline" }
            text += ")"
            if problems > 0 { text += "; \(problems) allow comment problem\(problems == 1 ? "" : "s")" }
            return text
        }
    }

    private var unreadable: String {
        failures.isEmpty ? "" : "; \(failures.count) file\(failures.count == 1 ? "" : "s") could not be read"
    }
}

/// Renders a report in one output format.
public protocol Reporter {
    /// Writes the report in pieces (a finding at a time where the format allows), so that a
    /// report of many findings is never held whole in memory.
    func write(_ report: Report, to output: (String) -> Void)
}

extension Reporter {
    /// The whole report as one string.
    public func render(_ report: Report) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }
}

/// The output formats of `scan` and `check`.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, github, xcode

    public var reporter: any Reporter {
        switch self {
        case .text: return TextReporter(absolutePaths: false)
        case .xcode: return TextReporter(absolutePaths: true, oneLine: true)
        case .json: return JSONReporter()
        case .sarif: return SARIFReporter()
        case .github: return GitHubReporter()
        }
    }
}
