/// The safety net's rule: a rewrite may keep a file's damaged regions (they move with the edits),
/// but no syntax error region may appear, grow, or move into code that parsed before.
///
/// Counting regions is not enough: an unterminated string can merge three damaged regions into one
/// that swallows the rest of the file. So each region of the rewritten file must lie inside a
/// region of the original, mapped through the edits.
public struct ErrorRegionCheck {
    private let edits: [Edit]
    /// `shifts[k]`: how many bytes the first `k` edits add (negative when they remove).
    private let shifts: [Int]

    init(edits: EditSet) {
        self.edits = edits.edits
        var shifts = [0]
        for edit in edits.edits { shifts.append(shifts.last! + edit.replacement.utf8.count - edit.range.count) }
        self.shifts = shifts
    }

    /// The first region of `after` (byte ranges in the rewritten text) that does not lie inside a
    /// region of `before` (outermost regions of the original, in source order) once those are
    /// mapped through `edits`; nil when every region of `after` was there already.
    public static func firstNewRegion(before: [Range<Int>], after: [Range<Int>], edits: EditSet) -> Range<Int>? {
        let check = ErrorRegionCheck(edits: edits)
        // Outermost regions do not overlap, and the mapping keeps their order.
        let allowed = before.map { region -> Range<Int> in
            let start = check.mapStart(region.lowerBound)
            return start..<max(start, check.mapEnd(region.upperBound))
        }.sorted { $0.lowerBound < $1.lowerBound }
        return after.first { region in
            // The last allowed region starting at or before this one is the only one that can hold it.
            let index = allowed.partitionIndex { $0.lowerBound > region.lowerBound } - 1
            return index < 0 || region.upperBound > allowed[index].upperBound
        }
    }

    /// How many edits end before `offset` (or at it, when `inclusive`).
    private func editsEnding(before offset: Int, inclusive: Bool) -> Int {
        edits.partitionIndex { inclusive ? $0.range.upperBound > offset : $0.range.upperBound >= offset }
    }

    /// Where the byte at `offset`, the first of a region, is after the edits. An edit across it
    /// widens the region to the start of the edit's replacement.
    func mapStart(_ offset: Int) -> Int {
        let count = editsEnding(before: offset, inclusive: true)
        if count < edits.count, edits[count].range.lowerBound < offset { return edits[count].range.lowerBound + shifts[count] }
        return offset + shifts[count]
    }

    /// Where the end of a region (`offset`, exclusive) is after the edits. Text inserted exactly
    /// at the end lies outside it; an edit across it widens the region to the end of the edit's
    /// replacement.
    func mapEnd(_ offset: Int) -> Int {
        var count = editsEnding(before: offset, inclusive: false)
        if count < edits.count, edits[count].range.upperBound == offset, !edits[count].range.isEmpty { count += 1 }
        if count < edits.count, edits[count].range.lowerBound < offset, offset < edits[count].range.upperBound {
            return edits[count].range.lowerBound + shifts[count] + edits[count].replacement.utf8.count
        }
        return offset + shifts[count]
    }
}

extension Array {
    /// The index of the first element for which `isAfter` holds, for an array where it is false
    /// and then true (a binary search).
    func partitionIndex(_ isAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
