import Foundation
import Migrations
import Workspace

/// The module graph of a project as the language server sees it: the imports of every file on
/// disk, read again when a file's stamp changes, with an open document's text in place of its
/// file, so that module rules are checked on what the editor shows. A module's type may forbid
/// an import the developer is typing; a dependency just added may close a cycle through modules
/// nobody has open.
final class ModuleState {
    private let configuration: Configuration
    private let migrations: [Migration]
    private var map: ModuleMap
    /// What each file on disk says (imports, allow comments), in the command line's order.
    private var sources: [ModuleGraph.SourceFile] = []
    private var position: [String: Int] = [:]
    private var stamps: [String: FileStamp] = [:]
    /// The module of each file (by the module map read last), and the repository's CODEOWNERS.
    private var moduleOfFile: [String: String] = [:]
    private var owners = CodeOwners(text: "")
    /// The rules over the files as they are on disk: those of every document whose text says
    /// what its file says (most open documents), made once per change on disk.
    private var diskRules: ModuleRules?
    /// The rules of the last few texts that differ from their files (a document being typed in,
    /// and the texts code actions try): most changes leave imports and allow comments as they
    /// were, and then nothing needs checking again.
    private var recent: [(file: String, scan: ImportScanner.Result, manifest: String?, rules: ModuleRules)] = []
    private static let recentLimit = 8
    /// When the files were last looked at.
    private var refreshed = Date.distantPast

    /// - Parameter migrations: the project's migrations (only its module rules are checked).
    init(configuration: Configuration, migrations: [Migration]) {
        self.configuration = configuration
        self.migrations = migrations.filter(\.isModuleRule)
        map = ModuleMap(explicit: [], folders: [])
        refresh()
    }

    /// Whether the project has module rules at all.
    var isEmpty: Bool { migrations.isEmpty }

    /// Reads the module map again, and the files whose stamp changed since they were read (after
    /// a save, a checkout, a pull), unless that was done less than `seconds` ago (opening many
    /// documents at once looks once: on 5,000 files it takes about 0.15 s).
    /// - Returns: whether anything changed (then every open document needs checking again).
    @discardableResult
    func refresh(unlessDoneWithin seconds: TimeInterval = 0) -> Bool {
        guard !isEmpty, Date().timeIntervalSince(refreshed) >= seconds else { return false }
        defer { refreshed = Date() }
        let root = configuration.root
        let newMap = ModuleMap.discover(root: root, configuration: configuration)
        let files = ModuleRules.filesToRead((try? FileSelection(configuration, paths: []).files) ?? [], map: newMap, root: root)
        var kept: [String: ModuleGraph.SourceFile] = [:]
        var changed: [String] = []
        var newStamps: [String: FileStamp] = [:]
        for path in files {
            guard let relative = RepositoryPath.relative(path, root: root) else { continue }
            let stamp = FileStamp(statusOf: path)
            if let stamp { newStamps[relative] = stamp }
            if let stamp, stamps[relative] == stamp, let index = position[relative] {
                kept[relative] = sources[index]
            } else {
                changed.append(path)
            }
        }
        // Nothing new on disk (a save of an unchanged file): the graph stands.
        if changed.isEmpty, newStamps.count == stamps.count, diskRules != nil { return false }
        for source in ModuleGraph.readSources(changed, root: root, configuration: configuration).sources { kept[source.file] = source }
        map = newMap
        sources = files.compactMap { RepositoryPath.relative($0, root: root).flatMap { kept[$0] } }
        position = Dictionary(sources.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
        stamps = newStamps
        moduleOfFile = Dictionary(sources.map { ($0.file, map.module(of: $0.file)) }, uniquingKeysWith: { first, _ in first })
        owners = CodeOwners.load(root: root)
        recent = []
        diskRules = build(map: map, sources: sources, knownModules: true)
        return true
    }

    /// The module rules checked with a document's text in place of its file (repo-relative).
    func rules(file: String, text: String) -> ModuleRules {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let scan = ImportScanner.scan(bytes)
        let manifest = ModuleMap.isManifest(file) ? text : nil
        let onDisk = position[file].map { self.sources[$0].scan == scan } ?? false
        if onDisk, manifest == nil, let diskRules { return diskRules }
        if let index = recent.firstIndex(where: { $0.file == file && $0.scan == scan && $0.manifest == manifest }) {
            let found = recent.remove(at: index)
            recent.append(found)
            return found.rules
        }
        // An edited manifest may declare other targets and dependencies (a new one, too).
        let map = manifest.map { ModuleMap.discover(root: configuration.root, configuration: configuration, manifestTexts: [file: $0]) } ?? self.map
        var edited = sources
        let source = ModuleGraph.SourceFile(file: file, scan: scan)
        if let index = position[file] { edited[index] = source } else { edited.append(source) }
        let rules = build(map: map, sources: edited, knownModules: manifest == nil)
        recent.append((file, scan, manifest, rules))
        if recent.count > Self.recentLimit { recent.removeFirst() }
        return rules
    }

    /// The rules over a graph of some sources.
    /// - Parameter knownModules: whether files belong to the modules of the map read last (not
    ///   so when a manifest's text may have moved them).
    private func build(map: ModuleMap, sources: [ModuleGraph.SourceFile], knownModules: Bool) -> ModuleRules {
        let known = knownModules ? moduleOfFile : [:]
        let graph = ModuleGraph.build(map: map, root: configuration.root, configuration: configuration, sources: sources, owners: owners,
                                      moduleOf: { known[$0] ?? map.module(of: $0) })
        return ModuleRules(configuration: configuration, migrations: migrations, map: map, graph: graph)
    }
}
