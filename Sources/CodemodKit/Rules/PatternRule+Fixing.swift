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
        let tabs = Indentation.usesTabs(tree.source)
        plans.sort { ($0.range.lowerBound, -$0.range.upperBound) < ($1.range.lowerBound, -$1.range.upperBound) }
        var edits: [Edit] = []
        var removed: [Node] = []
        for plan in Self.outermost(plans, within: nil) {
            let text = render(plan, among: plans, tabs: tabs)
            // A line break inside a one-line string's interpolation does not compile (the
            // grammar accepts it, so the safety net would not see it).
            let innerInString = fix?.template.shape.contains("\n") == true
                ? plans.first { inner in plan.range.lowerBound <= inner.range.lowerBound && inner.range.upperBound <= plan.range.upperBound && Self.oneLineString(around: inner.match.node) != nil }
                : nil
            if text.unicodeScalars.contains("\n"), let string = Self.oneLineString(around: plan.match.node) ?? innerInString.flatMap({ Self.oneLineString(around: $0.match.node) }) {
                result.refusals.append(SiteRefusal(location: plan.match.node.start,
                                                   message: "\(id): the fix spans several lines, inside the interpolation of the one-line string `\(SafeText.oneLine(string.text, limit: 40))`, where a line break does not compile; the site is left as it was"))
                continue
            }
            // The value of an argument (`f(x, legacyArg(), y)`): the argument is the list's element.
            var element = plan.match.node
            if let parent = element.parent, parent.kind == "value_argument", parent.byteRange == element.byteRange { element = parent }
            if text.isEmpty, plan.range == plan.match.node.byteRange, ListRemoval.isElement(element) {
                removed.append(element)
            } else if text.isEmpty {
                // A statement removed with the `;` that ends it (`a(); b(); c()` without `b()`).
                // (The grammar keeps `;` out of the tree: it is read from the text.)
                let range = plan.range
                let bytes = tree.source.bytes
                var end = range.upperBound
                while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: ";") {
                    end += 1
                    while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
                    edits.append(.removal(range.lowerBound..<end))
                    continue
                }
                edits.append(.removal(TidyRemoval.range(removing: range, in: tree.source)))
            } else {
                edits.append(Edit(range: plan.range, replacement: text))
            }
        }
        edits += ListRemoval.ranges(removing: removed).map(Edit.removal)
        result.edits = EditMerging.mergingRemovals(edits.map { $0.trimmed(in: tree.source) })
        return result
    }

    /// The one-line string literal whose interpolation holds a node, if any (`"\\(x)"`, `#"\\#(x)"#`).
    static func oneLineString(around node: Node) -> Node? {
        var current = node.parent
        while let ancestor = current {
            if ancestor.kind == "line_string_literal" { return ancestor }
            if ancestor.kind == "raw_string_literal", !ancestor.text.drop(while: { $0 == "#" }).hasPrefix("\"\"\"") { return ancestor }
            if ancestor.kind == "multi_line_string_literal" { return nil }
            current = ancestor.parent
        }
        return nil
    }

    /// Whether a trailing closure put after a fix ending in `)` still belongs to the call it was
    /// written for: the fix's last call is the matched call (renamed or not), not another call
    /// chained after it (`dataTask(with: $U)` → `dataTask(with: $U).resume()` would hand the
    /// closure to `resume()`).
    static func closureStaysWithItsCall(fix: String, matched: String) -> Bool {
        /// The name called by the final argument list, what that list holds, and whether a call
        /// comes before it in a chain.
        func lastCall(_ text: String) -> (name: String, arguments: Substring, chained: Bool)? {
            let characters = Array(text)
            var depth = 0
            var open: Int?
            for index in characters.indices.reversed() {
                switch characters[index] {
                case ")", "]", "}": depth += 1
                case "(", "[", "{":
                    depth -= 1
                    if depth == 0, characters[index] == "(" { open = index }
                default: break
                }
                if open != nil { break }
            }
            guard let open else { return nil }
            let before = text[..<text.index(text.startIndex, offsetBy: open)]
            let name = String(before.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }.reversed())
            let rest = before.dropLast(name.count).trimmingCharacters(in: .whitespaces)
            let chained = [").", ")?.", ")!."].contains { rest.hasSuffix($0) } || rest.hasSuffix(")")
            return (name, text[text.index(text.startIndex, offsetBy: open)...], chained)
        }
        guard let written = lastCall(fix), let original = lastCall(matched) else { return false }
        // `(call)` is no call; `wrap(call)` passes the call to another one.
        // A renamed call may not take another call: `wrap(load($A))` hands the closure to `wrap`.
        let nestedCall = written.arguments.dropFirst().range(of: #"[A-Za-z_][A-Za-z0-9_]*\s*\("#, options: .regularExpression) != nil
        guard !written.name.isEmpty, !(written.name != original.name && (written.arguments.contains(original.name + "(") || nestedCall)) else { return false }
        guard written.chained else { return true }
        return written.name == original.name
    }

    /// The plans not inside another (of those inside `range`, when given), in source order; the
    /// plans being rendered (`rendering`) are left out, so that a fix whose variable spans its own
    /// match does not render itself again, while another match spanning exactly that variable (the
    /// inner `a.map { $0.b }` of `a.map { $0.b }.map { $0.c }`) is rewritten too.
    /// `plans` are in source order: those inside `range` are found by bisection (a file of many
    /// sites renders each variable in logarithmic, not linear, time).
    static func outermost(_ plans: [Plan], within range: Range<Int>?, rendering: [Node] = []) -> [Plan] {
        var result: [Plan] = []
        var first = 0
        if let range {
            var high = plans.count
            while first < high {
                let middle = (first + high) / 2
                if plans[middle].range.lowerBound < range.lowerBound { first = middle + 1 } else { high = middle }
            }
        }
        for plan in plans[first...] {
            if let range, plan.range.lowerBound >= range.upperBound, !(plan.range.isEmpty && plan.range.lowerBound == range.upperBound) { break }
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
                let written = fix.template.shape
                if written.hasSuffix(")"), end > 0, source.bytes[end - 1] == UInt8(ascii: ")"),
                   Self.closureStaysWithItsCall(fix: written, matched: source.text(in: range.lowerBound..<end)) {
                    range = range.lowerBound..<end
                } else {
                    let shown = SafeText.oneLine(trailing.trimmingCharacters(in: .whitespacesAndNewlines), limit: 40)
                    throw SiteRefusal(location: source.location(ofByte: end),
                                      message: "\(id): the fix would drop `\(shown)`, which the pattern does not mention; the site is left as it was (mention it in the pattern, say with $$$REST, and put it in the fix)")
                }
            }
        }
        // A trailing closure the grammar hangs on a call around the match (`f(x) { a in … }` is
        // `(f(x)) { a in … }`): the fix's last call must still be the one it belongs to.
        if let parent = node.parent, parent.kind == "call_expression", parent.child(at: 0) == node,
           let suffix = parent.child(at: 1), suffix.kind == "call_suffix",
           let first = suffix.child(at: 0), first.kind == "lambda_literal" || first.kind == "annotated_lambda" {
            let written = fix.template.shape
            if !(written.hasSuffix(")") && Self.closureStaysWithItsCall(fix: written, matched: node.text)) {
                throw SiteRefusal(location: first.start,
                                  message: "\(id): the call's trailing closure would be handed to other code (`\(SafeText.oneLine(written, limit: 40))` does not end with the matched call); the site is left as it was")
            }
        }
        // An operator chain the grammar grouped against Swift's precedence (`a != b && c` read
        // as `a != (b && c)`), where the pattern relied on that grouping: the fix would not mean
        // what the code means. Inside a variable it is copied as it is.
        let captured = match.environment.single.values.map(\.byteRange)
            + match.environment.multi.keys.compactMap { match.environment.range(of: $0) }
        if let misread = OperatorPrecedence.firstMisread(in: node, outside: captured) ?? OperatorPrecedence.misreadAround(node) {
            throw SiteRefusal(location: misread.start,
                              message: "\(id): the Swift grammar groups `\(SafeText.oneLine(misread.text, limit: 40))` against Swift's operator precedence, and the match relies on that grouping: the fix could change what the code does; the site is left as it was (see \"Operators\" in docs/patterns.md)")
        }
        // A `#if` the grammar read as part of an expression (a modifier chain with `#if os(iOS)`
        // lines: `#endif` becomes the receiver of the next `.modifier`): a fix would move it.
        var directive: Node?
        node.walk { candidate in
            guard directive == nil else { return false }
            // Inside what a variable copies, away from its ends, a directive stays where it is.
            if captured.contains(where: { $0.lowerBound < candidate.byteRange.lowerBound && candidate.byteRange.upperBound < $0.upperBound }) { return false }
            if candidate.kind == "directive", let parent = candidate.parent,
               parent.kind.hasSuffix("_expression") || parent.kind.hasSuffix("_suffix") || parent.kind.hasPrefix("value_argument") {
                directive = candidate
            }
            return directive == nil
        }
        if let directive {
            throw SiteRefusal(location: directive.start,
                              message: "\(id): the Swift grammar reads `\(SafeText.oneLine(directive.text, limit: 30))` as part of the expression around it, so a fix could move it; the site is left as it was")
        }
        // A `rewrite` with `joinBy` keeps only what its rewriters rewrote.
        for name in used.sorted() {
            guard let left = match.environment.leftOutByJoin[name] else { continue }
            throw SiteRefusal(location: node.start,
                              message: "\(id): $\(name) (a rewrite with joinBy) leaves out `\(SafeText.oneLine(left, limit: 40))`, which no rewriter matched; the site is left as it was")
        }
        // Code the pattern skipped inside the match (a trailing closure of a nested call) goes
        // with the fix unless a variable the fix uses holds it.
        let keptRanges = used.compactMap { match.environment.range(of: $0) }
            + transformations.filter { used.contains($0.name) }.compactMap { match.environment.range(of: $0.source) }
        for skipped in match.environment.skippedCode where skipped.upperBound <= range.upperBound {
            guard !keptRanges.contains(where: { $0.lowerBound <= skipped.lowerBound && skipped.upperBound <= $0.upperBound }) else { continue }
            let shown = SafeText.oneLine(source.text(in: skipped).trimmingCharacters(in: .whitespacesAndNewlines), limit: 40)
            throw SiteRefusal(location: source.location(ofByte: skipped.lowerBound),
                              message: "\(id): the fix would drop `\(shown)`, which the pattern does not mention; the site is left as it was (mention it in the pattern, say with $$$REST, and put it in the fix)")
        }
        // A neighbour: the sibling, or where the node starts (ends) its parent, the parent's: the
        // grammar puts a comment before a block's first statement beside the block's statements.
        func previous(_ node: Node) -> Node? {
            if let sibling = node.previousSibling { return sibling }
            guard let parent = node.parent, parent.kind == "statements", parent.byteRange.lowerBound == node.byteRange.lowerBound else { return nil }
            return previous(parent)
        }
        func next(_ node: Node) -> Node? {
            if let sibling = node.nextSibling { return sibling }
            guard let parent = node.parent, parent.kind == "statements", parent.byteRange.upperBound == node.byteRange.upperBound else { return nil }
            return next(parent)
        }
        // As ast-grep 0.51 does: one neighbour at most (`expandEnd: { regex: ',' }` takes the
        // comma, never the next argument, which may hold a comma too).
        if let expandEnd = fix.expandEnd, let next = next(node) {
            var scratch = match.environment
            if try expandEnd.matches(next, &scratch, context) {
                range = range.lowerBound..<max(range.upperBound, next.byteRange.upperBound)
            }
        }
        if let expandStart = fix.expandStart, let previous = previous(node) {
            var scratch = match.environment
            if try expandStart.matches(previous, &scratch, context) {
                range = min(range.lowerBound, previous.byteRange.lowerBound)..<range.upperBound
            }
        }
        // A comment the fix would drop: inside the matched code, outside every variable the fix
        // uses (what expandStart/expandEnd take in is the rule's own choice).
        let kept = keptRanges
        let matched = node.byteRange.lowerBound..<min(node.byteRange.upperBound, max(range.upperBound, node.byteRange.lowerBound))
        var dropped: Node?
        node.walk { candidate in
            guard dropped == nil else { return false }
            let candidateRange = candidate.byteRange
            guard candidateRange.overlaps(matched) else { return false }
            if candidate.isComment, matched.contains(candidateRange.lowerBound),
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
    /// - Parameter tabs: whether the file indents with tabs (`Indentation.usesTabs`), found once per file.
    func render(_ plan: Plan, among plans: [Plan], tabs: Bool, rendering: [Node] = []) -> String {
        guard let fix else { return "" }
        let source = plan.match.node.tree.source
        let environment = plan.match.environment
        return fix.template.render(indentation: Indentation.ofLine(at: plan.range.lowerBound, in: source), tabs: tabs,
                                   templateUnit: fix.template.indentationUnit) { name in
            if let value = environment.transformed[name] {
                // A transformation's value has the lines of the code it was made from.
                let origin = transformations.first { $0.name == name }.flatMap { environment.range(of: $0.source) }
                return (value, origin.map { Indentation.ofLine(at: $0.lowerBound, in: source) } ?? "", nil)
            }
            guard let range = environment.range(of: name) else { return nil }
            return (rewritten(range, in: source, among: plans, rendering: rendering + [plan.match.node], tabs: tabs),
                    Indentation.ofLine(at: range.lowerBound, in: source), environment.single[name].flatMap(OperatorPrecedence.loosest))
        }
    }

    /// The source of a range with the fixes of the matches inside it applied.
    private func rewritten(_ range: Range<Int>, in source: SourceText, among plans: [Plan], rendering: [Node], tabs: Bool) -> String {
        let inner = Self.outermost(plans, within: range, rendering: rendering)
        var text = ""
        var cursor = range.lowerBound
        for plan in inner {
            text += source.text(in: cursor..<plan.range.lowerBound) + render(plan, among: plans, tabs: tabs, rendering: rendering)
            cursor = plan.range.upperBound
        }
        return text + source.text(in: cursor..<range.upperBound)
    }
}

