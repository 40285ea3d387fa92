import Foundation

/// The result of comparing today's uses with the baseline.
///
/// The rule: a use is new only when its file holds more uses of its migration with its text than
/// the baseline recorded for that file. A file that is gone is followed to the file it became (a
/// rename or a move, also with edits), so its entries count for that file. The declarations
/// around a use decide *which* uses are blamed when a file has a surplus — uses in declarations
/// the baseline did not know, then the last ones — never *whether* it has one, so renaming a type,
/// a method or a file, extracting a method or moving code between declarations reports nothing.
///
/// What this cannot notice: within one file, one use replaced by another with the same text (one
/// fixed, one added) keeps the count, so nothing is reported. Entries of a file that still exists
/// never allow uses in another file: a fix in one file cannot pay for a new use elsewhere.
public struct Comparison: Sendable {
    /// Uses the baseline does not allow: what `check` fails on.
    public var newUses: [Finding] = []
    /// Baseline entries that no longer match any use: fixed, so the baseline can shrink.
    public var fixed: [Baseline.Entry] = []
    /// Uses the baseline allows.
    public var allowed: [Finding] = []
    /// Uses allowed by an entry of another file or another declaration (a renamed or moved file, a
    /// renamed declaration, code moved between declarations), with that entry. `baseline --prune`
    /// rewrites those entries to the uses.
    public var moved: [(entry: Baseline.Entry, use: Finding)] = []
    /// Files of the baseline that are gone and could have been renamed, but whose content could
    /// not be compared (not in git's history here: a shallow clone?), so their renames were
    /// judged from the uses alone.
    public var renamesJudgedByUses: [String] = []

    /// Matches uses against the baseline.
    /// - Parameters:
    ///   - scannedFiles: the files the scan covered (nil: the whole repository); entries of other
    ///     existing files are neither matched nor reported as fixed.
    ///   - fileExists: whether a repo-relative file exists now.
    ///   - similarity: how alike files that are gone were to files that are here (0...1), asked
    ///     once for every pair that could be a rename; a pair without an answer is unknown. See
    ///     `FileSimilarity`. Without it, renames are recognised from the uses alone.
    public init(uses: [Finding], baseline: Baseline, scannedFiles: Set<String>? = nil,
                fileExists: (String) -> Bool, similarity: (([FilePair]) -> [FilePair: Double])? = nil) {
        var exists: [String: Bool] = [:]
        func present(_ file: String) -> Bool {
            if let known = exists[file] { return known }
            let answer = fileExists(file)
            exists[file] = answer
            return answer
        }
        let entries = baseline.entries.filter { scannedFiles?.contains($0.file) ?? true || !present($0.file) }
        let entriesByFile = Dictionary(grouping: entries, by: \.file)
        let usesByFile = Dictionary(grouping: uses.sorted(by: Self.fileOrder), by: \.file)
        let (successors, unknown) = Self.successors(of: entriesByFile.keys.filter { !present($0) }, entriesByFile: entriesByFile,
                                                    usesByFile: usesByFile, similarity: similarity)
        if similarity != nil { renamesJudgedByUses = unknown }
        var inherited: [String: [Baseline.Entry]] = [:]
        for (gone, successor) in successors { inherited[successor, default: []] += entriesByFile[gone] ?? [] }

        // Within each file (with the entries of the files it was renamed from).
        var leftover: [Finding] = []
        var remaining: [Baseline.Entry] = []
        for (file, fileUses) in usesByFile {
            let match = FileMatch(uses: fileUses, entries: (entriesByFile[file] ?? []) + (inherited[file] ?? []))
            for (entry, use) in match.pairs {
                allowed.append(use)
                if entry.file != use.file || entry.scope != use.scope { moved.append((entry, use)) }
            }
            leftover += match.unmatchedUses
            remaining += match.unmatchedEntries
        }
        for (file, fileEntries) in entriesByFile where usesByFile[file] == nil && successors[file] == nil {
            remaining += fileEntries
        }
        // What is left: fixed uses, or uses moved out of files that are gone into other files
        // (a file split in two), which match only with the same declarations and text.
        var pool: [Fingerprint: [Baseline.Entry]] = [:]
        var kept: [Baseline.Entry] = []
        for entry in remaining.sorted(by: >) {
            if present(entry.file) { kept.append(entry) } else { pool[entry.fingerprint, default: []].append(entry) }
        }
        for use in leftover.sorted(by: Self.fileOrder) {
            if var candidates = pool[use.fingerprint], let entry = candidates.popLast() {
                pool[use.fingerprint] = candidates
                allowed.append(use)
                moved.append((entry, use))
            } else {
                newUses.append(use)
            }
        }
        // A partial check cannot tell whether a vanished file's uses moved to a file it did not
        // look at: only a full check calls those entries fixed.
        fixed = (kept + (scannedFiles == nil ? pool.values.flatMap { $0 } : [])).sorted()
        newUses.sort(by: Self.fileOrder)
        allowed.sort(by: Self.fileOrder)
        moved.sort { Self.fileOrder($0.use, $1.use) }
    }

