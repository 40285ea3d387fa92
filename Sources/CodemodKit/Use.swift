import SwiftTree
import Workspace

/// One use of a pattern a codemod finds: a deprecated construct at a place in a file.
public struct Use: Sendable {
    /// The codemod that found it.
    public var codemodID: String
    /// The byte range of the use's node.
    public var range: Range<Int>
    /// Where the use starts and ends.
    public var start: SourceLocation
    public var end: SourceLocation
    /// The use's source text.
    public var text: String
    /// Whether the use touches a region the parser could not read (found, but never rewritten).
    public var inErrorRegion: Bool
}
