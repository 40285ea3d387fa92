import CodemodKit
import Foundation
import Workspace

/// Remembers each file's findings, so an unchanged file is neither read nor parsed again
/// (`.swiftmod/cache/scan.cache` at the repository root).
///
/// A file counts as unchanged when its metadata is what git's index compares (see `FileStamp`);
/// an entry written within a second of the file's last change is "racy" and its content hash
/// decides instead. The cache is valid for one configuration (migrations, their codemods and
/// parameters, this swiftmod): any change starts a new one. It is a compact binary file with a
/// checksum (see `CacheFile`): one that is unreadable, truncated, from another version or altered is
/// ignored and rebuilt, never trusted.
public struct ScanCache: Sendable {
    /// What is remembered of one file.
    public struct Entry: Sendable {
        /// The file's metadata when it was scanned: when all of it is the same, so is the content.
        public var stamp: FileStamp
        /// The file was modified within a second of the cache being written, so a later change in
        /// that second may have kept its stamp ("racily clean", as git calls it): its content hash
        /// decides instead.
        public var racy = false
        /// `ContentHash` of the file's bytes.
        public var hash: UInt64
        public var findings: [Finding]
        public var allowed: Int

        public init(stamp: FileStamp, racy: Bool = false, hash: UInt64, findings: [Finding], allowed: Int) {
            self.stamp = stamp
            self.racy = racy
            self.hash = hash
            self.findings = findings
            self.allowed = allowed
        }
    }

    static let format = "swiftmod-scan-cache-17"

    /// Entries by repo-relative path; setting them marks the cache changed.
    public var entries: [String: Entry] = [:] {
        didSet { isChanged = true }
    }
    /// Whether the entries differ from what is on disk (a scan that found every file as it was
    /// clears it: nothing to write).
    public var isChanged = true
    /// What the cache is valid for.
    public let key: String
    /// The key of the content hashes of its entries (`ContentHash.of(_:seed:)`), drawn at random
    /// when the cache is made: a file that merely shares an entry's hash under a key known ahead
    /// (a pair made to collide) is not taken for it.
    public private(set) var seed: (UInt64, UInt64)