    static func fileOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.migration) < (rhs.file, rhs.line, rhs.column, rhs.migration)
    }

    /// The file each file that is gone became, if any: a present file with uses beyond its own
    /// entries that share the gone file's texts, and that is alike in content (half its lines or
    /// more, as git's rename detection). When content cannot be compared (no git, a shallow
    /// clone): the same file name in another folder, or uses in the same members (`titleLabel`,
    /// `viewDidLoad()`, whatever the type is called) for at least two and half of each file's uses.
    static func successors(of gone: [String], entriesByFile: [String: [Baseline.Entry]], usesByFile: [String: [Finding]],
                           similarity: (([FilePair]) -> [FilePair: Double])?) -> (successors: [String: String], judgedByUses: [String]) {
        guard !gone.isEmpty else { return ([:], []) }
        // Per present file: the uses its own entries do not cover, by text and by text in a member.
        var uncovered: [String: (texts: [UseText: Int], members: [UseText: Int])] = [:]
        var filesByText: [UseText: Set<String>] = [:]
        for (file, fileUses) in usesByFile {
            var texts: [UseText: Int] = [:], members: [UseText: Int] = [:]
            for use in fileUses {
                texts[UseText(use.migration, use.text), default: 0] += 1
                members[UseText(use.migration, use.text, scope: use.scope), default: 0] += 1
            }
            for entry in entriesByFile[file] ?? [] {
                texts[UseText(entry.migration, entry.text)]? -= 1
                members[UseText(entry.migration, entry.text, scope: entry.scope)]? -= 1
            }
            texts = texts.filter { $0.value > 0 }
            uncovered[file] = (texts, members.filter { $0.value > 0 })
            for text in texts.keys { filesByText[text, default: []].insert(file) }
        }
        // Pairs that share texts the present file has more of than its entries.
        var overlaps: [FilePair: Int] = [:]
        for file in gone {
            let counts = Dictionary(grouping: entriesByFile[file] ?? [], by: { UseText($0.migration, $0.text) }).mapValues(\.count)
            for other in Set(counts.keys.flatMap { filesByText[$0] ?? [] }) {
                let theirs = uncovered[other]!.texts
                let overlap = counts.reduce(0) { $0 + min($1.value, theirs[$1.key] ?? 0) }
                if overlap > 0 { overlaps[FilePair(gone: file, present: other)] = overlap }
            }
        }
        let likeness = similarity?(Array(overlaps.keys)) ?? [:]
        struct Candidate { var pair: FilePair, evidence: Int, likeness: Double, overlap: Int }
        var candidates: [Candidate] = []
        for (pair, overlap) in overlaps {
            let named = (pair.gone as NSString).lastPathComponent == (pair.present as NSString).lastPathComponent
            if let alike = likeness[pair] {
                if alike >= 0.5 { candidates.append(Candidate(pair: pair, evidence: 3, likeness: alike + (named ? 0.01 : 0), overlap: overlap)) }
            } else if named {
                candidates.append(Candidate(pair: pair, evidence: 2, likeness: 1, overlap: overlap))
            } else {
                let mine = entriesByFile[pair.gone]!.map { UseText($0.migration, $0.text, scope: $0.scope) }
                let theirs = uncovered[pair.present]!.members
                let shared = Dictionary(grouping: mine, by: { $0 }).reduce(0) { $0 + min($1.value.count, theirs[$1.key] ?? 0) }
                let longer = max(mine.count, theirs.values.reduce(0, +))
                if shared >= 2, shared * 2 >= longer {
                    candidates.append(Candidate(pair: pair, evidence: 1, likeness: Double(shared) / Double(longer), overlap: overlap))
                }
            }
        }
        candidates.sort {
            ($0.evidence, $0.likeness, $0.overlap, $1.pair.gone, $1.pair.present) > ($1.evidence, $1.likeness, $1.overlap, $0.pair.gone, $0.pair.present)
        }
        var successors: [String: String] = [:]
        for candidate in candidates where successors[candidate.pair.gone] == nil { successors[candidate.pair.gone] = candidate.pair.present }
        let judgedByUses = Set(overlaps.keys.filter { likeness[$0] == nil }.map(\.gone))
        return (successors, judgedByUses.sorted())
    }
}

