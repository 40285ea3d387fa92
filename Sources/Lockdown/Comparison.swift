import Foundation
import Migrations

/// The result of comparing today's uses with the baseline.
///
/// The rule: a use is new only when its file holds more uses of its migration with its text than
/// the baseline recorded for that file. A file that is gone is followed to the file it became (as
/// git's rename detection says, or, without that history, judged from content or from its uses),
/// so its entries count for that file. The declarations around a use and the lines added since the
/// baseline decide *which* uses are blamed when a file has a surplus, never *whether* it has one:
/// renaming a type, a method or a file, extracting a method or moving code between declarations
/// reports nothing.
///
/// What this cannot notice: within one file, one use replaced by another with the same text (one
/// fixed, one added) keeps the count. Entries of a file that still exists excuse uses in another
/// file only when the use has the same declarations and text and the file is in the same folder
/// (code moved into `Type+Feature.swift`): a fix in one file cannot pay for a new use elsewhere.
public struct Comparison {
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
    /// Files of the baseline that are gone, whose fate history did not know and whose content
    /// could not be compared, that might have become a file with new uses: the renames judged
    /// from the uses alone, which may have been wrong.
    public var renamesJudgedByUses: [String] = []

    /// Matches uses against the baseline.
    /// - Parameters:
    ///   - scannedFiles: the files the scan covered (nil: the whole repository); entries of other
    ///     existing files are neither matched nor reported as fixed.
    ///   - fileExists: whether a repo-relative file exists now.
    ///   - history: what version control knows (renames, content, new lines); without it, renames
    ///     are judged from the uses alone and the last uses in a file are blamed.
    ///   - complete: migrations whose uses were all found, in every file, even by a partial scan
    ///     (module rules: their graph is the whole repository's): all their entries count.
    ///   - repositoryWide: migrations whose uses are one of a kind in the whole repository (a
    ///     dependency on a cycle): an entry matches its use in any file.
    public init(uses: [Finding], baseline: Baseline, scannedFiles: Set<String>? = nil,
                fileExists: (String) -> Bool, history: FileHistory? = nil,
                complete: Set<String> = [], repositoryWide: Set<String> = []) {
        var exists: [String: Bool] = [:]
        func present(_ file: String) -> Bool {
            if let known = exists[file] { return known }
            let answer = fileExists(file)
            exists[file] = answer
            return answer
        }
        // Uses of complete migrations are all found even by a partial scan: all their entries count.
        let complete = complete.union(repositoryWide)
        let entries = baseline.entries.filter {
            scannedFiles?.contains($0.file) ?? true || !present($0.file) || complete.contains($0.migration)
        }
        let entriesByFile = Dictionary(grouping: entries, by: \.file)
        let usesByFile = Dictionary(grouping: uses.sorted(by: Self.fileOrder), by: \.file)

        // Where each gone file went: history's answer, else a judgement.
        let gone = entriesByFile.keys.filter { !present($0) }.sorted()
        let fates = history?.fates(of: gone) ?? [:]
        var successors: [String: String] = [:]
        for (file, fate) in fates { if case let .renamed(successor) = fate { successors[file] = successor } }
        var inherited: [String: [Baseline.Entry]] = [:]
        for (file, successor) in successors { inherited[successor, default: []] += entriesByFile[file] ?? [] }
        let judged = RenameJudgement(gone: gone.filter { successors[$0] == nil }, removed: Set(fates.filter { $0.value == .removed }.keys),
                                     entriesByFile: entriesByFile, inherited: inherited, usesByFile: usesByFile, history: history)
        for (file, successor) in judged.successors {
            successors[file] = successor
            inherited[successor, default: []] += entriesByFile[file] ?? []
        }

        // Each present file's entries, with those of the files it was renamed from.
        var recorded: [String: [Baseline.Entry]] = [:]
        for file in usesByFile.keys { recorded[file] = (entriesByFile[file] ?? []) + (inherited[file] ?? []) }

        // The lines added since the baseline, for files that have more uses than entries.
        let formerNames = Dictionary(grouping: successors.keys, by: { successors[$0]! })
        var surplusFiles: [String: [String]] = [:]
        for (file, fileUses) in usesByFile {
            let allowance = Dictionary(grouping: recorded[file]!, by: { UseText($0.migration, $0.text) })
            let counts = Dictionary(grouping: fileUses, by: { UseText($0.migration, $0.text) })
            if counts.contains(where: { $0.value.count > allowance[$0.key]?.count ?? 0 }) {
                surplusFiles[file] = (formerNames[file] ?? []).sorted()
            }
        }
        let newLines = history?.newLines(in: surplusFiles) ?? [:]

        // Within each file (with the entries of the files it was renamed from).
        var leftover: [Finding] = []
        var remaining: [Baseline.Entry] = []
        for (file, fileUses) in usesByFile {
            let match = FileMatch(uses: fileUses, entries: recorded[file]!, newLines: newLines[file])
            for (entry, use) in match.pairs {
                allowed.append(use)
                if entry.file != use.file || entry.scope != use.scope { moved.append((entry, use)) }
            }
            leftover += match.unmatchedUses
            // A file a partial scan did not look at (its complete migrations' uses are known, not
            // the others'): only the complete migrations' entries can be left over from it.
            remaining += match.unmatchedEntries.filter { scannedFiles?.contains(file) ?? true || complete.contains($0.migration) }
        }
        // Entries of a file with no uses, and of a gone file whose successor has none (matched
        // nowhere above: a repository-wide use may be in another file now; if not, they are
        // fixed). A successor a partial scan did not look at may have uses: only complete
        // migrations' entries, whose uses are all known, are left over from it.
        for (file, fileEntries) in entriesByFile where usesByFile[file] == nil {
            guard let successor = successors[file] else {
                remaining += fileEntries
                continue
            }
            guard usesByFile[successor] == nil else { continue }
            remaining += fileEntries.filter { scannedFiles?.contains(successor) ?? true || complete.contains($0.migration) }
        }
        // Code moved to another file with its declarations unchanged: from a file that is gone
        // and went nowhere known (a file split up), or, for a member of a type, to a file of the
        // same folder (an extension split out into `Type+Feature.swift`; two files' top-level
        // functions of one name are not one function).
        var pool: [Fingerprint: [Baseline.Entry]] = [:]
        for entry in remaining.sorted(by: >) { pool[entry.fingerprint, default: []].append(entry) }
        func folder(_ file: String) -> String { (file as NSString).deletingLastPathComponent }
        for use in leftover.sorted(by: Self.fileOrder) {
            let candidates = pool[use.fingerprint] ?? []
            let index = candidates.lastIndex { entry in
                if !present(entry.file), successors[entry.file] == nil { return true }
                if repositoryWide.contains(entry.migration) { return true }
                return Self.isTypeMember(entry.scope) && folder(successors[entry.file] ?? entry.file) == folder(use.file)
            }
            if let index {
                let entry = pool[use.fingerprint]!.remove(at: index)
                allowed.append(use)
                moved.append((entry, use))
            } else {
                newUses.append(use)
            }
        }
        // A partial check cannot tell whether a vanished file's uses moved to a file it did not
        // look at: only a full check calls those entries fixed.
        fixed = pool.values.flatMap { $0 }.filter { entry in
            guard let scannedFiles else { return true }
            // A gone file renamed to a file this scan looked at: its uses are known too.
            return present(entry.file) || successors[entry.file].map(scannedFiles.contains) == true
        }.sorted()
        newUses.sort(by: Self.fileOrder)
        allowed.sort(by: Self.fileOrder)
        moved.sort { Self.fileOrder($0.use, $1.use) }
        let blamed = Set(newUses.map(\.file))
        renamesJudgedByUses = judged.unverified.filter { !$0.value.isDisjoint(with: blamed) }.map(\.key).sorted()
    }