/// Removing elements of comma-separated lists (arguments, parameters, array elements, captures)
/// with their separators and the blanks or lines they leave: `f(a, b, c)` without `b` and `c` is
/// `f(a)`, and an element alone on its line takes its line with it.
enum ListRemoval {
    /// Whether a node is an element of a list: a comma is beside it (comments between aside).
    static func isElement(_ node: Node) -> Bool {
        neighbour(of: node, after: true)?.kind == "," || neighbour(of: node, after: false)?.kind == ","
    }

    /// The sibling before or after a node, comments skipped.
    static func neighbour(of node: Node, after: Bool) -> Node? {
        var current = after ? node.nextSibling : node.previousSibling
        while let sibling = current, sibling.isComment { current = after ? sibling.nextSibling : sibling.previousSibling }
        return current
    }

    /// The ranges to remove for a set of elements (of one list or several): each element with
    /// one comma and the blanks that would be left over; comments stay.
    static func ranges(removing nodes: [Node]) -> [Range<Int>] {
        var byParent: [Node: [Node]] = [:]
        for node in nodes { if let parent = node.parent { byParent[parent, default: []].append(node) } }
        var result: [Range<Int>] = []
        for (parent, removedNodes) in byParent {
            let removed = Set(removedNodes)
            let children = parent.children
            // The elements of the list (by index in `children`): neither commas nor comments nor brackets.
            let elements = children.indices.filter { index in
                let child = children[index]
                return child.isNamed && !child.isComment && (isElement(child) || removed.contains(child))
            }
            var index = 0
            while index < elements.count {
                guard removed.contains(children[elements[index]]) else { index += 1; continue }
                var last = index
                while last + 1 < elements.count, removed.contains(children[elements[last + 1]]) { last += 1 }
                if last + 1 < elements.count {
                    // A kept element follows: each node up to it goes with the blanks after it.
                    for k in elements[index]..<elements[last + 1] where !children[k].isComment {
                        result.append(children[k].byteRange.lowerBound..<children[k + 1].byteRange.lowerBound)
                    }
                } else {
                    // The run ends the list: each node from the comma before it goes with the
                    // blanks before it (after a line comment, only when a line break follows it,
                    // which then ends the comment).
                    let from = index > 0 ? elements[index - 1] + 1 : elements[index]
                    let bytes = parent.tree.source.bytes
                    for k in from...elements[last] where !children[k].isComment {
                        let node = children[k]
                        var start = node.byteRange.lowerBound
                        if k > from || index > 0 {
                            let previous = children[k - 1]
                            let breakFollows = bytes[node.byteRange.upperBound...].prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }.contains(0x0A)
                            if !(previous.isComment && previous.text.hasPrefix("//")) || breakFollows { start = previous.byteRange.upperBound }
                        }
                        result.append(start..<node.byteRange.upperBound)
                    }
                }
                index = last + 1
            }
        }
        return result.sorted { $0.lowerBound < $1.lowerBound }
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

extension Edit {
    /// The same change without the lines it would leave as they were at its start and end (a
    /// multi-line fix that keeps most lines shows only the lines it changes in a diff).
    func trimmed(in source: SourceText) -> Edit {
        guard !replacement.isEmpty, !range.isEmpty else { return self }
        let old = Array(source.bytes[range])
        // Compared with the file's own line endings (a CRLF file gets CRLF in its edits anyway).
        let crlf = source.dominantLineEnding == "\r\n"
        let new = Array((crlf ? replacement.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n") : replacement).utf8)
        var prefix = 0
        // Whole lines only, so that what a person reads as the change stays together.
        var lastLineEnd = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] {
            prefix += 1
            if old[prefix - 1] == 0x0A { lastLineEnd = prefix }
        }
        prefix = lastLineEnd
        var suffix = 0
        var lastLineStart = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
            if old[old.count - suffix] == 0x0A { lastLineStart = suffix }
        }
        suffix = lastLineStart
        guard prefix > 0 || suffix > 0 else { return self }
        let text = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
        guard !text.isEmpty || old.count - prefix - suffix > 0 else { return self }
        return Edit(range: (range.lowerBound + prefix)..<(range.upperBound - suffix), replacement: text)
    }
}
