import Foundation
import InterfaceBuilder
import SwiftTree
import Workspace

/// A repository's outlets judged against its storyboards and xibs: every Swift, storyboard and
/// xib file under a root (by the file walker's rules), read in parallel.
public struct OutletRepository: Sendable {
    public var classification: OutletClassification
    /// Interface Builder files that could not be read, with why: the verdicts of the classes
    /// they use may be wrong.
    public var unreadable: [String] = []
    /// The same, as the file (displayed) and why.
    public var unreadableFiles: [(file: String, reason: String)] = []
    /// Member names other code reads on something other than `self` (`cell.titleLabel`), with
    /// where: an outlet of that name cannot become optional without knowing that code's types.
    public var foreignReferences: [String: String] = [:]
    /// Where classes' code (their bodies and extensions) reads a member bare or through `self`:
    /// by member name, the file, the class and the line.
    public var memberUses: [String: [(file: String, className: String, line: Int)]] = [:]
    /// The Swift files (displayed) whose `swiftmod:allow` comments name some id, by id.
    public var allowComments: [String: Set<String>] = [:]
    public var root: String
    /// Storyboards and xibs that no target of an Xcode project builds: left out of the verdicts.
    public var notBuilt: [String] = []
    /// Swift files (displayed) that could not be read (too large, not UTF-8), with why: what their
    /// classes declare is not known.
    public var unreadSwift: [(file: String, reason: String)] = []
    /// Swift files (displayed) that no target of an Xcode project builds.
    public var unbuiltSwift: Set<String> = []
    /// How many Swift files and Interface Builder files were read.
    public var swiftFiles = 0
    public var documents = 0
    /// How many Swift files were parsed here (not those `read` already, nor those the cache
    /// answered): for the verdicts alone, those that declare outlets and those whose types
    /// matter (the others are read by their text); for a rewrite, all.
    public private(set) var swiftFilesParsed = 0

    /// - Parameter display: how to name a file in verdicts (relative to the working folder, say).
    /// - Parameter cached: keep what each file gave in the root's `.swiftmod/cache`, and read
    ///   only the files changed since (`cacheVersion` names what wrote it).
    /// - Parameter read: what some Swift files say, read already (by `scan`), by displayed path.
    /// - Parameter hashes: the content hashes of the Swift files `scan` read, by path (as
    ///   walked): the cache keeps what those of `read` say by them, and answers for the others
    ///   by them without a `stat`.
    /// - Parameter complete: read every Swift file whole, with its uses (for a rewrite:
    ///   `around`); by default the verdicts alone, with a cache or without.
    /// - Parameter prepared: the projects, storyboards and xibs of `walked`, read already
    ///   (`InterfaceBuilderReading`, with the same `display` and `cacheVersion`).
    public init(root: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, display: (String) -> String = { $0 },
                cacheVersion: String? = nil, read: [String: SwiftOutlets] = [:], hashes: [String: UInt64] = [:], walked: [String]? = nil,
                complete: Bool = false, prepared: InterfaceBuilderReading? = nil) {
        self = (try? OutletRepository(paths: [root], jobs: jobs, display: display,
                                      cachePath: cacheVersion.map { _ in OutletReadingCache.defaultPath(root: root) }, cacheVersion: cacheVersion ?? "",
                                      complete: complete, read: read, hashes: hashes, walked: walked, prepared: prepared))
            ?? OutletRepository(empty: root)
    }

    private init(empty root: String) {
        self.root = root
        classification = OutletClassification(documents: [], swift: [])
    }

