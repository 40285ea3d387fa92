import CodemodKit
import Foundation
import Workspace
import Migrations

/// SARIF 2.1.0, for code scanning: one rule per migration, one result per finding.
public struct SARIFReporter: Reporter {
    public init() {}

    public func write(_ report: Report, to output: (String) -> Void) {
        output(document(report))
    }

    /// The whole document (one JSON value: it cannot be written in pieces).
    func document(_ report: Report) -> String {
        let allowRule = "swiftmod-allow-comment"
        func ruleID(_ finding: Finding) -> String { finding.kind == .use ? finding.migration : allowRule }
        let ids = Array(Set(report.findings.map(ruleID))).sorted()
        let rules: [[String: Any]] = ids.map { id in
            guard let migration = report.migrations[id] else {
                return ["id": id, "shortDescription": ["text": "A `// swiftmod:allow` comment that allows nothing or gives no reason"]]
            }
            var rule: [String: Any] = [
                "id": id,
                "name": migration.codemodID,
                "shortDescription": ["text": migration.summary],
                "fullDescription": ["text": migration.why.isEmpty ? migration.summary : migration.why],
                "properties": ["priority": migration.settings.priority.rawValue, "fixable": migration.fixable],
            ]
            // Viewers show helpUri as a link: only a web address may be one.
            if let docs = migration.docs, SafeText.isSafeLink(docs, schemes: ["http", "https"]), docs.contains(":") {
                rule["helpUri"] = docs
            }
            var help = [migration.why.isEmpty ? migration.summary : migration.why]
            if let replacement = migration.replacement { help.append("Instead: \(replacement)") }
            if let contact = migration.settings.contact { help.append("Contact: \(contact)") }
            rule["help"] = ["text": help.joined(separator: "\n")]
            return rule
        }
        let results: [[String: Any]] = report.findings.map { finding in
            [
                "ruleId": ruleID(finding),
                "ruleIndex": ids.firstIndex(of: ruleID(finding)) ?? 0,
                "level": report.mode == .check ? "error" : "warning",
                "message": ["text": ([report.headline(finding)] + report.details(finding)).joined(separator: "\n")],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": Self.uri(finding.file), "uriBaseId": "%SRCROOT%"],
                        "region": [
                            "startLine": finding.line, "startColumn": finding.utf16Column ?? finding.column,
                            "endLine": finding.endLine, "endColumn": finding.endUTF16Column ?? finding.endColumn,
                        ],
                    ],
                ]],
                "partialFingerprints": ["swiftmodUse/v1": "\(finding.migration)|\(finding.scope)|\(finding.text)"],
            ]
        }
        let document: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "swiftmod",
                    "rules": rules,
                ]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": URL(fileURLWithPath: report.root, isDirectory: true).absoluteString]],
                "results": results,
                "invocations": [[
                    "executionSuccessful": report.failures.isEmpty && !(report.mode == .check && report.hasBlockingNotJudged),
                    "toolExecutionNotifications": report.failures.map { failure in
                        [
                            "level": "error",
                            "message": ["text": "cannot be scanned: \(failure.reason)"],
                            "locations": [["physicalLocation": ["artifactLocation": ["uri": Self.uri(failure.file), "uriBaseId": "%SRCROOT%"]]]],
                        ] as [String: Any]
                    } + report.notJudged.map { item in
                        var notification: [String: Any] = [
                            "level": report.severity(of: item),
                            "message": ["text": item.description],
                            "descriptor": ["id": "swiftmod/not-judged/\(item.reason.rawValue)"],
                        ]
                        if item.isFile || item.reason == .skippedFolder {
                            notification["locations"] = [["physicalLocation": ["artifactLocation": ["uri": Self.uri(item.path), "uriBaseId": "%SRCROOT%"]]]]
                        }
                        return notification
                    },
                ]],
            ]],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A repo-relative path as a URI reference: each segment percent-encoded.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }
}
