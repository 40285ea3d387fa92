import Foundation
import SwiftTree
import Workspace

/// A codemod definition bound to parameter values, with its query compiled: ready to find uses
/// and compute edits in any number of files, from any number of threads.
public final class Codemod: @unchecked Sendable {
    public let definition: CodemodDefinition
    /// Every parameter's value (given or default).
    public let params: [String: String]
    /// The compiled query; compiled on first use when the codemod was made `lazily`.
    var query: Query {
        queryLock.lock()
        defer { queryLock.unlock() }
        if let compiledQuery { return compiledQuery }
        do {
            let compiled = try pendingQuery?.result.get() ?? Query.compiled(queryText)
            compiledQuery = compiled
            return compiled
        } catch {
            // The definition's query was checked when it was loaded, and parameter values are
            // escaped, so this cannot happen; should it, the codemod matches nothing, and says so.
            FileHandle.standardError.write(Data("swiftmod: the query of \(definition.id) does not compile: \(error)\n".utf8))
            let nothing = try! Query("(ERROR) @nothing (#eq? @nothing \"\u{1}\")")
            compiledQuery = nothing
            return nothing
        }
    }
    private let queryText: String
    /// A query with parameters, being compiled on another thread (see `checkParameters()`).
    private var pendingQuery: PendingQuery?
    private var compiledQuery: Query?
    private let queryLock = NSLock()
    let useCaptureName: String
    /// What the run-wide actions concluded from the files of the current run (see `prepare`).
    private var runConclusions: [String: any Sendable] = [:]
    private let runLock = NSLock()
    let compiledConstraints: [CompiledConstraint]
    let steps: [Step]
    /// The literal bytes every match contains, for skipping files without parsing them.
    public let requiredLiteral: [UInt8]?
    /// For an ast-grep rule whose matches need one of several texts (`any:` of patterns): a file
    /// without all of them is skipped without parsing.
    let requiredAlternatives: [[UInt8]]?

    enum Step {
        case replace(capture: String, with: Template)
        case action(any RewriteAction)
    }

    struct CompiledConstraint {
        var capture: String
        var inside: Set<String>
        var notInside: Set<String>
        var matches: BoundedRegex?
        var notMatches: BoundedRegex?
        var atMost: [String: Int]
        var note: Template?
    }