    /// The files under some paths (folders or files).
    /// - Throws: `FileWalker.MissingPathError` for a path that does not exist.
    /// - Parameter complete: read every Swift file whole, for a rewrite (which must see every
    ///   use of an outlet); by default the files without outlets are read for their classes
    ///   only, which is all the verdicts need (`scan`, `outlets`), and whole where they matter.
    /// - Parameter read: what some Swift files say, read already, by displayed path: not read
    ///   again, and cached by their content hash in `hashes` (by path, as walked).
    /// - Parameter prepared: the projects, storyboards and xibs of `walked`, read already (with
    ///   the same `display`, `cachePath` and `cacheVersion`).
    public init(paths: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount, display: (String) -> String = { $0 },
                cachePath: String? = nil, cacheVersion: String = "", complete: Bool = false, read alreadyRead: [String: SwiftOutlets] = [:],
                hashes: [String: UInt64] = [:], walked: [String]? = nil, prepared: InterfaceBuilderReading? = nil) throws {
        root = paths.first ?? "."
        let walk = try walked ?? Self.files(under: paths)
        let reading = prepared ?? InterfaceBuilderReading(walk: walk, jobs: jobs, display: display, cachePath: cachePath, cacheVersion: cacheVersion)
        var cache = reading.cache
        cache.hashes = hashes
        unreadable = reading.unreadable
        unreadableFiles = reading.unreadableFiles
        unbuiltSwift = reading.unbuiltSwift
        notBuilt = reading.notBuilt
        modules = reading.modules
        let documents = reading.documents
        let swiftPaths = reading.swiftPaths
        var newCache = OutletReadingCache()
        newCache.entries = reading.entries
        let displayed = swiftPaths.map(display)
        let readSwift: [(outlets: SwiftOutlets?, entry: OutletReadingCache.Entry?, parsed: Bool)] = ParallelMap.map(Array(swiftPaths.indices), jobs: jobs, worker: { Parser() }) { parser, index in
            let path = swiftPaths[index]
            if let known = alreadyRead[displayed[index]] {
                // Kept by the content hash of the bytes `scan` read it from (what the cache has of
                // those bytes, read whole say, stays).
                if let kept = cache.fresh(byHashOf: path) { return (known, kept, false) }
                return (known, cache.hashes[path].map { OutletReadingCache.Entry(hash: $0, swift: known) }, false)
            }
            if let entry = cache.fresh(byHashOf: path) { return (entry.swift, entry, false) }
            let stamp = FileStamp(statusOf: path)
            if let entry = cache.fresh(path, stamp: stamp) { return (entry.swift, entry, false) }
            // A Swift file that cannot be read declares nothing here (`scan` says why). For the
            // verdicts alone, one that declares no outlet or action is read by its text first:
            // for its classes, and, where it holds more, whole below if its types matter.
            let source = try? SourceText(contentsOfFile: path)
            let byText = source.map { !complete && !SwiftOutlets.mayDeclareOutlets($0.bytes) } ?? true
            let outlets = source.map { source in
                byText ? SwiftOutlets(classesOf: source.bytes) : SwiftOutlets(parser.parse(source), readingUses: complete)
            }
            return (outlets, stamp.map { OutletReadingCache.Entry(stamp: $0, swift: outlets) }, !byText)
        }
        var swift: [(path: String, outlets: SwiftOutlets)] = []
        var readFrom: [String] = []
        swiftFilesParsed = readSwift.filter(\.parsed).count
        for (index, (outlets, entry, _)) in readSwift.enumerated() {
            if outlets == nil {
                // (Asked again for why: a failure is cached without it.)
                var reason = "cannot be read"
                do { _ = try SourceText(contentsOfFile: swiftPaths[index]) } catch { reason = "\(error)" }
                unreadSwift.append((displayed[index], reason))
            }
            if let entry {
                newCache.entries[swiftPaths[index]] = entry
            } else if let kept = cache.entries[swiftPaths[index]] {
                // Read already, with no content hash to keep it by: what another reader cached
                // stays (it is trusted only while the file's stamp is the same).
                newCache.entries[swiftPaths[index]] = kept
            }
            if let outlets {
                swift.append((displayed[index], outlets))
                readFrom.append(swiftPaths[index])
            }
        }
        // Files read by their text alone (here or by `scan`) are read whole where they matter to
        // the verdicts (for a rewrite: all of them).
        classification = OutletClassification(documents: [], swift: [])
        self.swiftPaths = readFrom
        let readWhole = settle(documents: documents, swift: swift, all: complete, jobs: jobs, cache: cache)
        for (path, entry) in readWhole { newCache.entries[path] = entry }
        // Written when a file came or went, or changed, or was read whole.
        if let cachePath, !readWhole.isEmpty || newCache.entries.count != cache.entries.count
            || newCache.entries.contains(where: { entry in cache.entries[entry.key].map { $0.stamp != entry.value.stamp || $0.hash != entry.value.hash } ?? true }) {
            newCache.write(cachePath, version: cacheVersion)
        }
    }

