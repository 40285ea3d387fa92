import SwiftTree

/// Why a pattern does or does not match a file: its tree, its matches, and for the closest
/// candidate where matching stopped (`swiftmod parse FILE --pattern CODE`).
public struct PatternExplanation {
    public var pattern: Pattern

    public init(_ pattern: Pattern) { self.pattern = pattern }

    /// The report, as lines.
    public func report(for tree: SyntaxTree, file: String) -> String {
        var lines = ["pattern (strictness \(pattern.strictness.rawValue)):"]
        lines += pattern.treeDescription.split(separator: "\n").map { "  " + $0 }
        var matched: [Node] = []
        var closest: (progress: Int, reason: String, at: Node, candidate: Node)?
        let symbols = pattern.candidateSymbols
        tree.root.walk { node in
            if let symbols, !symbols.contains(node.symbol) { return true }
            var environment = MetaEnvironment()
            if pattern.match(node, &environment) {
                matched.append(node)
                return true
            }
            let (progress, reason, at) = pattern.explain(node)
            if let reason, progress > (closest?.progress ?? -1) { closest = (progress, reason, at ?? node, node) }
            return true
        }
        if !matched.isEmpty {
            lines.append("\(matched.count) match\(matched.count == 1 ? "" : "es"):")
            for node in matched { lines.append("  \(file):\(node.start.line):\(node.start.column): \(SafeText.oneLine(node.text, limit: 80))") }
            return lines.joined(separator: "\n")
        }
        lines.append("no match.")
        if let closest, closest.progress == 0 {
            lines.append("no \(pattern.rootKind ?? "node") of the file comes close: each differs from the pattern at its first token (the pattern's tree is above; `swiftmod parse \(file)` shows the file's)")
            return lines.joined(separator: "\n")
        }
        guard let closest else {
            lines.append("the file has no \(pattern.rootKind ?? "node") (the kind of the pattern's top node): `swiftmod parse \(file)` shows the file's kinds")
            return lines.joined(separator: "\n")
        }
        lines.append("closest: \(file):\(closest.candidate.start.line):\(closest.candidate.start.column): \(SafeText.oneLine(closest.candidate.text, limit: 80))")
        lines.append("  at \(closest.at.start.line):\(closest.at.start.column): \(SafeText.oneLine(closest.reason, limit: 200))")
        return lines.joined(separator: "\n")
    }
}
