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
    private var outletState: OutletState?
    /// The command line's version, for sharing its cache of what files say about outlets.
    private let cacheVersion: String?
    private var fileHistory: EditorFileHistory?
    /// When `fileHistory` was made.
    private var historyMade = Date.distantPast

    /// The baseline's files gone from disk and what git says became of them, for following
    /// renamed files as `check` does: made when a document first needs it, again on `refresh`.
    var history: EditorFileHistory {
        if let fileHistory { return fileHistory }
        let made = EditorFileHistory(root: configuration.root, baselineByFile: baselineByFile)
        fileHistory = made
        historyMade = Date()
        return made
    }

    /// The module graph, for module rules: made when a document first needs it.
    var modules: ModuleState {
        if let moduleState { return moduleState }
        let made = ModuleState(configuration: configuration, migrations: migrations)
        moduleState = made
        return made
    }

    /// The storyboards and xibs and what Swift files say about outlets, for the outlet rules:
    /// read when a document first needs them.
    var outlets: OutletState {
        if let outletState { return outletState }
        let made = OutletState(configuration: configuration, migrations: migrations, cacheVersion: cacheVersion)
        outletState = made
        return made
    }

    /// Reads again what changed on disk (if it was read): the files of the module graph, and
    /// which files of the baseline are gone and where they went, unless that was done less than
    /// `seconds` ago.
    /// - Returns: whether the graph changed, or which files of the baseline are gone or where git
    ///   says they went: then every open document needs checking again.
    @discardableResult
    func refresh(unlessDoneWithin seconds: TimeInterval = 0) -> Bool {
        // (Both are looked at: neither may be skipped because the other changed.)
        let outletsChanged = outletState?.refresh(unlessDoneWithin: seconds) ?? false
        let modulesChanged = (moduleState?.refresh(unlessDoneWithin: seconds) ?? false) || outletsChanged
        guard let old = fileHistory, Date().timeIntervalSince(historyMade) >= seconds else { return modulesChanged }
        fileHistory = nil
        return history.differs(from: old) || modulesChanged
    }

    init(configurationPath: String, cacheVersion: String? = nil) throws {
        self.cacheVersion = cacheVersion
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

/// What the language server asks of git about the baseline's files that are gone from disk (where
/// they went: renamed, moved, removed), for `Comparison` to follow them as `check` does. Git is
/// asked when a document first needs an answer, and the answers kept until files change on disk
/// (the project makes a new one then); nothing is asked while no file of the baseline is gone.
final class EditorFileHistory: FileHistory {
    /// The baseline's files that are not on disk.
    let gone: Set<String>
    /// Their entries.
    let goneEntries: [Baseline.Entry]
    private let git: GitFileHistory
    /// Git's answers so far (nil: git does not know the file's fate).
    private var knownFates: [String: FileFate?] = [:]
    private var knownSimilarities: [FilePair: Double?] = [:]

    init(root: String, baselineByFile: [String: [Baseline.Entry]]) {
        gone = Set(baselineByFile.keys.filter { !FileManager.default.fileExists(atPath: RepositoryPath.absolute($0, root: root)) })
        goneEntries = gone.sorted().flatMap { baselineByFile[$0] ?? [] }
        git = GitFileHistory(root: root)
    }

    func fates(of gone: [String]) -> [String: FileFate] {
        let unknown = gone.filter { knownFates[$0] == nil }
        if !unknown.isEmpty {
            let found = git.fates(of: unknown)
            for file in unknown { knownFates[file] = .some(found[file]) }
        }
        return Dictionary(gone.compactMap { file in knownFates[file]!.map { (file, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether other files are gone than in an earlier history, or git now says otherwise of those
    /// it was asked about (a file renamed in a terminal, then added to git).
    func differs(from earlier: EditorFileHistory) -> Bool {
        guard gone == earlier.gone else { return true }
        let asked = earlier.knownFates.keys.sorted()
        return !asked.isEmpty && fates(of: asked) != earlier.fates(of: asked)
    }

    func similarities(of pairs: [FilePair]) -> [FilePair: Double] {
        let unknown = pairs.filter { knownSimilarities[$0] == nil }
        if !unknown.isEmpty {
            let found = git.similarities(of: unknown)
            for pair in unknown { knownSimilarities[pair] = .some(found[pair]) }
        }
        return Dictionary(pairs.compactMap { pair in knownSimilarities[pair]!.map { (pair, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// None: the editor's text is not its file's, so git cannot say which of its lines are new;
    /// the last uses of a file with too many are blamed, as without history.
    func newLines(in files: [String: [String]]) -> [String: Set<Int>] { [:] }
}