    /// Judges the files of `swift` (at `swiftPaths`), read whole where they matter (`WholeReading`).
    /// A connection then found stale may be to a member or an action that a file set aside
    /// declares (an extension's `var`, an `@objc func`): the files set aside that name it are read
    /// whole, and, if one declares it, all judged again.
    /// - Returns: the cache entries of the files read whole.
    private mutating func settle(documents: [IBDocument], swift: [(path: String, outlets: SwiftOutlets)], all: Bool, jobs: Int,
                                 cache: OutletReadingCache) -> [String: OutletReadingCache.Entry] {
        var reading = WholeReading(swift, at: swiftPaths, documents: documents, all: all, jobs: jobs, cache: cache)
        judge(documents: documents, swift: reading.swift, jobs: jobs)
        let stale = classification.stale
        defer { swiftFilesParsed += reading.parsedCount }
        guard !stale.isEmpty else { return reading.entries }
        let members = Set(stale.filter { $0.kind != .action }.map(\.name))
        let actions = Set(stale.filter { $0.kind == .action }.map(\.name))
        // (An action is an `@objc` method's, whose name begins its selector.)
        let read = reading.readNaming(members) + reading.readNaming(Set(actions.flatMap(SwiftOutlets.methodNames(forSelector:))), alongside: "@objc")
        let declares = read.contains { index in
            let file = reading.swift[index].outlets
            return file.members.values.contains { !$0.isDisjoint(with: members) } || file.actions.values.contains { !$0.isDisjoint(with: actions) }
        }
        if declares { judge(documents: documents, swift: reading.swift, jobs: jobs) }
        return reading.entries
    }

    /// What was read: the storyboards and xibs, and what each Swift file says (by displayed path);
    /// the modules that build each (by displayed path).
    private var modules: [String: Set<String>] = [:]
    private var readDocuments: [IBDocument] = []
    private var readSwift: [(path: String, outlets: SwiftOutlets)] = []
    /// Where each file of `readSwift` is.
    private var swiftPaths: [String] = []

    /// The verdicts of what was read.
    private mutating func judge(documents: [IBDocument], swift: [(path: String, outlets: SwiftOutlets)], jobs: Int) {
        readDocuments = documents
        readSwift = swift
        classification = OutletClassification(documents: documents, swift: swift, unbuilt: unbuiltSwift, modules: modules, jobs: jobs)
        swiftFiles = swift.count
        self.documents = documents.count
        foreignReferences = [:]
        memberUses = [:]
        allowComments = [:]
        // (A file no target builds is no code that could read an outlet.)
        for (path, file) in swift where !unbuiltSwift.contains(path) {
            for (name, line) in file.foreignReferences where foreignReferences[name] == nil {
                foreignReferences[name] = "\(path):\(line)"
            }
            for (className, uses) in file.memberUses {
                for (name, line) in uses { memberUses[name, default: []].append((path, className, line)) }
            }
            for id in file.allowedIDs { allowComments[id, default: []].insert(path) }
        }
    }

    /// The verdicts with one Swift file (by displayed path) saying something else: what an editor
    /// shows of it, say. A file that was not read is added.
    public func replacing(_ file: String, with outlets: SwiftOutlets) -> OutletRepository {
        var swift = readSwift
        var paths = swiftPaths
        if let index = swift.firstIndex(where: { $0.path == file }) {
            swift[index].outlets = outlets
        } else {
            swift.append((file, outlets))
            paths.append(file)
        }
        // What the file now says may make another file's types matter (a new outlet's class).
        var changed = self
        changed.swiftPaths = paths
        _ = changed.settle(documents: readDocuments, swift: swift, all: false, jobs: 1, cache: OutletReadingCache())
        return changed
    }

    /// The files under some paths that the verdicts read: Swift files, storyboards, xibs and Xcode projects.
    /// - Throws: `FileWalker.MissingPathError` for a path that does not exist.
    public static func files(under paths: [String]) throws -> [String] {
        try FileWalker(endings: endings).walk(paths).files
    }

    /// The endings of the files the verdicts read.
    public static let endings = [".swift", ".storyboard", ".xib", ".pbxproj"]

    /// One file alone (an example, a file in the editor): no storyboard or xib is known, so only
    /// what its own code does (an outlet it removes from its superview) is judged.
    public init(tree: SyntaxTree) {
        self.init(file: SwiftOutlets(tree))
    }

    /// One file alone, read already.
    public init(file outlets: SwiftOutlets) {
        root = ""
        classification = OutletClassification(documents: [], swift: [(path: "", outlets: outlets)])
        for (name, line) in outlets.foreignReferences { foreignReferences[name] = "line \(line)" }
        for (className, uses) in outlets.memberUses {
            for (name, line) in uses { memberUses[name, default: []].append(("", className, line)) }
        }
    }

