import BundledCodemods
import CodemodKit
import Foundation
import Lockdown
import Migrations
import Workspace

/// A repository as the language server sees it: its `.swiftmod.yml`, its migrations bound to
/// their codemods, and its baseline. Read again when one of those files changes on disk.
final class Project {
    let configuration: Configuration
    let migrations: [Migration]
    /// The baseline's entries by repo-relative file.
    private(set) var baselineByFile: [String: [Baseline.Entry]] = [:]
    /// The same entries by migration (a dependency on a cycle may be any file's: every change
    /// of a document looks them up).
    private var baselineByMigration: [String: [Baseline.Entry]] = [:]
    /// Why the baseline could not be read (then every use is new).
    private(set) var baselineProblem: String?
    private var stamps: [String: FileStamp?] = [:]
    private var moduleState: ModuleState?

    /// The module graph, for module rules: made when a document first needs it.
    var modules: ModuleState {
        if let moduleState { return moduleState }
        let made = ModuleState(configuration: configuration, migrations: migrations)
        moduleState = made
        return made
    }

    /// Reads again what changed on disk among the files of the module graph (if it was made),
    /// unless that was done less than `seconds` ago.
    /// - Returns: whether the graph changed.
    @discardableResult
    func refreshModules(unlessDoneWithin seconds: TimeInterval = 0) -> Bool { moduleState?.refresh(unlessDoneWithin: seconds) ?? false }

    init(configurationPath: String) throws {
        configuration = try Configuration.load(configurationPath)
        let catalog = try CodemodCatalog(bundled: BundledCodemods.definitions, directories: configuration.codemodFolderPaths)
        migrations = try Migration.resolve(configuration, catalog: catalog)
        reloadBaseline()
        stamps = watched.reduce(into: [:]) { $0[$1] = FileStamp(statusOf: $1) }
    }

    /// The files whose change makes this project stale.
    var watched: [String] { [configuration.path, configuration.baselinePath] }

    /// Whether `.swiftmod.yml` or the baseline changed on disk since they were read.
    var isStale: Bool {
        watched.contains { stamps[$0] != FileStamp(statusOf: $0) }
    }

    private func reloadBaseline() {
        baselineByFile = [:]
        baselineByMigration = [:]
        baselineProblem = nil
        guard FileManager.default.fileExists(atPath: configuration.baselinePath) else { return }
        do {
            let baseline = try Baseline.load(configuration.baselinePath)
            baselineByFile = Dictionary(grouping: baseline.entries, by: \.file)
            baselineByMigration = Dictionary(grouping: baseline.entries, by: \.migration)
        } catch {
            baselineProblem = "\(error)"
        }
    }

    /// The baseline's entries of some migrations, in every file.
    func baselineEntries(of migrations: Set<String>) -> [Baseline.Entry] {
        migrations.sorted().flatMap { baselineByMigration[$0] ?? [] }
    }

    /// The migration of an id.
    func migration(_ id: String) -> Migration? { migrations.first { $0.id == id } }
}
