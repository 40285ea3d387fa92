import Foundation
import InterfaceBuilder
import Workspace

/// The part of reading a repository's outlets that needs no Swift file read: which files the
/// Xcode projects build (and in which modules), and the storyboards and xibs they build, read
/// (in parallel, from the reading cache where a file is unchanged).
///
/// It depends on the files walked alone, so `scan` reads it while it parses the Swift files
/// (`InterfaceBuilderReading.inBackground`), and `OutletRepository` then takes it as it is.
public struct InterfaceBuilderReading: Sendable {
    /// The storyboards and xibs read (named as displayed).
    var documents: [IBDocument] = []
    /// The Swift files walked, as walked.
    var swiftPaths: [String] = []
    /// The Swift files (displayed) that no target of an Xcode project builds.
    var unbuiltSwift: Set<String> = []
    /// Storyboards and xibs (displayed, sorted) that no target builds: left out.
    var notBuilt: [String] = []
    /// The modules that build each file (by displayed path), where a project says.
    var modules: [String: Set<String>] = [:]
    /// Projects, storyboards and xibs that could not be read: the line for the notes, and the
    /// file (displayed) with why.
    var unreadable: [String] = []
    var unreadableFiles: [(file: String, reason: String)] = []
    /// The reading cache as it was, and the entries of the storyboards and xibs read.
    var cache: OutletReadingCache
    var entries: [String: OutletReadingCache.Entry] = [:]

    /// Reads the projects and Interface Builder files among `walk` (as `OutletRepository.files(under:)`
    /// gives them).
    /// - Parameter cachePath: the reading cache (`OutletReadingCache`), written by `cacheVersion`.
    public init(walk: [String], jobs: Int, display: (String) -> String, cachePath: String?, cacheVersion: String) {
        let cache = cachePath.map { OutletReadingCache.load($0, version: cacheVersion) } ?? OutletReadingCache()
        self.cache = cache
        // What the Xcode projects build: a file under a project that no target builds (a stale
        // copy, code that moved) is no part of the app.
        var projects: [XcodeProject] = []
        let projectFiles = walk.filter { $0.hasSuffix("/project.pbxproj") }
        let readProjects = ParallelMap.map(projectFiles, jobs: jobs, worker: { () }) { _, file in
            Result { try XcodeProject(path: (file as NSString).deletingLastPathComponent) }
        }
        for (file, read) in zip(projectFiles, readProjects) {
            switch read {
            case let .success(project): projects.append(project)
            case let .failure(error):
                // (A project's error names its file: said once, as displayed.)
                let why = (error as? XcodeProject.ReadError)?.reason ?? "\(error)"
                unreadable.append("\(display(file)): \(why); which files it builds is not known")
                unreadableFiles.append((display(file), "\(why); which files it builds is not known"))
            }
        }
        // Whether a target builds each Swift, storyboard and xib file, and which modules (only
        // where a project says: elsewhere a file's module is not known); in parallel, each worker
        // with its own folders' answers.
        let judged = walk.filter { $0.hasSuffix(".swift") || IBDocument.isInterfaceBuilderFile($0) }
        let membership: [(built: Bool, modules: Set<String>)] = ParallelMap.map(judged, jobs: jobs, worker: { BuildMembership(projects: projects) }) { built, path in
            built.membership(of: path)
        }
        var ibPaths: [String] = []
        for (path, (builds, names)) in zip(judged, membership) {
            if path.hasSuffix(".swift") {
                swiftPaths.append(path)
                if !builds { unbuiltSwift.insert(display(path)) }
            } else if builds {
                ibPaths.append(path)
            } else {
                notBuilt.append(display(path))
                continue
            }
            if !names.isEmpty { modules[display(path)] = names }
        }
        notBuilt.sort()
        let readIB: [(Result<IBDocument, Error>, OutletReadingCache.Entry?)] = ParallelMap.map(ibPaths, jobs: jobs, worker: { () }) { _, path in
            let stamp = FileStamp(statusOf: path)
            if let entry = cache.fresh(path, stamp: stamp) {
                if let document = entry.document { return (.success(document), entry) }
                if let failure = entry.failure { return (.failure(IBDocument.ReadError(path: path, line: failure.line, reason: failure.reason)), entry) }
            }
            let result = Result { try IBDocument(contentsOf: path) }
            let entry = stamp.map { stamp in
                switch result {
                case let .success(document): return OutletReadingCache.Entry(stamp: stamp, document: document)
                case let .failure(error as IBDocument.ReadError): return OutletReadingCache.Entry(stamp: stamp, failure: .init(line: error.line, reason: error.reason))
                case .failure: return OutletReadingCache.Entry(stamp: stamp)
                }
            }
            return (result, entry)
        }
        for (index, (result, entry)) in readIB.enumerated() {
            if let entry { entries[ibPaths[index]] = entry }
            switch result {
            case var .success(document):
                document.path = display(document.path)
                documents.append(document)
            case let .failure(error as IBDocument.ReadError):
                unreadable.append("\(display(ibPaths[index])):\(error.line): \(error.reason)")
                unreadableFiles.append((display(ibPaths[index]), "line \(error.line): \(error.reason)"))
            case let .failure(error):
                unreadable.append("\(display(ibPaths[index])): \(error)")
                unreadableFiles.append((display(ibPaths[index]), "\(error)"))
            }
        }
    }

    /// Starts reading on a thread of its own (so that it runs beside work that keeps the other
    /// threads busy, such as a scan's parsing); `value` waits for it. For
    /// `OutletRepository(root:…)` with the same `root`, `walked`, `display` and `cacheVersion`
    /// (nil: no cache).
    /// - Parameter first: what to wait for before reading (stamps of the files, for a digest of
    ///   what was read).
    public static func inBackground(root: String, walked: [String], jobs: Int, display: @escaping @Sendable (String) -> String,
                                    cacheVersion: String?, first: @escaping @Sendable () -> Void = {}) -> BackgroundWork<InterfaceBuilderReading> {
        BackgroundWork {
            first()
            return InterfaceBuilderReading(walk: walked, jobs: jobs, display: display,
                                    cachePath: cacheVersion.map { _ in OutletReadingCache.defaultPath(root: root) }, cacheVersion: cacheVersion ?? "")
        }
    }
}
