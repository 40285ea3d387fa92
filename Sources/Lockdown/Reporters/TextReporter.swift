import CodemodKit
import Workspace
import Migrations

/// `path:line:column: error: message`, what compilers print and editors and Xcode read; the
/// reasons follow on indented lines (or, for Xcode, on the same line). Paths and texts from files
/// and configurations are kept on their line (`SafeText.oneLine`), so no file name or summary can
/// forge a diagnostic of its own.
public struct TextReporter: Reporter {
    public var absolutePaths: Bool
    public var oneLine = false

    public init(absolutePaths: Bool, oneLine: Bool = false) {
        self.absolutePaths = absolutePaths
        self.oneLine = oneLine
    }

    public func write(_ report: Report, to output: (String) -> Void) {
        for failure in report.failures {
            let path = absolutePaths ? "\(report.root)/\(failure.file)" : failure.file
            output("\(SafeText.oneLine(path)):1:1: error: cannot be scanned: \(SafeText.oneLine(failure.reason))\n")
        }
        for item in report.notJudged {
            let severity = report.severity(of: item)
            if item.isFile {
                let path = absolutePaths ? "\(report.root)/\(item.path)" : item.path
                output("\(SafeText.oneLine(path)):1:1: \(severity): \(SafeText.oneLine(item.detail))\n")
            } else {
                output("\(severity): \(SafeText.oneLine(item.description))\n")
            }
        }
        for finding in report.findings {
            let path = absolutePaths ? "\(report.root)/\(finding.file)" : finding.file
            let head = "\(SafeText.oneLine(path)):\(finding.line):\(finding.column): \(report.severity): \(SafeText.oneLine(report.headline(finding)))"
            let details = report.details(finding).map(SafeText.oneLine)
            if oneLine {
                output(([head] + details).joined(separator: " — ") + "\n")
            } else {
                output(head + "\n" + details.map { "    \($0)\n" }.joined())
            }
        }
    }
}
