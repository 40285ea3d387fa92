import ArgumentParser
import Foundation
import Lockdown

/// `swiftmod baseline`: records today's uses as the allowlist.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record today's uses in the baseline (the allowlist that `check` compares with).",
        discussion: """
        Writes the baseline file named in .swiftmod.yml (default .swiftmod-baseline.json): one use \
        per line, sorted, paths relative to the repository root, no line numbers or dates. With \
        PATHs, only the entries of those files are recorded again. With --prune, uses that are gone \
        are removed and nothing is added (the ratchet: a fixed use cannot come back).

        Examples:
          swiftmod baseline
          swiftmod baseline --prune
        """
    )

    @OptionGroup var options: LockdownOptions

    @Flag(help: "Only remove entries whose uses are gone; never add any.")
    var prune = false

    func run() throws {
        let (configuration, migrations, files) = try options.load()
        let result = options.scan(configuration, migrations, files)
        guard result.failures.isEmpty else {
            throw CommandFailure(message: "the baseline was not written, because some files could not be read", exitCode: ExitStatus.failure)
        }
        let path = configuration.baselinePath
        let ids = Set(migrations.map(\.id))
        let scanned = Set(result.files)
        let updated: Baseline
        var removed = 0
        if prune {
            let old: Baseline
            do { old = try Baseline.load(path) } catch {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.usage)
            }
            let comparison = Comparison(uses: result.uses.filter { ids.contains($0.migration) }, baseline: old,
                                        scannedFiles: options.paths.isEmpty ? nil : scanned)
            var gone = Dictionary(grouping: comparison.fixed.filter { ids.contains($0.migration) }, by: { $0 }).mapValues(\.count)
            let kept = old.entries.filter { entry in
                if let count = gone[entry], count > 0 {
                    gone[entry] = count - 1
                    return false
                }
                return true
            }
            removed = old.entries.count - kept.count
            updated = Baseline(entries: kept)
        } else {
            let fresh = result.uses.map(Baseline.Entry.init)
            let old = try? Baseline.load(path)
            if options.paths.isEmpty && options.only.isEmpty {
                updated = Baseline(entries: fresh)
            } else {
                // Re-record only what this run looked at: these files, these migrations.
                let base = old?.entries ?? []
                let looked = { (entry: Baseline.Entry) in
                    (options.paths.isEmpty || scanned.contains(entry.file)) && ids.contains(entry.migration)
                }
                let keep = base.filter { !looked($0) }
                updated = Baseline(entries: keep + fresh)
            }
        }
        do {
            try updated.write(to: path)
        } catch {
            throw CommandFailure(message: "\(path): cannot write the baseline: \(error)", exitCode: ExitStatus.failure)
        }
        let display = Scanner.relativePath(path, root: configuration.root) ?? path
        if prune {
            print("Removed \(removed) fixed use\(removed == 1 ? "" : "s") from \(display); \(updated.entries.count) remain.")
        } else {
            let perMigration = Dictionary(grouping: updated.entries, by: \.migration).mapValues(\.count)
            let breakdown = perMigration.keys.sorted().map { "\($0): \(perMigration[$0]!)" }.joined(separator: ", ")
            print("Recorded \(updated.entries.count) use\(updated.entries.count == 1 ? "" : "s") in \(display)\(breakdown.isEmpty ? "" : " (\(breakdown))").")
        }
    }
}
