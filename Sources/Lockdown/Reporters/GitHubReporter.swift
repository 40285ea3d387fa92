import CodemodKit
import Workspace
import Migrations
/// GitHub Actions workflow commands: each finding becomes an annotation on the pull request.
public struct GitHubReporter: Reporter {
    public init() {}

    public func write(_ report: Report, to output: (String) -> Void) {
        for failure in report.failures {
            output("::error file=\(escapeProperty(failure.file)),title=\(escapeProperty("swiftmod: cannot be scanned"))::\(escapeData(failure.reason))\n")
        }
        for item in report.notJudged {
            let file = item.isFile ? "file=\(escapeProperty(item.path))," : ""
            // GitHub's word for a note is `notice`.
            let level = report.severity(of: item) == "note" ? "notice" : report.severity(of: item)
            output("::\(level) \(file)title=\(escapeProperty("swiftmod: not judged"))::\(escapeData(item.description))\n")
        }
        for finding in report.findings {
            let level = report.mode == .check ? "error" : "warning"
            let title = finding.kind == .use ? "swiftmod: \(finding.migration)" : "swiftmod: allow comment"
            let properties = [
                "file=\(escapeProperty(finding.file))",
                "line=\(finding.line)",
                "col=\(finding.characterColumn ?? finding.column)",
                "endLine=\(finding.endLine)",
                "endColumn=\(finding.endCharacterColumn ?? finding.endColumn)",
                "title=\(escapeProperty(title))",
            ].joined(separator: ",")
            let message = ([report.headline(finding)] + report.details(finding)).joined(separator: "\n")
            output("::\(level) \(properties)::\(escapeData(message))\n")
        }
    }

    /// Escapes a message as the runner expects (`%`, CR and LF).
    func escapeData(_ text: String) -> String {
        // GitHub's encoding for `%`, CR and LF; other control characters (an ANSI escape in a
        // file name, say, which the log viewer would act on) become visible escapes.
        SafeText.oneLine(text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A"))
    }

    /// Escapes a property value (also `:` and `,`).
    func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
