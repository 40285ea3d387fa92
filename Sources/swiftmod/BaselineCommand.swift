import ArgumentParser
import CodemodKit
import Foundation
import Lockdown
import Workspace

/// `swiftmod baseline`: records today's uses as the allowlist.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record today's uses in the baseline (the allowlist that `check` compares with).",
        discussion: """
        Writes the baseline file named in .swiftmod.yml (default .swiftmod-baseline.jsonl): a \
        header line, then one use per line, sorted, paths relative to the repository root, no line \
        numbers or dates. With PATHs (or --migration), only those files (and migrations) are \
        recorded again and the rest of the baseline is kept. With --prune, uses that are gone are \
        removed, moved files' entries follow them, and nothing is added (the ratchet: a fixed use \
        cannot come back). The baseline is updated under a lock (FILE.lock beside it): a run that \
        cannot take it within SWIFTMOD_LOCK_TIMEOUT seconds (default 30) fails with exit 1.

        Examples:
          swiftmod baseline
          swiftmod baseline --prune
          swiftmod baseline Sources/Feed      # re-record one folder
        """
    )

    @OptionGroup var options: LockdownOptions

    @Flag(help: "Only remove entries whose uses are gone (and move entries of moved files); never add any.")
    var prune = false

    func run() throws {
        let (configuration, migrations, files, unreadable) = try options.load()
        let result = try options.scan(configuration, migrations, files, unreadable: unreadable)
        guard result.failures.isEmpty else {
            throw CommandFailure(message: "the baseline was not written, because some files could not be read", exitCode: ExitStatus.failure)
        }
        let path = configuration.baselinePath
        // The baseline belongs to the repository: never written outside it (through a link, or
        // a `baseline:` that climbs out).
        if let outside = WriteBoundary(repository: configuration.root).outsideDestination(of: path) {
            throw CommandFailure(message: "\(path): the baseline would be written outside the repository (\(outside)); keep it inside, and not behind a link that leads out",
                                 exitCode: ExitStatus.usage)
        }
        let ids = Set(migrations.map(\.id))
        let configured = Set(configuration.migrations.map(\.id))
        let partial = !options.paths.isEmpty || !options.only.isEmpty
        let exists = { (file: String) in FileManager.default.fileExists(atPath: (configuration.root as NSString).appendingPathComponent(file)) }
        let history = GitFileHistory(root: configuration.root, baselinePath: path)
        // Read, change and write the baseline under its lock: a concurrent run waits its turn
        // instead of writing a baseline without this run's entries (or this one without its).
        let lock: FileLock
        do {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            lock = try FileLock(for: path)
        } catch {
            throw CommandFailure(message: "the baseline was not written: \(error)", exitCode: ExitStatus.failure)
        }
        defer { lock.unlock() }
        // Interrupted, it leaves no temporary file; one of a killed run is removed.
        TemporaryFiles.removeOnInterrupt()
        _ = TemporaryFiles.removeStale(in: [(path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent])
        // An existing baseline must be readable: a corrupt one is never replaced by part of one.
        let loaded: Baseline?
        do {
            loaded = try Baseline.load(path)
        } catch Baseline.LoadError.missing {
            if prune { throw CommandFailure(message: "\(Baseline.LoadError.missing(path: path))", exitCode: ExitStatus.usage) }
            loaded = nil
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
        }
        // A skipped file (too big) is not looked at: its entries stay exactly as they were.
        let skipped = Set(result.skipped.map(\.file))
        let skippedEntries = loaded?.entries.filter { skipped.contains($0.file) && ids.contains($0.migration) } ?? []
        let old = loaded.map { Baseline(entries: $0.entries.filter { !skipped.contains($0.file) || !ids.contains($0.migration) }) }
        var updated: Baseline
        var message: String
        let display = RepositoryPath.relative(path, root: configuration.root) ?? path
        if prune, let old {
            let mine = old.entries.filter { ids.contains($0.migration) }
            let comparison = Comparison(uses: result.uses, baseline: Baseline(entries: mine),
                                        scannedFiles: options.paths.isEmpty ? nil : Set(result.files), fileExists: exists,
                                        history: history)
            var remove = Dictionary(grouping: comparison.fixed + comparison.moved.map(\.entry), by: { $0 }).mapValues(\.count)
            var kept = old.entries.filter { entry in
                if let count = remove[entry], count > 0 {
                    remove[entry] = count - 1
                    return false
                }
                return true
            }
            // Entries of migrations no longer configured go too (unless only some were looked at).
            let orphaned = options.only.isEmpty ? kept.filter { !configured.contains($0.migration) }.count : 0
            if orphaned > 0 { kept.removeAll { !configured.contains($0.migration) } }
            kept += comparison.moved.map { Baseline.Entry($0.use) }
            updated = Baseline(entries: kept)
            message = "Removed \(comparison.fixed.count) fixed use\(comparison.fixed.count == 1 ? "" : "s")"
            if !comparison.moved.isEmpty { message += ", moved \(comparison.moved.count) to renamed files or declarations" }
            if orphaned > 0 { message += ", dropped \(orphaned) of migrations no longer configured" }
            message += " in \(display); \(updated.entries.count) remain."
        } else if partial, let old {
            // Re-record what this run looked at: these files (and moved files' old entries), these migrations.
            let scanned = Set(result.files)
            let roots = options.paths.map { RepositoryPath.relative($0, root: configuration.root) ?? "" }
            let comparison = Comparison(uses: result.uses, baseline: Baseline(entries: old.entries.filter { ids.contains($0.migration) }),
                                        scannedFiles: scanned, fileExists: exists, history: history)
            var replacedMoves = Dictionary(grouping: comparison.moved.map(\.entry), by: { $0 }).mapValues(\.count)
            let kept = old.entries.filter { entry in
                guard ids.contains(entry.migration) else { return true }
                if options.paths.isEmpty || scanned.contains(entry.file) { return false }
                if !exists(entry.file), roots.contains(where: { $0.isEmpty || entry.file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") || entry.file == $0 }) {
                    return false
                }
                if let count = replacedMoves[entry], count > 0 {
                    replacedMoves[entry] = count - 1
                    return false
                }
                return true
            }
            updated = Baseline(entries: kept + result.uses.map(Baseline.Entry.init))
            message = "Recorded \(result.uses.count) use\(result.uses.count == 1 ? "" : "s") of \(files.count) file\(files.count == 1 ? "" : "s") in \(display); \(updated.entries.count) in all."
        } else {
            updated = Baseline(findings: result.uses)
            let perMigration = Dictionary(grouping: updated.entries, by: \.migration).mapValues(\.count)
            let breakdown = perMigration.keys.sorted().map { "\($0): \(perMigration[$0]!)" }.joined(separator: ", ")
            message = "Recorded \(updated.entries.count) use\(updated.entries.count == 1 ? "" : "s") in \(display)\(breakdown.isEmpty ? "" : " (\(breakdown))")."
        }
        if !skippedEntries.isEmpty { updated = Baseline(entries: updated.entries + skippedEntries) }
        do {
            try updated.write(to: path)
        } catch {
            throw CommandFailure(message: "\(path): cannot write the baseline: \(error)", exitCode: ExitStatus.failure)
        }
        print(message)
        if old == nil {
            print("Tip: commit \(display), and add `\(display) merge=union` to .gitattributes so branches merge it without conflicts.")
        }
    }
}
