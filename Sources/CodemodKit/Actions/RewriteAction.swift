import SwiftTree
import Workspace

/// What a built-in action sees of one match.
public struct ActionContext {
    /// The tree the match is in.
    public var tree: SyntaxTree
    /// The codemod's parameter values.
    public var params: [String: String]
    /// The query match.
    public var match: QueryMatch
    /// Values computed once per tree and shared by all the matches in it.
    public var memo: TreeMemo
    /// What a `RunWideAction` concluded from every file of the run, or nil outside a run.
    public var run: (any Sendable)?

    public init(tree: SyntaxTree, params: [String: String], match: QueryMatch, memo: TreeMemo, run: (any Sendable)? = nil) {
        self.tree = tree
        self.params = params
        self.match = match
        self.memo = memo
        self.run = run
    }
}

/// Values an action computes once per tree (say, which declarations shadow a name) instead of
/// once per match. Made for one tree on one thread.
public final class TreeMemo {
    private var values: [String: Any] = [:]

    public init() {}

    /// The value under a key, computed the first time it is asked for.
    public func value<Value>(_ key: String, _ compute: () -> Value) -> Value {
        // Look the key up first: a stored nil (for an optional Value) is a value too.
        if let stored = values[key], let value = stored as? Value { return value }
        let value = compute()
        values[key] = value
        return value
    }
}

/// A site the codemod found but will not rewrite, with the reason (say, a name clash).
public struct SiteRefusal: Error, CustomStringConvertible, Sendable {
    public var location: SourceLocation
    public var message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// What a query match is, once an action has looked at its context.
public enum MatchVerdict: Equatable, Sendable {
    /// A use of the pattern.
    case use
    /// Not a use (say, a member that only shares the name).
    case ignore
    /// Not a use, but worth telling (say, a local type that shadows the one being replaced).
    case note(String)
}

/// A rewrite that a template cannot express, written in Swift and named by definitions
/// (`rewrite: { action: NAME }`).
public protocol RewriteAction: Sendable {
    /// The name definitions use.
    var name: String { get }
    /// A sentence for `swiftmod list --verbose` and errors.
    var summary: String { get }
    /// The captures and parameters the action reads, checked when a definition naming it is
    /// loaded (see `ActionContract`).
    var contract: ActionContract { get }
    /// Whether a query match is a use at all; what a query cannot say (scopes, declarations).
    /// Uses decide what `scan` counts, so this is asked even when nothing is rewritten.
    func classify(_ context: ActionContext) -> MatchVerdict
    /// The edits for one match.
    /// - Throws: `SiteRefusal` to leave this site alone with a message.
    func edits(in context: ActionContext) throws -> [Edit]
    /// Why the codemod's parameter values cannot work with this action (say, a keyword where a
    /// name goes), or nil. Asked when a codemod is bound to its values: a usage error.
    func problem(with params: [String: String]) -> String?
    /// Whether a file's edits stand or fall together (a renaming), so that an interactive review
    /// offers them as one change; false for an action that only decides what is a use.
    var editsStandTogether: Bool { get }
}

extension RewriteAction {
    public func classify(_ context: ActionContext) -> MatchVerdict { .use }
    public func problem(with params: [String: String]) -> String? { nil }
    public var editsStandTogether: Bool { true }
}

/// The built-in actions by name.
public struct ActionRegistry: Sendable {
    private var actions: [String: any RewriteAction]

    public init(_ actions: [any RewriteAction]) {
        self.actions = Dictionary(uniqueKeysWithValues: actions.map { ($0.name, $0) })
    }

    /// The actions that ship with swiftmod.
    public static let standard = ActionRegistry([RebindSelfAction(), SwapTypeAction(), XCTestToSwiftTestingAction(), IBOutletOptionalAction(), OutletGuaranteeAction()])

    public func action(named name: String) -> (any RewriteAction)? { actions[name] }

    public var names: [String] { actions.keys.sorted() }
}