    /// Whether a scope is inside a type (`Feed.load()`), not a top-level function or variable
    /// (`makeBrowser().view`): its outermost name is a type's, UpperCamelCase and no function.
    static func isTypeMember(_ scope: String) -> Bool {
        guard let outer = scope.split(separator: ".").first, scope.contains(".") else { return false }
        return outer.first?.isUppercase == true && !outer.hasSuffix("()")
    }

    static func fileOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.migration) < (rhs.file, rhs.line, rhs.column, rhs.migration)
    }
}

/// Where gone files went when git's rename detection does not say: removed in the work tree with
/// the new file not yet known to git, in a shallow clone, outside git — or removed with no rename
/// git could see, yet perhaps renamed and edited beyond git's 50% (a small file whose type was
/// renamed too).
///
/// Candidates are present files with uses beyond their entries (their own and those they took
/// over by git's renames) in the same members (`titleLabel`, `viewDidLoad()`, whatever the type is
/// now called; members in very many files do not count) or with the same file name, the most
/// shared members and the most alike names first. A candidate is taken when its content is alike
/// to the gone file's last version, with the old file name read as the new one (half or more; 70%
/// or more where git saw no rename), or — without a last version — when it has the same name and
/// shares a member, or shares at least two members and half of each file's uses. Each present file
/// continues one gone file at most; among equals, the most alike names pair up.
struct RenameJudgement {
    var successors: [String: String] = [:]
    /// Gone files judged without content, with the candidates they might have become.
    var unverified: [String: Set<String>] = [:]

