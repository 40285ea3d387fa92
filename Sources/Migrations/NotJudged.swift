import Foundation
import Workspace

/// What a command did not judge, and why: a file over the size limit, files the configuration
/// excludes, a dependency checkout, a file or region the parser misread. Named in every output
/// format and counted apart from the files judged, so nothing is left out silently.
public struct NotJudged: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// Bigger than `max-file-size`.
        case tooLarge = "too-large"
        /// Left out by `include:`/`exclude:` of the configuration (on purpose).
        case excluded
        /// Build output or a dependency checkout where its tool puts it (see `DependencyFolder`),
        /// or a link to a folder outside the tree.
        case skippedFolder = "skipped-folder"
        /// Read by its text only where the parser misread it (see `SyntaxTree.misreadRegions`).
        case misread
    }

    /// Repo-relative: a file, a folder (ending in `/`), or for `excluded` the pattern as written.
    public var path: String
    public var reason: Reason
    /// What was not judged, in a sentence.
    public var detail: String
    /// How many Swift files it stands for (one for a file; for a folder, unknown: 0).
    public var files: Int
    /// Whether `check` fails for it: it may hold a use (a migration's text is in it) and the
    /// configuration does not leave it out on purpose.
    public var blocks: Bool
    /// Whether `path` names one file (which output formats then locate).
    public var isFile: Bool
    /// For a file too large to parse: per migration whose text it holds, how many times (an upper
    /// bound of its uses, each of which holds the text); `Int.max` when a migration has no
    /// required text to count. `check` compares them with the file's baseline entries.
    public var possibleUses: [String: Int] = [:]

    public init(path: String, reason: Reason, detail: String, files: Int = 1, blocks: Bool = false, isFile: Bool = true) {
        self.path = path
        self.reason = reason
        self.detail = detail
        self.files = files
        self.blocks = blocks
        self.isFile = isFile
    }

    /// One line: `path: detail`.
    public var description: String { isFile || reason == .skippedFolder ? "\(path): \(detail)" : detail }

    /// A folder never entered (build output, a dependency checkout, a link leading out).
    public init(skipped folder: FileWalker.SkippedFolder) {
        self.init(path: folder.path.hasSuffix("/") ? folder.path : folder.path + "/", reason: .skippedFolder,
                  detail: "not judged: \(folder.reason)", files: 0, isFile: false)
    }

    /// The files a configuration leaves out, one entry per pattern that left some out (an
    /// example file named), so that a thousand generated files make one line.
    public static func excluded(_ files: [String], by configuration: Configuration) -> [NotJudged] {
        var byPattern: [(pattern: String?, files: [String])] = []
        for file in files {
            let pattern = configuration.exclude.first { $0.matches(file) }?.pattern
            if let index = byPattern.firstIndex(where: { $0.pattern == pattern }) {
                byPattern[index].files.append(file)
            } else {
                byPattern.append((pattern, [file]))
            }
        }
        return byPattern.map { entry in
            let count = entry.files.count
            let what = entry.pattern.map { "excluded by `exclude: \($0)` in \(Configuration.fileName)" }
                ?? "not matched by `include:` of \(Configuration.fileName)"
            let detail = count == 1 ? "not judged: \(what)" : "\(count) Swift files not judged: \(what) (\(entry.files[0]), …)"
            return NotJudged(path: count == 1 ? entry.files[0] : entry.pattern ?? "include:", reason: .excluded, detail: detail,
                             files: count, blocks: false, isFile: count == 1)
        }
    }
}
