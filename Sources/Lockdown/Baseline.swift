import CodemodKit
import Foundation

/// The allowlist: every use that existed when the lock-down started (or was last recorded).
///
/// The file is JSON with one use per line, sorted, with paths relative to the repository root
/// and no line numbers or dates, so it changes only when uses change and merges cleanly:
///
///     {
///       "version": 1,
///       "uses": [
///         {"file":"Sources/A.swift","migration":"webview","scope":"A.load()","text":"UIWebView"},
///       ]
///     }
public struct Baseline: Sendable, Equatable {
    /// One allowed use.
    public struct Entry: Hashable, Sendable, Codable, Comparable {
        public var file: String
        public var migration: String
        public var scope: String
        public var text: String

        public init(file: String, migration: String, scope: String, text: String) {
            self.file = file
            self.migration = migration
            self.scope = scope
            self.text = text
        }

        public init(_ finding: Finding) {
            self.init(file: finding.file, migration: finding.migration, scope: finding.scope, text: finding.text)
        }

        public var fingerprint: Fingerprint { Fingerprint(migration: migration, scope: scope, text: text) }

        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.file, lhs.migration, lhs.scope, lhs.text) < (rhs.file, rhs.migration, rhs.scope, rhs.text)
        }
    }

    /// Why a baseline could not be read. Never treated as an empty baseline.
    public enum LoadError: Error, CustomStringConvertible {
        case missing(path: String)
        case corrupt(path: String, detail: String)

        public var description: String {
            switch self {
            case let .missing(path):
                return "\(path): no baseline file; record today's uses with `swiftmod baseline` and commit it"
            case let .corrupt(path, detail):
                return "\(path): not a swiftmod baseline (\(detail)); restore it from version control or record it again with `swiftmod baseline`"
            }
        }
    }

    public static let version = 1

    /// The entries, sorted.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted()
    }

    public init(findings: [Finding]) {
        self.init(entries: findings.filter { $0.kind == .use }.map(Entry.init))
    }

    /// Reads a baseline file.
    /// - Throws: `LoadError.missing` or `LoadError.corrupt`.
    public static func load(_ path: String) throws -> Baseline {
        guard FileManager.default.fileExists(atPath: path) else { throw LoadError.missing(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError.corrupt(path: path, detail: "cannot be read")
        }
        struct File: Decodable {
            var version: Int
            var uses: [Entry]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw LoadError.corrupt(path: path, detail: "invalid JSON: \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, context) {
            throw LoadError.corrupt(path: path, detail: "missing '\(key.stringValue)' at \(Self.codingPath(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LoadError.corrupt(path: path, detail: "wrong type at \(Self.codingPath(context.codingPath))")
        } catch {
            throw LoadError.corrupt(path: path, detail: "\(error)")
        }
        guard file.version == version else {
            throw LoadError.corrupt(path: path, detail: "version \(file.version); this swiftmod reads version \(version)")
        }
        return Baseline(entries: file.uses)
    }

    static func codingPath(_ path: [CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    /// The file's text: one entry per line, keys sorted, no volatile fields.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = entries.map { "    " + String(decoding: (try? encoder.encode($0)) ?? Data(), as: UTF8.self) }
        if lines.isEmpty { return "{\n  \"version\": \(Self.version),\n  \"uses\": []\n}\n" }
        return "{\n  \"version\": \(Self.version),\n  \"uses\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Writes the file atomically (a new file, or replacing the old one).
    public func write(to path: String) throws {
        let bytes = Array(text.utf8)
        if FileManager.default.fileExists(atPath: path) {
            try AtomicWriter.replaceContents(of: path, with: bytes)
        } else {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// This baseline with the entries of some files replaced by new ones (for `baseline PATH`).
    public func replacing(files: Set<String>, with newEntries: [Entry]) -> Baseline {
        Baseline(entries: entries.filter { !files.contains($0.file) } + newEntries)
    }
}

/// The result of comparing today's uses with the baseline.
public struct Comparison: Sendable {
    /// Uses the baseline does not allow: what `check` fails on.
    public var newUses: [Finding] = []
    /// Baseline entries that no longer match any use: fixed, so the baseline can shrink.
    public var fixed: [Baseline.Entry] = []
    /// Uses the baseline allows.
    public var allowed: [Finding] = []

    /// Matches uses against the baseline.
    ///
    /// First within each file: a use matches an entry of the same file with the same fingerprint
    /// (migration, enclosing declarations, text); when a file has more uses of one fingerprint than
    /// the baseline, only the surplus (the last ones) is new. Then across files, for renamed and
    /// moved files: leftover uses match leftover entries of the same fingerprint anywhere.
    /// - Parameter scannedFiles: the files the scan covered; entries of other files are neither
    ///   matched nor reported as fixed (a partial check says nothing about them).
    public init(uses: [Finding], baseline: Baseline, scannedFiles: Set<String>? = nil) {
        let entries = baseline.entries.filter { scannedFiles?.contains($0.file) ?? true }
        // Pass 1: within files.
        var available: [String: [Fingerprint: Int]] = [:]
        for entry in entries { available[entry.file, default: [:]][entry.fingerprint, default: 0] += 1 }
        var leftover: [Finding] = []
        // Walk uses backwards per fingerprint so that the surplus is the last uses in the file.
        var byKey: [String: [Fingerprint: [Finding]]] = [:]
        for use in uses { byKey[use.file, default: [:]][use.fingerprint, default: []].append(use) }
        for (file, groups) in byKey {
            for (fingerprint, group) in groups {
                let allowance = available[file]?[fingerprint] ?? 0
                let matched = min(allowance, group.count)
                allowed += group.prefix(matched)
                leftover += group.dropFirst(matched)
                available[file]?[fingerprint] = allowance - matched
            }
        }
        // Pass 2: across files (renames and moves).
        var pool: [Fingerprint: [Baseline.Entry]] = [:]
        for entry in entries.reversed() where (available[entry.file]?[entry.fingerprint] ?? 0) > 0 {
            available[entry.file]![entry.fingerprint]! -= 1
            pool[entry.fingerprint, default: []].append(entry)
        }
        for use in leftover.sorted(by: Self.fileOrder) {
            if var candidates = pool[use.fingerprint], !candidates.isEmpty {
                candidates.removeLast()
                pool[use.fingerprint] = candidates
                allowed.append(use)
            } else {
                newUses.append(use)
            }
        }
        fixed = pool.values.flatMap { $0 }.sorted()
        newUses.sort(by: Self.fileOrder)
        allowed.sort(by: Self.fileOrder)
    }

    static func fileOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.migration) < (rhs.file, rhs.line, rhs.column, rhs.migration)
    }
}