    /// More files than this with uses in one member make it too common to be evidence.
    static let commonMember = 50

    /// - Parameters:
    ///   - removed: the gone files git saw removed without a rename.
    ///   - inherited: the entries present files took over from gone files by git's renames.
    init(gone: [String], removed: Set<String>, entriesByFile: [String: [Baseline.Entry]], inherited: [String: [Baseline.Entry]],
         usesByFile: [String: [Finding]], history: FileHistory?) {
        guard !gone.isEmpty else { return }
        // Per present file: the uses its own entries do not cover, by member; an index of both.
        var uncovered: [String: [UseText: Int]] = [:]
        var filesByMember: [UseText: [String]] = [:]
        var filesByName: [String: [String]] = [:]
        for (file, fileUses) in usesByFile {
            var members: [UseText: Int] = [:]
            for use in fileUses { members[UseText(use.migration, use.text, scope: use.scope), default: 0] += 1 }
            for entry in (entriesByFile[file] ?? []) + (inherited[file] ?? []) { members[UseText(entry.migration, entry.text, scope: entry.scope)]? -= 1 }
            members = members.filter { $0.value > 0 }
            guard !members.isEmpty else { continue }
            uncovered[file] = members
            for member in members.keys { filesByMember[member, default: []].append(file) }
            filesByName[(file as NSString).lastPathComponent, default: []].append(file)
        }
        // Per gone file: its members, and how many it shares with each present file.
        var counts: [String: [String: Int]] = [:]
        var total: [String: Int] = [:]
        for file in gone {
            let mine = Dictionary(grouping: entriesByFile[file] ?? [], by: { UseText($0.migration, $0.text, scope: $0.scope) }).mapValues(\.count)
            total[file] = mine.values.reduce(0, +)
            var shared: [String: Int] = [:]
            for (member, count) in mine {
                // A member in very many files (`viewDidLoad()`, `tableView`) tells nothing apart.
                guard let others = filesByMember[member], others.count <= Self.commonMember else { continue }
                for other in others { shared[other, default: 0] += min(count, uncovered[other]![member]!) }
            }
            for other in filesByName[(file as NSString).lastPathComponent] ?? [] where shared[other] == nil {
                shared[other] = mine.reduce(0) { $0 + min($1.value, uncovered[other]![$1.key] ?? 0) }
            }
            counts[file] = shared
        }
        // Rounds: each gone file's most promising free candidates (most shared members, most alike
        // names, same name), judged; one gone file to one present file, so siblings renamed
        // together pair up; files left over try again among the files still free.
        var taken = Set<String>()
        var judged = Set<FilePair>()
        for _ in 0..<4 {
            var pairs: [FilePair: Int] = [:]
            for file in gone where successors[file] == nil {
                let stem = fileStem(file)
                let free = counts[file]!.filter { !taken.contains($0.key) && !judged.contains(FilePair(gone: file, present: $0.key)) }
                let best = free.map { (file: $0.key, shared: $0.value, name: Self.nameLikeness(stem, fileStem($0.key))) }
                    .sorted { ($0.shared, $0.name, $1.file) > ($1.shared, $1.name, $0.file) }.prefix(10).map(\.file)
                let named = (filesByName[(file as NSString).lastPathComponent] ?? []).filter { free[$0] != nil }
                for other in best + named { pairs[FilePair(gone: file, present: other)] = free[other] }
            }
            guard !pairs.isEmpty else { break }
            judged.formUnion(pairs.keys)
            var candidates = judge(pairs, removed: removed, total: total, uncovered: uncovered, history: history)
            candidates.sort {
                ($0.evidence, $0.likeness, $0.shared, $0.names, $1.pair.gone, $1.pair.present)
                    > ($1.evidence, $1.likeness, $1.shared, $1.names, $0.pair.gone, $0.pair.present)
            }
            for candidate in candidates where successors[candidate.pair.gone] == nil && !taken.contains(candidate.pair.present) {
                successors[candidate.pair.gone] = candidate.pair.present
                taken.insert(candidate.pair.present)
            }
        }
    }