/// A file that is gone and a file that is here: perhaps the same file, renamed or moved.
public struct FilePair: Hashable, Sendable {
    public var gone: String
    public var present: String

    public init(gone: String, present: String) {
        self.gone = gone
        self.present = present
    }
}

/// A migration and a use's text (what the baseline counts per file), and optionally the member
/// the use is in: its declarations without the outermost one, so that renaming a type keeps it.
struct UseText: Hashable {
    var migration: String
    var text: String
    var member: Substring = ""

    init(_ migration: String, _ text: String) {
        self.migration = migration
        self.text = text
    }

    init(_ migration: String, _ text: String, scope: String) {
        self.init(migration, text)
        member = scope.firstIndex(of: ".").map { scope[scope.index(after: $0)...] } ?? scope[...]
    }
}

/// The uses of one file matched to the baseline entries recorded for it.
///
/// Per migration and text, as many uses are allowed as there are entries. Which ones: first each
/// use in the declaration its entry names. An entry left over belongs to a declaration that lost
/// uses, so it goes to a use in a declaration the baseline did not know (a renamed method,
/// extracted code), then to one in a known declaration that gained uses (code moved between
/// declarations), the most alike names first (`A.showOnboarding()` and `B.showOnboarding()`). The
/// surplus — what is left — is blamed on uses in known declarations that gained uses, then on the
/// last ones in the file.
struct FileMatch {
    var pairs: [(entry: Baseline.Entry, use: Finding)] = []
    var unmatchedUses: [Finding] = []
    var unmatchedEntries: [Baseline.Entry] = []

    /// - Parameter uses: the file's uses, in file order.
    init(uses: [Finding], entries: [Baseline.Entry]) {
        let knownScopes = Set(entries.map(\.scope))
        let usesByText = Dictionary(grouping: uses, by: { UseText($0.migration, $0.text) })
        var entriesByText = Dictionary(grouping: entries, by: { UseText($0.migration, $0.text) })
        for (text, group) in usesByText.sorted(by: { ($0.key.migration, $0.key.text) < ($1.key.migration, $1.key.text) }) {
            var free = entriesByText.removeValue(forKey: text) ?? []
            // The same declaration.
            var rest: [Finding] = []
            for use in group {
                if let index = free.firstIndex(where: { $0.scope == use.scope }) {
                    pairs.append((free.remove(at: index), use))
                } else {
                    rest.append(use)
                }
            }
            // The rest, most likely pairs first.
            var scored: [(score: Int, use: Int, entry: Int)] = []
            for (u, use) in rest.enumerated() {
                for (e, entry) in free.enumerated() {
                    let unknown = !knownScopes.contains(use.scope)
                    scored.append(((unknown ? 100 : 0) + Self.sharedNames(entry.scope, use.scope), u, e))
                }
            }
            scored.sort { ($0.score, $1.use, $1.entry) > ($1.score, $0.use, $0.entry) }
            var usedUses = Set<Int>(), usedEntries = Set<Int>()
            for pair in scored where !usedUses.contains(pair.use) && !usedEntries.contains(pair.entry) {
                usedUses.insert(pair.use)
                usedEntries.insert(pair.entry)
                pairs.append((free[pair.entry], rest[pair.use]))
            }
            unmatchedUses += rest.indices.filter { !usedUses.contains($0) }.map { rest[$0] }
            unmatchedEntries += free.indices.filter { !usedEntries.contains($0) }.map { free[$0] }
        }
        unmatchedEntries += entriesByText.values.flatMap { $0 }
    }

    /// How many names two scopes share at their ends (`A.load()` and `B.load()`: 1), up to 3.
    static func sharedNames(_ lhs: String, _ rhs: String) -> Int {
        let left = lhs.split(separator: "."), right = rhs.split(separator: ".")
        let trailing = zip(left.reversed(), right.reversed()).prefix { $0 == $1 }.count
        let leading = zip(left, right).prefix { $0 == $1 }.count
        return min(3, max(trailing, leading))
    }
}
