import Foundation
import SwiftTree
import Workspace

extension PatternRule {
    /// A planned replacement: the range it covers and the match it renders.
    struct Plan {
        var range: Range<Int>
        var match: Match
    }

    /// The uses of the rule in a tree, and the edits its fix makes: nested matches are rewritten in
    /// the same run (a match inside a captured variable is rewritten in the text put back), and a
    /// site whose fix would drop code the pattern did not mention is left with a note.
    func transform(_ tree: SyntaxTree, codemodID: String, fixing: Bool = true) throws -> Transformation {
        let facts = TreeFacts(tree)
        let found = try matches(in: tree, facts: facts)
        let errors = tree.errorRegions.map(\.byteRange)
        var result = Transformation()
        var plans: [Plan] = []
        for match in found {
            let node = match.node
            let touched = node.hasError || errors.contains { $0.overlaps(node.byteRange) || node.byteRange.contains($0.lowerBound) }
            result.uses.append(Use(codemodID: codemodID, range: node.byteRange, start: node.start, end: node.end,
                                   text: node.text, inErrorRegion: touched))
            guard fix != nil, fixing else { continue }
            if touched {
                result.skippedInErrorRegions += 1
                continue
            }
            do {
                plans.append(try plan(match, context: RuleContext(utilities: utilities, facts: facts)))
            } catch let refusal as SiteRefusal {
                result.refusals.append(refusal)
            }
        }
        guard fix != nil, fixing else { return result }
        plans.sort { ($0.range.lowerBound, -$0.range.upperBound) < ($1.range.lowerBound, -$1.range.upperBound) }
        var edits: [Edit] = []
        for plan in Self.outermost(plans, within: nil) {
            let text = render(plan, among: plans)
            if text.isEmpty {
                edits.append(.removal(ListRemoval.range(removing: plan.range, node: plan.match.node)))
            } else {
                edits.append(Edit(range: plan.range, replacement: text))
            }
        }
        result.edits = EditMerging.mergingRemovals(edits)
        return result
    }

    /// The plans not inside another (of those inside `range`, when given), in source order; the
    /// plans being rendered (`rendering`) are left out, so that a fix whose variable spans its own
    /// match does not render itself again, while another match spanning exactly that variable (the
    /// inner `a.map { $0.b }` of `a.map { $0.b }.map { $0.c }`) is rewritten too.
    static func outermost(_ plans: [Plan], within range: Range<Int>?, rendering: [Node] = []) -> [Plan] {
        var result: [Plan] = []
        for plan in plans {
            if let range, !(range.lowerBound <= plan.range.lowerBound && plan.range.upperBound <= range.upperBound) { continue }
            if rendering.contains(plan.match.node) { continue }
            if let last = result.last, plan.range.lowerBound < last.range.upperBound { continue }
            result.append(plan)
        }
        return result
    }

