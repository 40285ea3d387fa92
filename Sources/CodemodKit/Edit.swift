import SwiftTree
import Workspace

/// One replacement of a byte range of a source text.
public struct Edit: Hashable, Sendable {
    /// The bytes replaced.
    public var range: Range<Int>
    /// The text put in their place.
    public var replacement: String

    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// Removes a range.
    public static func removal(_ range: Range<Int>) -> Edit { Edit(range: range, replacement: "") }
}

extension Array where Element == Edit {
    /// Inserts text at an offset: in front of the replacement of an edit that starts there (two
    /// insertions at one point, or an insertion where a removal starts, would overlap), or as an
    /// edit of its own.
    mutating func insertText(_ text: String, at offset: Int) {
        if let index = firstIndex(where: { $0.range.lowerBound == offset }) {
            self[index].replacement = text + self[index].replacement
        } else {
            append(Edit(range: offset..<offset, replacement: text))
        }
    }
}

/// A codemod produced edits that overlap, so there is no single right way to apply them.
public struct OverlappingEditsError: Error, CustomStringConvertible {
    public var first: (range: Range<Int>, location: SourceLocation)
    public var second: (range: Range<Int>, location: SourceLocation)

    public var description: String {
        "engine error: the codemod produced overlapping edits at \(first.location) and \(second.location); "
            + "no edit of this file was applied"
    }
}

/// The edits of one file, sorted and checked never to overlap.
public struct EditSet: Sendable {
    /// The edits, in source order.
    public private(set) var edits: [Edit]

    /// Sorts edits and checks them. Identical edits collapse into one; two different edits of
    /// overlapping ranges (or two insertions at one point) are an error.
    public init(_ edits: [Edit], in source: SourceText) throws {
        let sorted = Array(Set(edits)).sorted {
            ($0.range.lowerBound, $0.range.upperBound, $0.replacement) < ($1.range.lowerBound, $1.range.upperBound, $1.replacement)
        }
        for (previous, next) in zip(sorted, sorted.dropFirst()) {
            let overlaps = next.range.lowerBound < previous.range.upperBound
                || (next.range.lowerBound == previous.range.lowerBound)
            if overlaps {
                throw OverlappingEditsError(
                    first: (previous.range, source.location(ofByte: previous.range.lowerBound)),
                    second: (next.range, source.location(ofByte: next.range.lowerBound)))
            }
        }
        self.edits = sorted
    }

    public var isEmpty: Bool { edits.isEmpty }
    public var count: Int { edits.count }

    /// The bytes of the source with every edit applied.
    public func apply(to source: SourceText) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(source.bytes.count + 64)
        var cursor = 0
        for edit in edits {
            output.append(contentsOf: source.bytes[cursor..<edit.range.lowerBound])
            output.append(contentsOf: edit.replacement.utf8)
            cursor = edit.range.upperBound
        }
        output.append(contentsOf: source.bytes[cursor...])
        return output
    }
}