    /// The repository around a run's files: the git top level of the working folder (or of the
    /// folder of the run's first file), every storyboard, xib and Swift file under it.
    /// - Parameter readingUses: read every use of an outlet (for a rewrite of them), not only
    ///   what the verdicts need.
    public static func around(_ files: [String], readingUses: Bool = true) -> OutletRepository {
        let here = FileManager.default.currentDirectoryPath
        let start = files.first.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: here)).deletingLastPathComponent().path } ?? here
        let root = Git.topLevel(of: start) ?? Git.topLevel(of: here) ?? here
        return OutletRepository(root: root, complete: readingUses)
    }

    /// The repository of an action's run; without a run (an example, `scan`, one file in the
    /// editor), the file's own (no storyboard is known: only what its code removes is judged).
    public static func of(_ context: ActionContext) -> OutletRepository {
        context.run as? OutletRepository ?? context.memo.value(Self.fileKey) { OutletRepository(tree: context.tree) }
    }

    static let fileKey = "outlets.file"

    /// Tells the actions that judge a tree alone what its file says about outlets, read already.
    public static func remember(_ outlets: SwiftOutlets, in memo: TreeMemo) {
        _ = memo.value(fileKey) { OutletRepository(file: outlets) }
    }

    /// The verdict of an outlet, by its class and name.
    /// Of two classes of one name (a stale copy no target builds beside the built one), the
    /// built one's.
    /// Of classes of one name told apart (`SameNamedClasses`), the one declared at `declaration`
    /// (the outlet's declaration in its file).
    /// Of two declared alike in two files (their place is all an action knows), the one that may
    /// be absent (see `isAmbiguous`).
    public func entry(className: String, outlet: String, declaration: Range<Int>? = nil) -> OutletClassification.Entry? {
        let named = entries(className: className, outlet: outlet, declaration: declaration)
        let built = named.filter { !unbuiltSwift.contains($0.file) }
        return built.first { $0.verdict.mayBeAbsent } ?? built.first ?? named.first
    }

    /// Whether two classes of one name, in files some target builds, declare the outlet at the
    /// same place with different verdicts: an action cannot tell which file it is in.
    public func isAmbiguous(className: String, outlet: String, declaration: Range<Int>) -> Bool {
        let built = entries(className: className, outlet: outlet, declaration: declaration).filter { !unbuiltSwift.contains($0.file) }
        return Set(built.map(\.verdict.name)).count > 1
    }

    private func entries(className: String, outlet: String, declaration: Range<Int>?) -> [OutletClassification.Entry] {
        let named = classification.entries.filter { SameNamedClasses.name(of: $0.outlet.className) == className && $0.outlet.name == outlet }
        guard named.count > 1, let declaration else { return named }
        let here = named.filter { $0.outlet.byteRange == declaration }
        return here.isEmpty ? named : here
    }
}

/// Which files a repository's Xcode projects build. A file under no project (a SwiftPM
/// package, a repository without projects) counts as built, and so does one inside a SwiftPM
/// package within a project's folder.
final class BuildMembership {
    let projects: [XcodeProject]
    /// Folders known to hold a `Package.swift`, or not.
    private var packages: [String: Bool] = [:]
    /// Paths standardized as the projects' are (symbolic links resolved).
    private let standardizer = PathStandardizer()

    init(projects: [XcodeProject]) { self.projects = projects }

    /// A file's path as the projects spell theirs.
    private func standardized(_ file: String) -> String {
        standardizer.standardized(file.hasPrefix("/") ? file : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(file))
    }

    /// Whether a target builds a file, and the modules of the targets that do (their names as
    /// Interface Builder's `customModule` spells them; none where no project says).
    func membership(of file: String) -> (built: Bool, modules: Set<String>) {
        guard !projects.isEmpty else { return (true, []) }
        let absolute = standardized(file)
        var modules: Set<String> = []
        var covered = false, built = false
        // (By index: a project's targets are not copied for each file.)
        for project in projects.indices where projects[project].covers(absolute) {
            covered = true
            for target in projects[project].targets.indices where projects[project].targets[target].builds(absolute) {
                built = true
                modules.formUnion(projects[project].targets[target].modules)
            }
        }
        if !covered || built { return (true, modules) }
        // A local package inside the project's folder builds its own files.
        var folder = (absolute as NSString).deletingLastPathComponent
        let top = projects.filter { $0.covers(absolute) }.map(\.sourceRoot).min { $0.count < $1.count } ?? "/"
        while folder.count > top.count {
            let isPackage = packages[folder] ?? FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("Package.swift"))
            packages[folder] = isPackage
            if isPackage { return (true, modules) }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder { break }
            folder = parent
        }
        return (false, modules)
    }
}
