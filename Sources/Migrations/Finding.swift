import SwiftTree
import Workspace

/// One reported thing: a use of a migration's pattern, or an allow comment that is wrong.
public struct Finding: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// A use of the migration's pattern.
        case use
        /// `// swiftmod:allow ID` that allows no use.
        case unusedAllow
        /// `// swiftmod:allow ID` without `-- reason`.
        case allowWithoutReason
    }

    public var kind: Kind
    /// The migration's id (for allow problems, the id the comment names).
    public var migration: String
    public var codemod: String
    /// The file, relative to the repository root.
    public var file: String
    public var line: Int
    public var column: Int
    public var endLine: Int
    public var endColumn: Int
    /// The use's text, blanks folded, on one line.
    public var text: String
    /// The declarations around the use, such as `ProfileViewController.viewDidLoad()`.
    public var scope: String
    /// Whether the use sits in a region the parser could not read.
    public var inErrorRegion: Bool
    /// The columns in Unicode characters (what GitHub counts) and in UTF-16 code units (SARIF's
    /// default); `column` and `endColumn` count UTF-8 bytes, as compilers and Xcode do.
    public var characterColumn: Int?
    public var endCharacterColumn: Int?
    public var utf16Column: Int?
    public var endUTF16Column: Int?
    /// For a module rule: what is wrong, in words (`FeedService (Service) may not import UIKit`).
    public var detail: String?
    /// For a module rule: the module whose dependency it is (a manifest's file is no module's).
    public var module: String?

    public init(kind: Kind, migration: String, codemod: String, file: String, line: Int, column: Int,
                endLine: Int, endColumn: Int, text: String, scope: String, inErrorRegion: Bool) {
        self.kind = kind
        self.migration = migration
        self.codemod = codemod
        self.file = file
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
        self.text = text
        self.scope = scope
        self.inErrorRegion = inErrorRegion
    }

    /// Fills the character and UTF-16 columns from source positions.
    mutating func setCharacterColumns(start: SourceLocation, end: SourceLocation, in source: SourceText) {
        characterColumn = start.characterColumn
        endCharacterColumn = end.characterColumn
        func utf16(_ location: SourceLocation) -> Int {
            let lineStart = source.lineStarts[location.line - 1]
            return source.text(in: lineStart..<location.offset).utf16.count + 1
        }
        utf16Column = utf16(start)
        endUTF16Column = utf16(end)
    }

    /// What identifies the use across edits, moves and renames: the migration, the declarations
    /// around it and its text — never its line or file.
    public var fingerprint: Fingerprint { Fingerprint(migration: migration, scope: scope, text: text) }
}

/// What makes two uses the same use in the baseline.
public struct Fingerprint: Hashable, Sendable, Codable, Comparable {
    public var migration: String
    public var scope: String
    public var text: String

    public init(migration: String, scope: String, text: String) {
        self.migration = migration
        self.scope = scope
        self.text = text
    }

    public static func < (lhs: Fingerprint, rhs: Fingerprint) -> Bool {
        (lhs.migration, lhs.scope, lhs.text) < (rhs.migration, rhs.scope, rhs.text)
    }
}

/// Rules whose findings are kept by file, found over the whole repository (module rules,
/// outlet rules).
public protocol FindingsByFile {
    /// The findings not allowed inline, and wrong allow comments, by repo-relative file.
    var findingsByFile: [String: [Finding]] { get }
    /// How many findings allow comments allowed, by file.
    var allowedByFile: [String: Int] { get }
}

extension FindingsByFile {
    /// The findings in some files (repo-relative; nil: every file), in file order, and how many
    /// were allowed inline.
    public func results(in files: [String]? = nil) -> (findings: [Finding], allowed: Int) {
        var findings: [Finding] = []
        var allowed = 0
        for file in Set(files ?? Array(findingsByFile.keys) + Array(allowedByFile.keys)).sorted() {
            findings += findingsByFile[file] ?? []
            allowed += allowedByFile[file] ?? 0
        }
        return (findings, allowed)
    }
}

extension Finding {
    /// The order of a scan's findings: by file, line, column, then migration.
    public static func inScanOrder(_ first: Finding, _ second: Finding) -> Bool {
        if first.file != second.file { return first.file < second.file }
        if first.line != second.line { return first.line < second.line }
        if first.column != second.column { return first.column < second.column }
        return first.migration < second.migration
    }
}

extension Array where Element == Finding {
    /// Adds some findings, all in scan order (`Finding.inScanOrder`). A few more among thousands
    /// in order already are merged in, not sorted with them.
    public mutating func add(_ more: [Finding]) {
        guard isInScanOrder else {
            self = (self + more).sorted(by: Finding.inScanOrder)
            return
        }
        guard !more.isEmpty else { return }
        // Merged in place from the end: the findings here are moved (swapped), not copied, and
        // those in order already come first where the order ties.
        // (Through buffers: an element passed from an array is copied, its strings retained.)
        let more = more.sorted(by: Finding.inScanOrder)
        var old = count - 1
        append(contentsOf: more)
        more.withUnsafeBufferPointer { more in
            withUnsafeMutableBufferPointer { findings in
                var new = more.count - 1
                var slot = findings.count - 1
                while new >= 0 {
                    if old >= 0, Finding.inScanOrder(more[new], findings[old]) {
                        findings.swapAt(slot, old)
                        old -= 1
                    } else {
                        findings[slot] = more[new]
                        new -= 1
                    }
                    slot -= 1
                }
            }
        }
    }

    /// Removes the findings at some positions (in increasing order): those kept are moved, in
    /// their order, not copied.
    public mutating func remove(at positions: [Int]) {
        guard let first = positions.first else { return }
        let kept = withUnsafeMutableBufferPointer { findings in
            var kept = first
            var next = positions.startIndex
            for position in first..<findings.endIndex {
                if next < positions.endIndex, positions[next] == position {
                    next += 1
                    continue
                }
                findings.swapAt(kept, position)
                kept += 1
            }
            return kept
        }
        removeLast(count - kept)
    }

    /// Whether the findings are in scan order (`Finding.inScanOrder`).
    private var isInScanOrder: Bool {
        withUnsafeBufferPointer { findings in
            findings.indices.dropLast().allSatisfy { !Finding.inScanOrder(findings[$0 + 1], findings[$0]) }
        }
    }
}
