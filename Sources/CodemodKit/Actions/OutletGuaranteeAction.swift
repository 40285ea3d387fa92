import Foundation
import SwiftTree
import Workspace

/// `outlet-guarantee`: a filter for codemods about implicitly unwrapped outlets. An outlet whose
/// view may be absent (rule 2: not connected in some storyboard or xib that uses its class, or
/// removed from its superview) is no use of theirs, with a note: making it strong `!` would keep
/// the crash; `iboutlet-optional` is its fix. Every other outlet passes on to the next step.
///
/// The verdicts are the repository's (`OutletRepository`), read once per run; without a run (an
/// example, `scan`, one file in the editor) the file's own code is judged alone.
public struct OutletGuaranteeAction: RepositoryReadingAction {
    public let name = "outlet-guarantee"
    public let summary = "Leaves alone an implicitly unwrapped outlet whose view may be absent, as Interface Builder's files and the class's code say"
    public let contract = ActionContract(requiredCaptures: ["outlet", "name"])

    public init() {}

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let declaration = context.match["outlet"], let name = context.match["name"].map({ SwiftOutlets.unticked($0.text) }),
              let className = IBOutletOptionalAction.className(of: declaration),
              let entry = OutletRepository.of(context).entry(className: className, outlet: name, declaration: declaration.byteRange),
              entry.verdict.mayBeAbsent, entry.outlet.isImplicitlyUnwrapped else { return .use }
        let repository = OutletRepository.of(context)
        if repository.isAmbiguous(className: className, outlet: name, declaration: declaration.byteRange) {
            return .note("`\(className).\(name)` stays: another class of this name declares it at the same place with another verdict, and which of the two this is cannot be told (`swiftmod outlets` shows both)")
        }
        return .note("`\(className).\(name)` may be absent (\(entry.reason)): it should be optional, not strong (`swiftmod run iboutlet-optional`)")
    }

    public func edits(in context: ActionContext) throws -> [Edit] { [] }

    /// The verdicts are all it needs: files without outlets are read whole only where they matter.
    public var readsUses: Bool { false }

    /// It makes no edits: the next steps' edits are reviewed one by one.
    public var editsStandTogether: Bool { false }
}
