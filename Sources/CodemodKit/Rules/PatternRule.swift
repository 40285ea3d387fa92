import Foundation
import SwiftTree
import Workspace

/// An ast-grep rule, ready to find and fix in any number of trees from any number of threads:
/// its rule, constraints, transformations, rewriters and fix.
public final class PatternRule: @unchecked Sendable {
    public let id: String
    let rule: Rule
    /// Conditions on single metavariables, checked after the rule matched.
    let constraints: [(name: String, rule: Rule)]
    let utilities: RuleUtilities
    let transformations: [RuleTransformation]
    /// Rewriters by id, for `rewrite` transformations.
    let rewriters: [String: PatternRule]
    let fix: Fix?
    /// The symbols a match can have (nil: any), to skip other nodes without matching.
    let candidateSymbols: Set<UInt16>?
    /// Texts a file must hold one of for the rule to match in it (nil: unknown); a file without
    /// any is not parsed.
    public let requiredTexts: [String]?
    /// Texts every match itself holds one of (nil: unknown): `requiredTexts` without what
    /// neighbours need.
    public let matchTexts: [String]?
    /// Which node symbols can match, as a table indexed by symbol (nil: any).
    let candidateTable: [Bool]?

    /// A fix: its template and how far its range extends over neighbours.
    struct Fix {
        var template: TemplateText
        var expandStart: Rule?
        var expandEnd: Rule?
    }

    init(id: String, rule: Rule, constraints: [(name: String, rule: Rule)], utilities: RuleUtilities,
         transformations: [RuleTransformation], rewriters: [String: PatternRule], fix: Fix?) {
        self.id = id
        self.rule = rule
        self.constraints = constraints
        self.utilities = utilities
        self.transformations = transformations
        self.rewriters = rewriters
        self.fix = fix
        candidateSymbols = rule.candidateSymbols(utilities)
        requiredTexts = rule.requiredTexts(utilities)?.filter { !$0.isEmpty }.nilIfEmpty
        matchTexts = rule.requiredTexts(utilities, relations: false)?.filter { !$0.isEmpty }.nilIfEmpty
        candidateTable = candidateSymbols.map { symbols in
            var table = Array(repeating: false, count: Int(symbols.max() ?? 0) + 1)
            for symbol in symbols { table[Int(symbol)] = true }
            return table
        }
    }

    /// The patterns of the rule (for explaining why it does not match).
    public var patterns: [Pattern] {
        func collect(_ rule: Rule) -> [Pattern] {
            switch rule {
            case let .pattern(pattern): return [pattern]
            case let .all(rules), let .any(rules): return rules.flatMap(collect)
            case let .matches(id): return utilities.rule(id, visiting: []).map(collect) ?? []
            default: return []
            }
        }
        return collect(rule)
    }

    /// One match: the node and what the rule bound.
    struct Match {
        var node: Node
        var environment: MetaEnvironment
    }

    /// Every node the rule matches (nested ones too), in source order, with constraints checked
    /// and transformations applied.
    func matches(in tree: SyntaxTree, facts: TreeFacts) throws -> [Match] {
        // The whole tree: its nodes of the kinds the rule can match, from the tree's table.
        let context = RuleContext(utilities: utilities, facts: facts)
        var found: [Match] = []
        func visit(_ node: Node) throws {
            // One match per place: a node and its only child span the same code.
            if let match = try match(node, context), found.last?.node.byteRange != node.byteRange { found.append(match) }
        }
        let table = tree.nodesInOrder()
        if let candidateTable { try table.forEach(symbolsIn: candidateTable, visit) } else { try table.forEach(visit) }
        return found
    }

    func matches(under root: Node, facts: TreeFacts, skippingMatchedSubtrees: Bool) throws -> [Match] {
        let context = RuleContext(utilities: utilities, facts: facts)
        var found: [Match] = []
        var failure: Error?
        root.walk { node in
            guard failure == nil else { return false }
            if let candidateTable {
                let symbol = Int(node.symbol)
                if symbol >= candidateTable.count || !candidateTable[symbol] { return true }
            }
            do {
                // One match per place: a node and its only child span the same code.
                if let match = try match(node, context), found.last?.node.byteRange != node.byteRange {
                    found.append(match)
                    return !skippingMatchedSubtrees
                }
            } catch {
                failure = error
            }
            return true
        }
        if let failure { throw failure }
        return found
    }

