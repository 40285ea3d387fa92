import SwiftTree
import Workspace

/// Facts about a node and its ancestors, computed once per node of a tree and shared by every
/// node below it: asking about n nodes costs at most the number of their distinct ancestors, not
/// n times the depth. Made for one tree on one thread (keep it in a `TreeMemo`).
final class AncestorFacts<Fact> {
    private var memo: [Node: Fact] = [:]
    private let initial: Fact
    private let combine: (_ parentFact: Fact, _ node: Node) -> Fact

    /// - Parameters:
    ///   - initial: the fact above the root.
    ///   - combine: the fact of a node from the fact of its parent (including the parent) and the node.
    init(initial: Fact, combine: @escaping (_ parentFact: Fact, _ node: Node) -> Fact) {
        self.initial = initial
        self.combine = combine
    }

    /// The fact of a node, its ancestors included. Iterative: any depth works.
    func fact(of node: Node) -> Fact {
        var chain: [Node] = []
        var current: Node? = node
        var fact = initial
        while let candidate = current {
            if let known = memo[candidate] {
                fact = known
                break
            }
            chain.append(candidate)
            current = candidate.parent
        }
        for link in chain.reversed() {
            fact = combine(fact, link)
            memo[link] = fact
        }
        return fact
    }
}