    /// Binds a definition to parameter values.
    /// - Throws: `ParameterError` for an unknown parameter, a missing required one, or a value
    ///   that the definition does not allow.
    /// - Parameters:
    ///   - lazily: compile the query on first use instead of now (a scan whose files are all
    ///     cached then compiles nothing). A query that uses parameters is still compiled now, so
    ///     that a value that breaks it throws here...
    ///   - checkingParameters: ...unless this is false: it then compiles on another thread, and
    ///     `checkParameters()` throws for such a value.
    public init(_ definition: CodemodDefinition, params given: [String: String] = [:],
                actions: ActionRegistry = .standard, lazily: Bool = false, checkingParameters: Bool = true) throws {
        self.definition = definition
        let declared = Dictionary(uniqueKeysWithValues: definition.params.map { ($0.name, $0) })
        for name in given.keys.sorted() where declared[name] == nil {
            throw ParameterError(codemod: definition.id,
                                 message: "unknown parameter '\(name)'" + Self.knownParameters(definition))
        }
        var values: [String: String] = [:]
        for parameter in definition.params {
            guard let value = given[parameter.name] ?? parameter.defaultValue else {
                throw ParameterError(codemod: definition.id,
                                     message: "parameter '\(parameter.name)' is required (--param \(parameter.name)=VALUE)")
            }
            if let choices = parameter.choices, !choices.contains(value) {
                throw ParameterError(codemod: definition.id,
                                     message: "parameter '\(parameter.name)' must be one of \(choices.joined(separator: ", ")); got '\(value)'")
            }
            let optionalAndEmpty = value.isEmpty && parameter.defaultValue == ""
            // The whole value must match: \A and \z, since `$` also matches before a final newline.
            if let pattern = parameter.pattern, !optionalAndEmpty {
                let matched: Bool
                do {
                    matched = try BoundedRegex("\\A(?:\(pattern))\\z").matches(value)
                } catch let timeout as RegexTimeout {
                    throw ParameterError(codemod: definition.id, message: "\(LocatedError(file: definition.origin, line: nil, field: "params.\(parameter.name).pattern", message: timeout.description))")
                }
                if !matched {
                    throw ParameterError(codemod: definition.id,
                                         message: "parameter '\(parameter.name)' must match \(pattern); got '\(SafeText.oneLine(value))'")
                }
            }
            if let kind = parameter.kind, !optionalAndEmpty, value != parameter.defaultValue, let problem = kind.problem(with: value) {
                throw ParameterError(codemod: definition.id,
                                     message: "parameter '\(parameter.name)' \(problem); got '\(SafeText.oneLine(value))'")
            }
            values[parameter.name] = value
        }
        params = values
        queryText = QueryText.fill(definition.query, params: values)
        // A query that uses parameters is compiled now, so that a value that breaks it is a
        // usage error naming the parameter rather than a codemod that silently matches nothing.
        let usedInQuery = Template(definition.query).holes.filter { values[$0] != nil }
        if definition.patternRule != nil {
            // An ast-grep rule has no query.
        } else if !lazily || (checkingParameters && !usedInQuery.isEmpty) {
            do {
                compiledQuery = try Query.compiled(queryText)
            } catch {
                throw Self.parameterError(definition, values: values, among: usedInQuery, error)
            }
        } else if !usedInQuery.isEmpty {
            // Not checked now: it is compiled on another thread meanwhile (while files are
            // found); `checkParameters()` waits for it.
            pendingQuery = PendingQuery(queryText, among: usedInQuery)
        }
        useCaptureName = definition.useCapture ?? compiledQuery?.captureNames.first ?? Self.firstCapture(in: queryText)
        compiledConstraints = definition.constraints.map {
            CompiledConstraint(capture: $0.capture, inside: Set($0.inside), notInside: Set($0.notInside),
                               matches: $0.matches.flatMap { try? BoundedRegex($0) },
                               notMatches: $0.notMatches.flatMap { try? BoundedRegex($0) },
                               atMost: $0.atMost, note: $0.note)
        }
        steps = try definition.rewrite.map { step in
            switch step {
            case let .replace(capture, template): return .replace(capture: capture, with: template)
            case let .action(name):
                guard let action = actions.action(named: name) else {
                    throw ParameterError(codemod: definition.id, message: "unknown built-in action '\(name)'")
                }
                if let problem = action.problem(with: values) {
                    throw ParameterError(codemod: definition.id, message: problem)
                }
                return .action(action)
            }
        }
        if let rule = definition.patternRule {
            // A single text every match holds is also what counts uses in files too large to parse.
            let texts = rule.requiredTexts ?? []
            let inEachMatch = rule.matchTexts ?? []
            requiredLiteral = texts.count == 1 && inEachMatch == texts ? Array(texts[0].utf8) : nil
            requiredAlternatives = texts.isEmpty || requiredLiteral != nil ? nil : texts.map { Array($0.utf8) }
        } else {
            requiredLiteral = definition.requires.map { Array(Template($0).render { values[$0] }.utf8) }
            requiredAlternatives = nil
        }
    }

    /// The parameter whose value alone makes the query fail to compile (the others at their
    /// defaults), or nil when the definition's own query is at fault.
    /// Waits for a query with parameters to compile (a codemod made `lazily`), and throws when a
    /// parameter's value breaks it: a usage error naming the parameter rather than a codemod that
    /// silently matches nothing.
    public func checkParameters() throws {
        guard let pendingQuery else { return }
        if case let .failure(error) = pendingQuery.result {
            throw Self.parameterError(definition, values: params, among: pendingQuery.usedInQuery, error)
        }
    }

    static func parameterError(_ definition: CodemodDefinition, values: [String: String], among usedInQuery: [String], _ error: Error) -> Error {
        guard let culprit = parameterBreakingQuery(definition, values: values, among: usedInQuery) else { return error }
        return ParameterError(codemod: definition.id,
                              message: "parameter '\(culprit)': the value '\(SafeText.oneLine(values[culprit] ?? ""))' does not fit where the query uses it (\(error))")
    }

