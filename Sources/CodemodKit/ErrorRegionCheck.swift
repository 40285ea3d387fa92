/// The safety net's rule: a rewrite may keep a file's damaged regions (they move with the edits),
/// but no syntax error region may appear, grow, or move into code that parsed before.
///
/// Counting regions is not enough: an unterminated string can merge three damaged regions into one
/// that swallows the rest of the file. So each region of the rewritten file must lie inside a
/// region of the original, mapped through the edits.
public enum ErrorRegionCheck {
    /// The first region of `after` (byte ranges in the rewritten text) that does not lie inside a
    /// region of `before` (byte ranges in the original) once those are mapped through `edits`;
    /// nil when every region of `after` was there already.
    public static func firstNewRegion(before: [Range<Int>], after: [Range<Int>], edits: EditSet) -> Range<Int>? {
        let allowed = before.map { mapStart($0.lowerBound, edits)..<max(mapStart($0.lowerBound, edits), mapEnd($0.upperBound, edits)) }
        return after.first { region in
            !allowed.contains { $0.lowerBound <= region.lowerBound && region.upperBound <= $0.upperBound }
        }
    }

    /// Where the byte at `offset`, the first of a region, is after the edits. An edit across it
    /// widens the region to the start of the edit's replacement.
    static func mapStart(_ offset: Int, _ edits: EditSet) -> Int {
        var delta = 0
        for edit in edits.edits {
            if edit.range.upperBound <= offset {
                delta += edit.replacement.utf8.count - edit.range.count
            } else if edit.range.lowerBound < offset {
                return edit.range.lowerBound + delta
            } else {
                break
            }
        }
        return offset + delta
    }

    /// Where the end of a region (`offset`, exclusive) is after the edits. Text inserted exactly
    /// at the end lies outside it; an edit across it widens the region to the end of the edit's
    /// replacement.
    static func mapEnd(_ offset: Int, _ edits: EditSet) -> Int {
        var delta = 0
        for edit in edits.edits {
            if edit.range.upperBound < offset || (edit.range.upperBound == offset && !edit.range.isEmpty) {
                delta += edit.replacement.utf8.count - edit.range.count
            } else if edit.range.lowerBound < offset {
                return edit.range.lowerBound + delta + edit.replacement.utf8.count
            } else {
                break
            }
        }
        return offset + delta
    }
}
