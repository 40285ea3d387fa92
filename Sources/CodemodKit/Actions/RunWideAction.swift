import SwiftTree
import Workspace

/// An action whose edits in one file depend on what the other files of the same run hold: the
/// XCTest conversion converts a helper in one file only when every test that calls it, in any
/// file, is converted too.
///
/// Before a run rewrites anything, each file that `mightSurvey(_:)` is parsed and surveyed; the
/// surveys are concluded once, and the conclusion is handed to every match as `context.run`.
/// Where there is no run (an example, the editor's one file), the file being rewritten is the
/// whole run.
public protocol RunWideAction: RewriteAction {
    /// Whether a file's bytes may hold anything worth surveying (false skips parsing it).
    func mightSurvey(_ bytes: [UInt8]) -> Bool
    /// What one file tells the others.
    func survey(_ tree: SyntaxTree) -> any Sendable
    /// What a file the run could not read (too large, not UTF-8, unreadable) tells: nil when
    /// nothing, else something `conclude` weighs (it may hold what the others depend on).
    func unsurveyed(_ path: String, reason: String) -> (any Sendable)?
    /// What all the surveys of a run decide together.
    func conclude(_ surveys: [any Sendable]) -> any Sendable
    /// The same, knowing the run's files (an action that reads the repository around them).
    func conclude(_ surveys: [any Sendable], files: [String]) -> any Sendable
    /// The edits a file needs that none of its uses carried (a list entry naming a class another
    /// file converts), asked once per file after its matches.
    func remainingEdits(in context: ActionContext) -> [Edit]
}

extension RunWideAction {
    public func conclude(_ surveys: [any Sendable], files: [String]) -> any Sendable { conclude(surveys) }
}

/// A run-wide action that reads the repository around the run (its storyboards, say) rather
/// than surveying the run's files: its conclusion is an `OutletRepository`.
public protocol RepositoryReadingAction: RunWideAction {
    /// Whether it needs every use of an outlet in the code (a rewrite of them), not only the
    /// verdicts: every Swift file is then read whole.
    var readsUses: Bool { get }
}

extension RepositoryReadingAction {
    public var readsUses: Bool { true }
    public func mightSurvey(_ bytes: [UInt8]) -> Bool { false }
    public func survey(_ tree: SyntaxTree) -> any Sendable { 0 }
    public func unsurveyed(_ path: String, reason: String) -> (any Sendable)? { nil }
    public func conclude(_ surveys: [any Sendable]) -> any Sendable { 0 }
    public func remainingEdits(in context: ActionContext) -> [Edit] { [] }
    public func conclude(_ surveys: [any Sendable], files: [String]) -> any Sendable { OutletRepository.around(files, readingUses: readsUses) }
}

/// The survey pass of a run: every file's survey through the one pipeline.
struct RunSurvey: FileConsumer {
    let action: any RunWideAction

    func needsTree(_ bytes: [UInt8]) -> Bool { action.mightSurvey(bytes) }
    func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> (any Sendable)? { nil }
    func unreadable(_ file: PipelineFile, error: SourceFileError) -> (any Sendable)? { action.unsurveyed(file.path, reason: error.reason) }
    func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> (any Sendable)? { action.survey(tree) }
}