    static func parameterBreakingQuery(_ definition: CodemodDefinition, values: [String: String], among names: [String]) -> String? {
        let placeholders = Dictionary(uniqueKeysWithValues: definition.params.map { ($0.name, $0.defaultValue ?? "Placeholder") })
        guard (try? Query(QueryText.fill(definition.query, params: placeholders))) != nil else { return nil }
        for name in Set(names).sorted() {
            var trial = placeholders
            trial[name] = values[name]
            if (try? Query(QueryText.fill(definition.query, params: trial))) == nil { return name }
        }
        return names.sorted().first
    }

    /// The first `@capture` of a query's text (outside strings and comments).
    static func firstCapture(in query: String) -> String {
        captureNames(in: query, stoppingAtFirst: true).first ?? ""
    }

    /// The `@capture` names of a query's text (outside strings and comments), each once, in order
    /// of first appearance: what compiling the query would give, without compiling it.
    static func captureNames(in query: String, stoppingAtFirst: Bool = false) -> [String] {
        var names: [String] = []
        var inString = false, inComment = false, escaped = false
        var index = query.startIndex
        while index < query.endIndex {
            let character = query[index]
            if inComment {
                if character == "\n" { inComment = false }
            } else if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == ";" {
                inComment = true
            } else if character == "@" {
                let name = String(query[query.index(after: index)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" })
                if stoppingAtFirst { return [name] }
                if !names.contains(name) { names.append(name) }
            }
            index = query.index(after: index)
        }
        return names
    }

    static func knownParameters(_ definition: CodemodDefinition) -> String {
        definition.params.isEmpty ? " (this codemod takes none)"
            : " (known: \(definition.params.map(\.name).joined(separator: ", ")))"
    }

    public var id: String { definition.id }

    /// A query whose one match is the whole file (for what a run-wide action does per file).
    private static let wholeFile = Result { try Query("(source_file) @file") }

    /// Surveys the files of a run for the codemod's run-wide actions (`RunWideAction`), so that
    /// each file's edits can depend on the others; without it, each file is a run of its own.
    public func prepare(_ files: [String], pipeline: FilePipeline) {
        for case let .action(action) in steps {
            guard let action = action as? any RunWideAction else { continue }
            let surveys = pipeline.run(files, through: RunSurvey(action: action)).compactMap { $0 }
            let conclusion = action.conclude(surveys, files: files)
            runLock.lock()
            runConclusions[action.name] = conclusion
            runLock.unlock()
        }
    }

    private func conclusion(of action: any RewriteAction) -> (any Sendable)? {
        runLock.lock()
        defer { runLock.unlock() }
        return runConclusions[action.name]
    }

    /// Whether a file's bytes can hold a match at all (false skips parsing it).
    public func mightMatch(_ bytes: [UInt8]) -> Bool {
        if let requiredAlternatives { return requiredAlternatives.contains { ByteSearch.contains(bytes, $0) } }
        guard let literal = requiredLiteral, !literal.isEmpty else { return true }
        return ByteSearch.contains(bytes, literal)
    }

    /// The matches of the query that pass the constraints and the actions' verdicts, in source
    /// order, with the notes of matches that are not uses.
    /// - Throws: `LocatedError` naming the definition file and field of a regular expression that
    ///   ran out of time (see `BoundedRegex`).
    func matches(in tree: SyntaxTree, memo: TreeMemo = TreeMemo()) throws -> (matches: [QueryMatch], notes: [SiteRefusal]) {
        var notes: [SiteRefusal] = []
        // Every match contains the required text: only the code around its occurrences is searched.
        let found: [QueryMatch]
        do {
            if let literal = requiredLiteral, !literal.isEmpty {
                found = try query.matches(in: tree, touching: ByteSearch.occurrences(of: literal, in: tree.source.bytes)
                    .map { $0..<($0 + literal.count) })
            } else {
                found = try query.matches(in: tree)
            }
        } catch let timeout as RegexTimeout {
            throw LocatedError(file: definition.origin, line: nil, field: "match.query", message: timeout.description)
        }
        func leave(_ match: QueryMatch, saying message: String) {
            let node = match[useCaptureName] ?? match.captures.first?.node
            notes.append(SiteRefusal(location: node?.start ?? tree.source.location(ofByte: 0), message: message))
        }
        let matches = try found.filter { match in
            // A match that fails a plain constraint is no match at all; one that then fails a
            // constraint with a note is left alone, and the note says why.
            for constraint in compiledConstraints where constraint.note == nil {
                if try !passes(constraint, match) { return false }
            }
            for constraint in compiledConstraints {
                guard let note = constraint.note, try !passes(constraint, match) else { continue }
                leave(match, saying: note.render { match[$0]?.text ?? params[$0] })
                return false
            }
            for case let .action(action) in steps {
                switch action.classify(ActionContext(tree: tree, params: params, match: match, memo: memo, run: conclusion(of: action))) {
                case .use: continue
                case .ignore: return false
                case let .note(message):
                    leave(match, saying: message)
                    return false
                }
            }
            return true
        }
        return (matches, notes)
    }

    /// Whether every node of the constraint's capture satisfies it.
    private func passes(_ constraint: CompiledConstraint, _ match: QueryMatch) throws -> Bool {
        try match.nodes(constraint.capture).allSatisfy { try satisfies(constraint, $0) }
    }

    private func satisfies(_ constraint: CompiledConstraint, _ node: Node) throws -> Bool {
        if !constraint.inside.isEmpty || !constraint.notInside.isEmpty {
            let kinds = node.ancestors.map(\.kind)
            if !constraint.inside.isEmpty, !kinds.contains(where: constraint.inside.contains) { return false }
            if kinds.contains(where: constraint.notInside.contains) { return false }
        }
        if !constraint.atMost.isEmpty {
            let children = node.children
            for (kind, limit) in constraint.atMost where children.filter({ $0.kind == kind }).count > limit {
                return false
            }
        }
        let text = node.text
        let field = "match.constraints.\(constraint.capture)"
        do {
            if let regex = constraint.matches, try !regex.matches(text) { return false }
        } catch let timeout as RegexTimeout {
            throw LocatedError(file: definition.origin, line: nil, field: "\(field).matches", message: timeout.description)
        }
        do {
            if let regex = constraint.notMatches, try regex.matches(text) { return false }
        } catch let timeout as RegexTimeout {
            throw LocatedError(file: definition.origin, line: nil, field: "\(field).not-matches", message: timeout.description)
        }
        return true
    }

    /// Every use in a tree, in source order.
    /// - Throws: `LocatedError` naming the definition and field of a regular expression that ran
    ///   out of time.
    /// - Parameter memo: what is known of the tree already (see `TreeMemo`).
    public func uses(in tree: SyntaxTree, memo: TreeMemo = TreeMemo()) throws -> [Use] {
        if let rule = definition.patternRule {
            do {
                return try rule.transform(tree, codemodID: id, fixing: false).uses
            } catch let timeout as RegexTimeout {
                throw LocatedError(file: definition.origin, line: nil, field: "rule", message: timeout.description)
            }
        }
        let errors = tree.errorRegions.map(\.byteRange)
        return try matches(in: tree, memo: memo).matches.compactMap { use(of: $0, in: tree, errors: errors) }
    }

    func use(of match: QueryMatch, in tree: SyntaxTree, errors: [Range<Int>]) -> Use? {
        guard let node = match[useCaptureName] ?? match.captures.first?.node else { return nil }
        let touched = match.captures.contains { capture in
            capture.node.hasError || errors.contains { $0.overlaps(capture.node.byteRange) || capture.node.byteRange.contains($0.lowerBound) }
        }
        return Use(codemodID: id, range: node.byteRange, start: node.start, end: node.end,
                   text: node.text, inErrorRegion: touched)
    }

    /// What the codemod does to one tree: its uses, and the edits for those it can rewrite.
    /// - Throws: `LocatedError` naming the definition and field of a regular expression that ran
    ///   out of time.
    public func transform(_ tree: SyntaxTree) throws -> Transformation {
        if let rule = definition.patternRule {
            do {
                return try rule.transform(tree, codemodID: id)
            } catch let timeout as RegexTimeout {
                throw LocatedError(file: definition.origin, line: nil, field: "rule", message: timeout.description)
            }
        }
        let errors = tree.errorRegions.map(\.byteRange)
        var result = Transformation()
        let memo = TreeMemo()
        let (matches, notes) = try matches(in: tree, memo: memo)
        result.notes = notes
        // List elements removed by `replace: … with: ""`, removed with their commas together.
        var removedElements: [Node] = []
        for match in matches {
            guard let use = use(of: match, in: tree, errors: errors) else { continue }
            result.uses.append(use)
            guard !steps.isEmpty else { continue }
            if use.inErrorRegion {
                result.skippedInErrorRegions += 1
                continue
            }
            do {
                result.edits += try edits(for: match, in: tree, memo: memo, removing: &removedElements)
            } catch let refusal as SiteRefusal {
                result.refusals.append(refusal)
            } catch {
                result.refusals.append(SiteRefusal(location: use.start, message: "\(error)"))
            }
        }
        result.edits += ListRemoval.ranges(removing: removedElements).map(Edit.removal)
        // What a run-wide action still has for this file, with or without uses.
        for case let .action(action) in steps {
            guard let action = action as? any RunWideAction, !(tree.hasErrors && result.uses.isEmpty),
                  let file = try? Self.wholeFile.get().matches(in: tree).first else { continue }
            result.edits += action.remainingEdits(in: ActionContext(tree: tree, params: params, match: file, memo: memo, run: conclusion(of: action)))
        }
        result.edits = EditMerging.mergingRemovals(result.edits)
        return result
    }

    private func edits(for match: QueryMatch, in tree: SyntaxTree, memo: TreeMemo, removing removed: inout [Node]) throws -> [Edit] {
        var edits: [Edit] = []
        for step in steps {
            switch step {
            case let .replace(capture, template):
                let replacement = template.render { name in match[name]?.text ?? params[name] }
                for node in match.nodes(capture) {
                    if replacement.isEmpty, ListRemoval.isElement(node) {
                        removed.append(node)
                        continue
                    }
                    edits.append(replacement.isEmpty
                        ? Edit.removal(TidyRemoval.range(removing: node.byteRange, in: tree.source))
                        : Edit(range: node.byteRange, replacement: replacement))
                }
            case let .action(action):
                edits += try action.edits(in: ActionContext(tree: tree, params: params, match: match, memo: memo, run: conclusion(of: action)))
            }
        }
        return edits
    }
}

/// The uses a codemod found in one tree and the edits it wants to make there.
public struct Transformation {
    public var uses: [Use] = []
    public var edits: [Edit] = []
    /// Uses not rewritten because they touch a syntax error.
    public var skippedInErrorRegions = 0
    /// Sites the codemod declined to rewrite, with reasons.
    public var refusals: [SiteRefusal] = []
    /// Things the codemod wants said that are not uses (say, a local type shadowing a name).
    public var notes: [SiteRefusal] = []
}

/// A parameter given to a codemod that it does not accept.
public struct ParameterError: Error, CustomStringConvertible {
    public var codemod: String
    public var message: String

    public var description: String { "\(codemod): \(message)" }
}

/// Widens the range of a removed token so that no double space or trailing blank is left.
enum TidyRemoval {
    static func range(removing range: Range<Int>, in source: SourceText) -> Range<Int> {
        let bytes = source.bytes
        func isBlank(_ index: Int) -> Bool { bytes[index] == 0x20 || bytes[index] == 0x09 }
        var end = range.upperBound
        while end < bytes.count, isBlank(end) { end += 1 }
        if end > range.upperBound {
            // Blanks follow: remove them, unless the token started its line's text, in which case
            // the indentation before it stays and the blanks after it go.
            return range.lowerBound..<end
        }
        var start = range.lowerBound
        while start > 0, isBlank(start - 1) { start -= 1 }
        // Something precedes on the line: take the blanks before the token with it.
        if start > 0, bytes[start - 1] != 0x0A { return start..<range.upperBound }
        // The token is alone on its line: remove the whole line, terminator included.
        if end < bytes.count, bytes[end] == 0x0A { return start..<(end + 1) }
        if end + 1 < bytes.count, bytes[end] == 0x0D, bytes[end + 1] == 0x0A { return start..<(end + 2) }
        return range
    }
}

/// A fast search for a byte string.
public enum ByteSearch {
    /// The offsets where a byte string occurs (not overlapping), within a range of the haystack.
    public static func occurrences(of needle: [UInt8], in haystack: [UInt8], within range: Range<Int>? = nil) -> [Int] {
        var result: [Int] = []
        search(needle, in: haystack, within: range ?? 0..<haystack.count) { result.append($0); return true }
        return result
    }

    /// Whether a byte string occurs at all (an empty one always does).
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        var found = false
        search(needle, in: haystack, within: 0..<haystack.count) { _ in found = true; return false }
        return found
    }

    /// Whether a byte string occurs within a range of the haystack.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8], within range: Range<Int>) -> Bool {
        guard !needle.isEmpty else { return true }
        var found = false
        search(needle, in: haystack, within: range) { _ in found = true; return false }
        return found
    }