    public init(key: String) {
        self.key = key
        seed = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    /// The default location under a repository root.
    public static func defaultPath(root: String) -> String {
        (root as NSString).appendingPathComponent(".swiftmod/cache/scan.cache")
    }

    /// Raised whenever how a file is read changes (what the same bytes yield), so that a cache
    /// written by an earlier build is not trusted: 2 reads a lone carriage return as a line's end
    /// and counts the text of literals the parser misread; 3 applies the files:/ignores: of ast-grep rules.
    static let readingRevision = 7

    /// The key of a set of migrations: changes whenever what a scan would find could change.
    public static func key(for migrations: [Migration], knownIDs: Set<String>, version: String) -> String {
        var text = "swiftmod \(version) reading \(readingRevision)\nids \(knownIDs.sorted().joined(separator: ","))\n"
        for migration in migrations.sorted(by: { $0.id < $1.id }) {
            guard let codemod = migration.codemod else { continue }
            let definition = codemod.definition
            text += "\(migration.id)|\(definition.id)|\(codemod.params.sorted { $0.key < $1.key })|\(definition.query)|\(definition.ruleText)"
            // Spelled so that it is the same in every process (a dictionary's order is not).
            let constraints = definition.constraints.map { constraint in
                [constraint.capture, constraint.inside.joined(separator: ","), constraint.notInside.joined(separator: ","),
                 constraint.matches ?? "", constraint.notMatches ?? "",
                 constraint.atMost.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
                 constraint.note?.source ?? ""].joined(separator: "\u{1}")
            }
            let rewrite = definition.rewrite.map { step -> String in
                switch step {
                case let .replace(capture, template): return "replace \(capture) \(template.source)"
                case let .action(name): return "action \(name)"
                }
            }
            text += "|\(definition.useCapture ?? "")|\(definition.requires ?? "")|\(constraints)|\(rewrite)\n"
        }
        return ContentHash.hex(Array(text.utf8))
    }

    /// Reads a cache; anything wrong with it gives an empty cache.
    public static func load(_ path: String, key: String) -> ScanCache {
        var cache = ScanCache(key: key)
        guard let payload = CacheFile.read(path, format: format, key: key) else { return cache }
        var reader = ByteReader(payload)
        do {
            let seed = (try reader.readUInt64(), try reader.readUInt64())
            let count = try reader.readInt()
            var entries: [String: Entry] = [:]
            entries.reserveCapacity(max(0, min(count, 1 << 20)))
            for _ in 0..<max(0, count) {
                let file = try reader.readString()
                let stamp = try FileStamp(from: &reader)
                let racy = try reader.readBool()
                let hash = try reader.readUInt64()
                let allowed = try reader.readInt()
                let findingCount = try reader.readInt()
                var findings: [Finding] = []
                for _ in 0..<max(0, findingCount) {
                    findings.append(try Finding(from: &reader, file: file))
                }
                entries[file] = Entry(stamp: stamp, racy: racy, hash: hash, findings: findings, allowed: allowed)
            }
            guard reader.isAtEnd else { return cache }
            cache.seed = seed
            cache.entries = entries
            cache.isChanged = false
        } catch {
            return cache
        }
        return cache
    }

    /// Writes the cache atomically (a failure to write only costs speed next time), while the
    /// command goes on (`CacheFile.writeInBackground`). Entries of files modified in the second
    /// before the write (or later) are marked racy.
    public func save(_ path: String, now: Double = Date().timeIntervalSince1970) {
        CacheFile.writeInBackground(path, format: Self.format, key: key) { [self] in payload(now: now) }
    }

    private func payload(now: Double) -> [UInt8] {
        var writer = ByteWriter()
        let racyFrom = now.rounded(.down) - 1
        writer.write(seed.0)
        writer.write(seed.1)
        writer.write(entries.count)
        for file in entries.keys.sorted() {
            let entry = entries[file]!
            writer.write(file)
            entry.stamp.write(to: &writer)
            writer.write(entry.racy || entry.stamp.modified >= racyFrom || entry.stamp.changed >= racyFrom)
            writer.write(entry.hash)
            writer.write(entry.allowed)
            writer.write(entry.findings.count)
            for finding in entry.findings { finding.write(to: &writer) }
        }
        return writer.bytes
    }
}

extension Finding {
    /// Writes the finding, without its file (the cache entry's key).
    func write(to writer: inout ByteWriter) {
        writer.write(kind.rawValue)
        writer.write(migration)
        writer.write(codemod)
        for number in [line, column, endLine, endColumn] { writer.write(number) }
        writer.write(text)
        writer.write(scope)
        writer.write(inErrorRegion)
        for column in [characterColumn, endCharacterColumn, utf16Column, endUTF16Column] { writer.write(column) }
        writer.writeOptional(detail)
        writer.writeOptional(module)
    }

    /// Reads a finding written by `write(to:)`.
    init(from reader: inout ByteReader, file: String) throws {
        guard let kind = Kind(rawValue: try reader.readString()) else { throw ByteReader.Truncated() }
        let migration = try reader.readString(), codemod = try reader.readString()
        let line = try reader.readInt(), column = try reader.readInt(), endLine = try reader.readInt(), endColumn = try reader.readInt()
        let text = try reader.readString(), scope = try reader.readString(), inErrorRegion = try reader.readBool()
        self.init(kind: kind, migration: migration, codemod: codemod, file: file, line: line, column: column,
                  endLine: endLine, endColumn: endColumn, text: text, scope: scope, inErrorRegion: inErrorRegion)
        characterColumn = try reader.readOptionalInt()
        endCharacterColumn = try reader.readOptionalInt()
        utf16Column = try reader.readOptionalInt()
        endUTF16Column = try reader.readOptionalInt()
        detail = try reader.readOptionalString()
        module = try reader.readOptionalString()
    }
}