    /// Where a match's fix goes, or a refusal when the fix would drop code.
    private func plan(_ match: Match, context: RuleContext) throws -> Plan {
        guard let fix else { throw SiteRefusal(location: match.node.start, message: "no fix") }
        let node = match.node
        let source = node.tree.source
        var range = node.byteRange
        let used = Set(fix.template.names)
        // Code after what the pattern consumed (a trailing closure it did not mention).
        let end = match.environment.matchEnd
        if end > range.lowerBound, end < range.upperBound {
            let trailing = source.text(in: end..<range.upperBound)
            if trailing.contains(where: { !$0.isWhitespace }) {
                let written = fix.template.pieces.map { if case let .text(text) = $0 { return text } else { return "$" } }.joined()
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if written.hasSuffix(")"), end > 0, source.bytes[end - 1] == UInt8(ascii: ")") {
                    range = range.lowerBound..<end
                } else {
                    let shown = SafeText.oneLine(trailing.trimmingCharacters(in: .whitespacesAndNewlines), limit: 40)
                    throw SiteRefusal(location: source.location(ofByte: end),
                                      message: "\(id): the fix would drop `\(shown)`, which the pattern does not mention; the site is left as it was (mention it in the pattern, say with $$$REST, and put it in the fix)")
                }
            }
        }
        if let expandEnd = fix.expandEnd {
            var last = node
            while let next = last.nextSibling {
                var scratch = match.environment
                guard try expandEnd.matches(next, &scratch, context) else { break }
                range = range.lowerBound..<max(range.upperBound, next.byteRange.upperBound)
                last = next
            }
        }
        if let expandStart = fix.expandStart {
            var first = node
            while let previous = first.previousSibling {
                var scratch = match.environment
                guard try expandStart.matches(previous, &scratch, context) else { break }
                range = min(range.lowerBound, previous.byteRange.lowerBound)..<range.upperBound
                first = previous
            }
        }
        // A comment the fix would drop: inside the range, outside every variable the fix uses.
        let kept = used.compactMap { match.environment.range(of: $0) }
        var dropped: Node?
        node.tree.root.descendant(spanning: range)?.walk { candidate in
            guard dropped == nil else { return false }
            let candidateRange = candidate.byteRange
            guard candidateRange.overlaps(range) || candidateRange == range else { return false }
            if candidate.isComment, range.contains(candidateRange.lowerBound),
               !kept.contains(where: { $0.lowerBound <= candidateRange.lowerBound && candidateRange.upperBound <= $0.upperBound }) {
                dropped = candidate
            }
            return true
        }
        if let dropped {
            throw SiteRefusal(location: dropped.start,
                              message: "\(id): the fix would drop the comment `\(SafeText.oneLine(dropped.text, limit: 40))`; the site is left as it was")
        }
        return Plan(range: range, match: match)
    }

    /// The text of a plan's fix, with matches inside its variables rewritten too.
    func render(_ plan: Plan, among plans: [Plan], rendering: [Node] = []) -> String {
        guard let fix else { return "" }
        let source = plan.match.node.tree.source
        let environment = plan.match.environment
        let tabs = Indentation.usesTabs(source)
        return fix.template.render(indentation: Indentation.ofLine(at: plan.range.lowerBound, in: source), tabs: tabs,
                                   templateUnit: fix.template.indentationUnit) { name in
            if let value = environment.transformed[name] { return (value, "") }
            guard let range = environment.range(of: name) else { return nil }
            return (rewritten(range, in: source, among: plans, rendering: rendering + [plan.match.node]),
                    Indentation.ofLine(at: range.lowerBound, in: source))
        }
    }

    /// The source of a range with the fixes of the matches inside it applied.
    private func rewritten(_ range: Range<Int>, in source: SourceText, among plans: [Plan], rendering: [Node]) -> String {
        let inner = Self.outermost(plans, within: range, rendering: rendering)
        var text = ""
        var cursor = range.lowerBound
        for plan in inner {
            text += source.text(in: cursor..<plan.range.lowerBound) + render(plan, among: plans, rendering: rendering)
            cursor = plan.range.upperBound
        }
        return text + source.text(in: cursor..<range.upperBound)
    }
}

/// Removing an element of a comma-separated list (an argument, a parameter, an array element, a
/// capture) with its separator and the blanks or the line it leaves.
enum ListRemoval {
    static func range(removing range: Range<Int>, node: Node) -> Range<Int> {
        guard range == node.byteRange else { return range }
        let source = node.tree.source
        if let comma = node.nextSibling, comma.kind == ",", let next = comma.nextSibling {
            return range.lowerBound..<next.byteRange.lowerBound
        }
        if let comma = node.previousSibling, comma.kind == ",", let previous = comma.previousSibling {
            return previous.byteRange.upperBound..<range.upperBound
        }
        return TidyRemoval.range(removing: range, in: source)
    }
}

/// Edits that remove overlapping ranges are one removal of their union (deleting two neighbours
/// of a list each with its comma).
enum EditMerging {
    static func mergingRemovals(_ edits: [Edit]) -> [Edit] {
        let sorted = edits.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        var result: [Edit] = []
        for edit in sorted {
            if let last = result.last, last.replacement.isEmpty, edit.replacement.isEmpty,
               edit.range.lowerBound < last.range.upperBound, !edit.range.isEmpty, !last.range.isEmpty {
                result[result.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, edit.range.upperBound)
                continue
            }
            result.append(edit)
        }
        return result
    }
}