    private func match(_ node: Node, _ context: RuleContext) throws -> Match? {
        var environment = MetaEnvironment()
        guard try rule.matches(node, &environment, context) else { return nil }
        for (name, constraint) in constraints {
            guard let bound = environment.single[name] else { continue }
            var scratch = MetaEnvironment()
            guard try constraint.matches(bound, &scratch, context) else { return nil }
        }
        try transform(&environment, context)
        return Match(node: node, environment: environment)
    }

    private func transform(_ environment: inout MetaEnvironment, _ context: RuleContext) throws {
        for transformation in transformations {
            let value: String
            if case let .rewrite(ids, joinBy) = transformation.operation {
                let nodes = environment.single[transformation.source].map { [$0] } ?? environment.multi[transformation.source] ?? []
                if let joinBy {
                    // As in ast-grep: the rewritten code only, joined (what no rewriter matched,
                    // list separators included, is left out).
                    var pieces: [String] = []
                    for node in nodes {
                        let edits = try rewrites(in: node, with: ids, context)
                        pieces += edits.map(\.text)
                        // What no rewriter covered, commas and blanks aside, is left out: say so.
                        if environment.leftOutByJoin[transformation.name] == nil {
                            let source = node.tree.source
                            var cursor = node.byteRange.lowerBound
                            var rest = ""
                            for edit in edits {
                                rest += source.text(in: cursor..<edit.range.lowerBound)
                                cursor = edit.range.upperBound
                            }
                            rest += source.text(in: cursor..<node.byteRange.upperBound)
                            let left = rest.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ",;")))
                            if !left.isEmpty { environment.leftOutByJoin[transformation.name] = left }
                        }
                    }
                    value = pieces.joined(separator: joinBy)
                } else {
                    // Without joinBy, what stood between the nodes stays.
                    var text = ""
                    for (index, node) in nodes.enumerated() {
                        if index > 0 { text += node.tree.source.text(in: nodes[index - 1].byteRange.upperBound..<node.byteRange.lowerBound) }
                        text += try rewrite(node, with: ids, context)
                    }
                    value = text
                }
            } else {
                guard let text = environment.text(of: transformation.source) else { continue }
                value = transformation.apply(toText: text)
            }
            environment.transformed[transformation.name] = value
        }
    }

    /// A node's text with the first rewriter that matches each of its nodes (outermost first)
    /// applied.
    private func rewrite(_ node: Node, with ids: [String], _ context: RuleContext) throws -> String {
        let source = node.tree.source
        var text = ""
        var cursor = node.byteRange.lowerBound
        for (range, replacement) in try rewrites(in: node, with: ids, context) {
            text += source.text(in: cursor..<range.lowerBound) + replacement
            cursor = range.upperBound
        }
        return text + source.text(in: cursor..<node.byteRange.upperBound)
    }

    /// The code the rewriters replace in a node, outermost first, in source order.
    private func rewrites(in node: Node, with ids: [String], _ context: RuleContext) throws -> [(range: Range<Int>, text: String)] {
        var edits: [(range: Range<Int>, text: String)] = []
        var failure: Error?
        node.walk { candidate in
            guard failure == nil else { return false }
            for id in ids {
                guard let rewriter = rewriters[id] else { continue }
                do {
                    let rewriterContext = RuleContext(utilities: rewriter.utilities, facts: context.facts)
                    if let found = try rewriter.match(candidate, rewriterContext), let fix = rewriter.fix {
                        let text = fix.template.render(indentation: "", tabs: false, templateUnit: 4) { name in
                            found.environment.text(of: name).map { ($0, "", found.environment.single[name].flatMap(OperatorPrecedence.loosest)) }
                        }
                        edits.append((candidate.byteRange, text))
                        return false
                    }
                } catch {
                    failure = error
                    return false
                }
            }
            return true
        }
        if let failure { throw failure }
        return edits
    }
}

extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
