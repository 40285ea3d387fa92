import Foundation
import Workspace
import Migrations

/// Machine-readable findings: every field a tool might want, one object per finding.
public struct JSONReporter: Reporter {
    public init() {}

    struct Output: Encodable {
        var mode: String
        var findings: [Item]
        var unreadableFiles: [Unreadable]
        var notJudged: [NotJudgedItem]
        var summary: Summary
    }

    /// A file, folder or pattern not judged (see `NotJudged`).
    struct NotJudgedItem: Encodable {
        var path: String
        var reason: String
        var detail: String
        var files: Int
        var isFile: Bool
        var failsCheck: Bool
    }

    struct Item: Encodable {
        var kind: String
        var migration: String
        var codemod: String
        var file: String
        var line: Int
        var column: Int
        var endLine: Int
        var endColumn: Int
        /// The column in characters (`column` counts UTF-8 bytes, as compilers do).
        var characterColumn: Int
        var text: String
        var scope: String
        /// For a module rule: the module, and what is wrong in words.
        var module: String?
        var detail: String?
        var message: String
        var priority: String?
        var deadline: String?
        var why: String?
        var replacement: String?
        var docs: String?
        var contact: String?
        var fixable: Bool
        var inErrorRegion: Bool
    }

    struct Unreadable: Encodable {
        var file: String
        var reason: String
    }

    struct Summary: Encodable {
        var findings: Int
        var allowedByBaseline: Int
        var allowedInline: Int
        var fixedSinceBaseline: Int
        var text: String
    }

    public func write(_ report: Report, to output: (String) -> Void) {
        output(document(report))
    }

    /// The whole document (one JSON value: it cannot be written in pieces).
    func document(_ report: Report) -> String {
        let items = report.findings.map { finding -> Item in
            let migration = report.migrations[finding.migration]
            let isUse = finding.kind == .use
            return Item(kind: finding.kind.rawValue, migration: finding.migration, codemod: finding.codemod,
                        file: finding.file, line: finding.line, column: finding.column,
                        endLine: finding.endLine, endColumn: finding.endColumn,
                        characterColumn: finding.characterColumn ?? finding.column, text: finding.text, scope: finding.scope,
                        module: finding.module, detail: finding.detail,
                        message: report.headline(finding),
                        priority: isUse ? migration?.settings.priority.rawValue : nil,
                        deadline: isUse ? migration?.settings.deadline : nil,
                        why: isUse ? migration?.why : nil,
                        replacement: isUse ? migration?.replacement : nil,
                        docs: isUse ? migration?.docs : nil,
                        contact: isUse ? migration?.settings.contact : nil,
                        fixable: isUse && (migration?.fixable ?? false),
                        inErrorRegion: finding.inErrorRegion)
        }
        let output = Output(mode: report.mode.rawValue, findings: items,
                            unreadableFiles: report.failures.map { Unreadable(file: $0.file, reason: $0.reason) },
                            notJudged: report.notJudged.map {
                                NotJudgedItem(path: $0.path, reason: $0.reason.rawValue, detail: $0.detail, files: $0.files,
                                              isFile: $0.isFile, failsCheck: $0.blocks && report.mode == .check)
                            },
                            summary: Summary(findings: items.count, allowedByBaseline: report.allowedCount,
                                             allowedInline: report.inlineAllowedCount,
                                             fixedSinceBaseline: report.fixedCount, text: report.summary))
        return ((try? JSONText.pretty(output)) ?? "") + "\n"
    }
}
