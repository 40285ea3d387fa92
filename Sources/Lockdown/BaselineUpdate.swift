import CodemodKit
import Foundation
import Migrations
import Workspace

/// How `swiftmod baseline` changes the allowlist, from a scan and the baseline on disk:
/// record everything anew, re-record some files or migrations and keep the rest, or prune (only
/// remove what is gone and move entries of moved files; the ratchet never adds).
public struct BaselineUpdate {
    /// Which kind of update.
    public enum Mode: Sendable, Equatable {
        /// Everything is recorded anew.
        case record
        /// Only what this scan looked at is recorded again: the files under `paths` (repo-relative;
        /// empty: every file) for the scanned migrations; everything else is kept.
        case rerecord(paths: [String])
        /// Remove fixed uses, move entries of moved files and declarations, drop migrations no
        /// longer configured (unless only some migrations were scanned); never add.
        /// `paths`: the repo-relative roots scanned (empty: the whole repository).
        case prune(paths: [String], someMigrationsOnly: Bool)
    }

    /// The baseline to write.
    public var baseline: Baseline
    /// What was done, for people: "Removed 3 fixed uses in .swiftmod-baseline.jsonl; 12 remain."
    public var summary: String

    /// Computes the update.
    /// - Parameters:
    ///   - scan: what the scan found (its skipped files keep their entries as they were).
    ///   - existing: the baseline on disk, nil when there is none (then every mode records).
    ///   - scanned: the ids of the migrations scanned; `configured`: every migration id of the
    ///     configuration.
    ///   - display: the baseline's name in the summary.
    ///   - fileExists: whether a repo-relative file exists; `history`: how gone files moved.
    public init(mode: Mode, scan: ScanResult, existing: Baseline?, scanned ids: Set<String>, configured: Set<String>,
                display: String, fileExists: (String) -> Bool, history: FileHistory?) {
        // A skipped file (too big) is not looked at: its entries stay exactly as they were.
        let skipped = Set(scan.skipped.map(\.file))
        let skippedEntries = existing?.entries.filter { skipped.contains($0.file) && ids.contains($0.migration) } ?? []
        let old = existing.map { Baseline(entries: $0.entries.filter { !skipped.contains($0.file) || !ids.contains($0.migration) }) }
        switch (mode, old) {
        case let (.prune(paths, someMigrationsOnly), old?):
            // A file that does not parse cleanly has uses counted by their text where it cannot be
            // read: not the uses recorded, so nothing of it is pruned (fixed once it parses again).
            let damaged = Set(scan.uses.filter(\.inErrorRegion).map(\.file))
            let damagedEntries = old.entries.filter { damaged.contains($0.file) && ids.contains($0.migration) }
            let intact = Baseline(entries: old.entries.filter { !damaged.contains($0.file) || !ids.contains($0.migration) })
            let comparison = Comparison(uses: scan.uses.filter { !damaged.contains($0.file) },
                                        baseline: Baseline(entries: intact.entries.filter { ids.contains($0.migration) }),
                                        scannedFiles: paths.isEmpty ? nil : Set(scan.files), fileExists: fileExists, history: history,
                                        complete: scan.complete, repositoryWide: scan.repositoryWide)
            var remove = Dictionary(grouping: comparison.fixed + comparison.moved.map(\.entry), by: { $0 }).mapValues(\.count)
            var kept = intact.entries.filter { entry in
                guard let count = remove[entry], count > 0 else { return true }
                remove[entry] = count - 1
                return false
            }
            // Entries of migrations no longer configured go too (unless only some were looked at).
            let orphaned = someMigrationsOnly ? 0 : kept.filter { !configured.contains($0.migration) }.count
            if orphaned > 0 { kept.removeAll { !configured.contains($0.migration) } }
            kept += comparison.moved.map { Baseline.Entry($0.use) } + damagedEntries
            baseline = Baseline(entries: kept)
            summary = "Removed \(comparison.fixed.count) fixed use\(comparison.fixed.count == 1 ? "" : "s")"
            if !comparison.moved.isEmpty { summary += ", moved \(comparison.moved.count) to renamed files or declarations" }
            if orphaned > 0 { summary += ", dropped \(orphaned) of migrations no longer configured" }
            if !damaged.isEmpty { summary += ", kept the entries of \(damaged.count) file\(damaged.count == 1 ? "" : "s") that do not parse" }
            summary += " in \(display); \(baseline.entries.count) remain."
        case let (.rerecord(paths), old?):
            // Re-record what this run looked at: these files (and moved files' old entries), these migrations.
            let scannedFiles = Set(scan.files)
            let comparison = Comparison(uses: scan.uses, baseline: Baseline(entries: old.entries.filter { ids.contains($0.migration) }),
                                        scannedFiles: scannedFiles, fileExists: fileExists, history: history,
                                        complete: scan.complete, repositoryWide: scan.repositoryWide)
            var replacedMoves = Dictionary(grouping: comparison.moved.map(\.entry), by: { $0 }).mapValues(\.count)
            // What is recorded: the uses in these files. A partial scan may also hold the uses of
            // complete migrations elsewhere (module rules): a dependency on a cycle now first
            // written outside these files keeps its entry here (it matches in any file).
            let recordedUses = paths.isEmpty ? scan.uses : scan.uses.filter { scannedFiles.contains($0.file) }
            var elsewhere = Dictionary(grouping: scan.uses.filter { !scannedFiles.contains($0.file) && scan.repositoryWide.contains($0.migration) },
                                       by: \.fingerprint).mapValues(\.count)
            for entry in old.entries where !scannedFiles.contains(entry.file) && scan.repositoryWide.contains(entry.migration) {
                elsewhere[entry.fingerprint, default: 0] -= 1
            }
            let kept = old.entries.filter { entry in
                guard ids.contains(entry.migration) else { return true }
                if paths.isEmpty || scannedFiles.contains(entry.file) {
                    if !paths.isEmpty, let count = elsewhere[entry.fingerprint], count > 0 {
                        elsewhere[entry.fingerprint] = count - 1
                        return true
                    }
                    return false
                }
                if !fileExists(entry.file), paths.contains(where: { RepositoryPath.isWithin(entry.file, $0) }) { return false }
                if let count = replacedMoves[entry], count > 0 {
                    replacedMoves[entry] = count - 1
                    return false
                }
                return true
            }
            baseline = Baseline(entries: kept + recordedUses.map(Baseline.Entry.init))
            summary = "Recorded \(plural(recordedUses.count, "use")) of \(plural(scan.files.count + scan.skipped.count, "file")) in \(display); \(baseline.entries.count) in all."
        default:
            // With paths, only what is in the files looked at (module rules also report elsewhere).
            var uses = scan.uses
            if case let .rerecord(paths) = mode, !paths.isEmpty {
                let scannedFiles = Set(scan.files)
                uses = uses.filter { scannedFiles.contains($0.file) }
            }
            baseline = Baseline(findings: uses)
            let perMigration = Dictionary(grouping: baseline.entries, by: \.migration).mapValues(\.count)
            let breakdown = perMigration.keys.sorted().map { "\($0): \(perMigration[$0]!)" }.joined(separator: ", ")
            summary = "Recorded \(plural(baseline.entries.count, "use")) in \(display)\(breakdown.isEmpty ? "" : " (\(breakdown))")."
        }
        if !skippedEntries.isEmpty { baseline = Baseline(entries: baseline.entries + skippedEntries) }
    }
}