    /// A possible rename and how strongly the evidence speaks for it.
    struct Candidate {
        var pair: FilePair
        /// 3: alike content; 2: same name and a shared member; 1: shared members only.
        var evidence: Int
        var likeness: Double
        var shared: Int
        var names: Int { RenameJudgement.nameLikeness(fileStem(pair.gone), fileStem(pair.present)) }
    }

    /// The pairs the evidence supports (see the type's description); records the pairs judged
    /// without content in `unverified`.
    mutating func judge(_ pairs: [FilePair: Int], removed: Set<String>, total: [String: Int], uncovered: [String: [UseText: Int]],
                        history: FileHistory?) -> [Candidate] {
        let likeness = history?.similarities(of: Array(pairs.keys)) ?? [:]
        var candidates: [Candidate] = []
        for (pair, count) in pairs {
            if let alike = likeness[pair] {
                if alike >= (removed.contains(pair.gone) ? 0.7 : 0.5) { candidates.append(Candidate(pair: pair, evidence: 3, likeness: alike, shared: count)) }
                continue
            }
            guard !removed.contains(pair.gone) else { continue }
            if count > 0 { unverified[pair.gone, default: []].insert(pair.present) }
            let named = (pair.gone as NSString).lastPathComponent == (pair.present as NSString).lastPathComponent
            let longer = max(total[pair.gone]!, uncovered[pair.present]!.values.reduce(0, +))
            if named, count > 0 {
                candidates.append(Candidate(pair: pair, evidence: 2, likeness: 1, shared: count))
            } else if count >= 2, count * 2 >= longer {
                candidates.append(Candidate(pair: pair, evidence: 1, likeness: Double(count) / Double(longer), shared: count))
            }
        }
        return candidates
    }

    /// How alike two file names are: the length of their common start and end (`Item5Cell` and
    /// `Row5Cell`: 5).
    static func nameLikeness(_ lhs: String, _ rhs: String) -> Int {
        let head = zip(lhs, rhs).prefix { $0 == $1 }.count
        let tail = zip(lhs.reversed(), rhs.reversed()).prefix { $0 == $1 }.count
        return min(head + tail, min(lhs.count, rhs.count))
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
/// declarations), the most alike names first (`A.showOnboarding()` and `B.showOnboarding()`).
/// Throughout, uses on lines that were there when the baseline was recorded come before uses on
/// added lines. The surplus — what is left — is blamed on added lines first, then on uses in known
/// declarations that gained uses, then on the last ones in the file.
struct FileMatch {
    var pairs: [(entry: Baseline.Entry, use: Finding)] = []
    var unmatchedUses: [Finding] = []
    var unmatchedEntries: [Baseline.Entry] = []

    /// - Parameters:
    ///   - uses: the file's uses, in file order.
    ///   - newLines: the lines added since the baseline, if known.
    init(uses: [Finding], entries: [Baseline.Entry], newLines: Set<Int>? = nil) {
        let knownScopes = Set(entries.map(\.scope))
        let added = { (use: Finding) in newLines?.contains(use.line) ?? false }
        let usesByText = Dictionary(grouping: uses, by: { UseText($0.migration, $0.text) })
        var entriesByText = Dictionary(grouping: entries, by: { UseText($0.migration, $0.text) })
        for (text, group) in usesByText.sorted(by: { ($0.key.migration, $0.key.text) < ($1.key.migration, $1.key.text) }) {
            var free = entriesByText.removeValue(forKey: text) ?? []
            // The same declaration, old lines first.
            var rest: [Finding] = []
            for use in group.filter({ !added($0) }) + group.filter(added) {
                if let index = free.firstIndex(where: { $0.scope == use.scope }) {
                    pairs.append((free.remove(at: index), use))
                } else {
                    rest.append(use)
                }
            }
            rest.sort(by: Comparison.fileOrder)
            // The rest, most likely pairs first.
            var scored: [(score: Int, use: Int, entry: Int)] = []
            for (u, use) in rest.enumerated() {
                let base = (added(use) ? 0 : 200) + (knownScopes.contains(use.scope) ? 0 : 100)
                for (e, entry) in free.enumerated() {
                    scored.append((base + Self.sharedNames(entry.scope, use.scope), u, e))
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