    /// Calls `visit` with each offset of the needle (not overlapping) until it returns false.
    ///
    /// Looks (with `memchr`) for the needle's rarest byte in source code, not its first: most
    /// needles begin with a common letter (`class`, `extension`, `removeFromSuperview`), and a
    /// search for it would stop at nearly every word.
    private static func search(_ needle: [UInt8], in haystack: [UInt8], within range: Range<Int>, _ visit: (Int) -> Bool) {
        guard !needle.isEmpty, needle.count <= range.count else { return }
        let pivot = rarestByteOffset(needle)
        let pivotByte = Int32(needle[pivot])
        haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let base = hay.baseAddress!
                // The last offset where the needle fits.
                let last = range.upperBound - pin.count
                var index = range.lowerBound
                while index <= last {
                    guard let found = memchr(base + index + pivot, pivotByte, last - index + 1) else { return }
                    let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - pivot
                    if memcmp(base + position, pin.baseAddress!, pin.count) == 0 {
                        guard visit(position) else { return }
                        index = position + pin.count
                    } else {
                        index = position + 1
                    }
                }
            }
        }
    }

    /// The offset of the byte of a needle that is rarest in source code (the first of equals).
    static func rarestByteOffset(_ needle: [UInt8]) -> Int {
        var best = 0
        for offset in needle.indices.dropFirst() where commonness(needle[offset]) < commonness(needle[best]) { best = offset }
        return best
    }

    /// How common a byte is in source code, roughly: spaces and the most frequent lowercase
    /// letters most, then other lowercase letters and punctuation, then capitals and digits,
    /// then the rest (`@`, `#`, non-ASCII).
    static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case 0x20, 0x0A, 0x09: return 9
        case UInt8(ascii: "e"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"),
             UInt8(ascii: "s"), UInt8(ascii: "r"): return 8
        case UInt8(ascii: "l"), UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "u"), UInt8(ascii: "h"), UInt8(ascii: "p"),
             UInt8(ascii: "m"): return 7
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return 6
        case UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "="),
             UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "_"), 0x0D: return 5
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return 3
        default: return 1
        }
    }
}

/// A query compiled on a thread of its own; `result` waits for it.
final class PendingQuery: @unchecked Sendable {
    let usedInQuery: [String]
    private let done = DispatchGroup()
    private var outcome: Result<Query, Error>?

    /// - Parameter usedInQuery: the parameters the query uses, for naming the one that breaks it.
    init(_ text: String, among usedInQuery: [String]) {
        self.usedInQuery = usedInQuery
        done.enter()
        Thread { [self] in
            outcome = Result { try Query.compiled(text) }
            done.leave()
        }.start()
    }

    var result: Result<Query, Error> {
        done.wait()
        return outcome!
    }
}
