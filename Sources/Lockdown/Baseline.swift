import CodemodKit
import Foundation
import SwiftTree
import Workspace
import Migrations

/// The allowlist: every use that existed when the lock-down started (or was last recorded).
///
/// The file is JSON Lines: a header line, then one use per line, sorted, with paths relative to
/// the repository root and no line numbers or dates, so it changes only when uses change. With no
/// commas between lines, git's `union` merge driver (`.swiftmod-baseline.jsonl merge=union` in
/// `.gitattributes`) merges two branches' baselines without conflicts:
///
///     {"swiftmod-baseline":1}
///     {"file":"Sources/A.swift","migration":"webview","scope":"A.load()","text":"UIWebView"}
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
        case corrupt(path: String, line: Int?, detail: String)

        public var description: String {
            switch self {
            case let .missing(path):
                return "\(path): no baseline file; record today's uses with `swiftmod baseline` and commit it"
            case let .corrupt(path, line, detail):
                return "\(path)\(line.map { ":\($0)" } ?? ""): not a swiftmod baseline (\(detail)); restore it from version control"
                    + " (recording it again would also allow every new use since)"
            }
        }
    }

    public static let version = 1
    static let header = "{\"swiftmod-baseline\":\(version)}"

    /// The entries, sorted.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted()
    }

    public init(findings: [Finding]) {
        self.init(entries: findings.filter { $0.kind == .use }.map(Entry.init))
    }

    /// Reads a baseline file.
    /// - Throws: `LoadError.missing` or `LoadError.corrupt` (with the line at fault).
    public static func load(_ path: String) throws -> Baseline {
        guard FileManager.default.fileExists(atPath: path) else { throw LoadError.missing(path: path) }
        // A regular file of a sensible size: never a FIFO to hang on, nor a device to read forever.
        let data: [UInt8]
        do {
            data = try SourceFileReader(maxFileSize: 256 << 20).bytes(ofFile: path)
        } catch let error as SourceFileError {
            throw LoadError.corrupt(path: path, line: nil, detail: "it \(error.reasonForDataFile)")
        }
        return try parse(data, path: path)
    }

    /// Reads a baseline's bytes (`path` names them in errors: a file, or `REF:file` of git).
    /// - Throws: `LoadError.corrupt` (with the line at fault).
    public static func parse(_ data: [UInt8], path: String) throws -> Baseline {
        guard String(validating: data, as: UTF8.self) != nil else {
            throw LoadError.corrupt(path: path, line: nil, detail: "cannot be read as UTF-8")
        }
        // As git may leave it on another platform: a byte order mark, CRLF line endings.
        // (Split on bytes: CRLF is one Character in Swift.)
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0].removeFirst() }
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first?.trimmingCharacters(in: .whitespaces) else {
            throw LoadError.corrupt(path: path, line: 1, detail: "the file is empty")
        }
        guard first.replacingOccurrences(of: " ", with: "") == header else {
            throw LoadError.corrupt(path: path, line: 1, detail: headerProblem(first))
        }
        let decoder = JSONDecoder()
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        for (index, raw) in lines.enumerated().dropFirst() {
            // The lines swiftmod writes are read without a JSON decoder (ten times faster);
            // anything else is read by one.
            if let entry = EntryLine.read(raw) {
                entries.append(entry)
                continue
            }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("<<<<<<<") || line.hasPrefix("=======") || line.hasPrefix(">>>>>>>") {
                throw LoadError.corrupt(path: path, line: index + 1, detail: "a merge conflict marker; keep both sides' lines, or set `merge=union` for this file in .gitattributes")
            }
            do {
                entries.append(try decoder.decode(Entry.self, from: Data(line.utf8)))
            } catch {
                throw LoadError.corrupt(path: path, line: index + 1, detail: "not a use entry: \(line.prefix(80))")
            }
        }
        return Baseline(entries: entries)
    }

    /// What is wrong with a first line that is not the header: only a header that names another
    /// version is called one.
    static func headerProblem(_ line: String) -> String {
        struct Header: Decodable { var version: Int
            enum CodingKeys: String, CodingKey { case version = "swiftmod-baseline" }
        }
        if let other = try? JSONDecoder().decode(Header.self, from: Data(line.utf8)), other.version != version {
            return "a baseline of version \(other.version); this swiftmod reads version \(version)"
        }
        let shown = SafeText.oneLine(String(line.prefix(60)))
        return "the first line must be \(header), not \(shown)"
    }

    /// The file's text: the header, then one entry per line, keys sorted.
    public var text: String {
        let lines = entries.map { (try? JSONText.line($0)) ?? "" }
        return ([Self.header] + lines).joined(separator: "\n") + "\n"
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

extension Baseline {
    /// Why a baseline could not be updated.
    public enum UpdateError: Error, CustomStringConvertible {
        /// The existing baseline cannot be read (missing when one is required, or corrupt): a usage
        /// error, and nothing is written.
        case unreadable(LoadError)
        /// The lock could not be taken or the file written.
        case notWritten(path: String, reason: String)

        public var description: String {
            switch self {
            case let .unreadable(error): return "\(error)"
            case let .notWritten(path, reason): return "\(path): the baseline was not written: \(reason)"
            }
        }
    }

    /// Reads, changes and writes the baseline at `path` under its lock (`FILE.lock` beside it), so a
    /// concurrent update waits its turn instead of writing a baseline without this one's entries.
    /// An existing baseline must be readable: a corrupt one is never replaced by part of one.
    /// Interrupted, it leaves no temporary file; one of a killed run is removed.
    /// - Parameters:
    ///   - requireExisting: a missing baseline is an error (pruning needs one).
    ///   - change: given the baseline on disk (nil when there is none), returns the one to write.
    /// - Returns: the baseline that was on disk.
    @discardableResult
    public static func update(at path: String, requireExisting: Bool, _ change: (Baseline?) throws -> Baseline) throws -> Baseline? {
        let folder = (path as NSString).deletingLastPathComponent
        let lock: FileLock
        do {
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            lock = try FileLock(for: path)
        } catch {
            throw UpdateError.notWritten(path: path, reason: "\(error)")
        }
        defer { lock.unlock() }
        TemporaryFiles.removeOnInterrupt()
        _ = TemporaryFiles.removeStale(in: [folder.isEmpty ? "." : folder])
        let existing: Baseline?
        do {
            existing = try load(path)
        } catch LoadError.missing where !requireExisting {
            existing = nil
        } catch let error as LoadError {
            throw UpdateError.unreadable(error)
        }
        let updated = try change(existing)
        do {
            try updated.write(to: path)
        } catch {
            throw UpdateError.notWritten(path: path, reason: "\(error)")
        }
        return existing
    }
}

/// Reads a baseline line exactly as swiftmod writes it (`{"file":…,"migration":…,"scope":…,
/// "text":…}`, keys sorted, no blanks) without a JSON decoder; nil for any other line, which the
/// decoder then reads (or rejects).
enum EntryLine {
    static let keys = ["file", "migration", "scope", "text"]

    static func read(_ line: String) -> Baseline.Entry? {
        var line = line
        return line.withUTF8 { bytes -> Baseline.Entry? in
            var index = 0
            func expect(_ byte: UInt8) -> Bool {
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            guard expect(UInt8(ascii: "{")) else { return nil }
            var values: [String] = []
            for (number, key) in keys.enumerated() {
                if number > 0, !expect(UInt8(ascii: ",")) { return nil }
                guard let name = string(bytes, &index), name == key, expect(UInt8(ascii: ":")),
                      let value = string(bytes, &index) else { return nil }
                values.append(value)
            }
            guard expect(UInt8(ascii: "}")), index == bytes.count else { return nil }
            return Baseline.Entry(file: values[0], migration: values[1], scope: values[2], text: values[3])
        }
    }

    /// A JSON string at `index` (moved past it), with its escapes; nil when there is none or it is
    /// malformed.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        // The common case: no escapes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            if bytes[index] < 0x20 { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).unicodeScalars)
        var pendingHigh: UInt32?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard pendingHigh == nil else { return nil }
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                index += 2
                if escaped == UInt8(ascii: "u") {
                    // Exactly four hexadecimal digits (no sign, no blank).
                    guard index + 4 <= bytes.count else { return nil }
                    var code: UInt32 = 0
                    for digit in bytes[index..<(index + 4)] {
                        switch digit {
                        case UInt8(ascii: "0")...UInt8(ascii: "9"): code = code << 4 | UInt32(digit - UInt8(ascii: "0"))
                        case UInt8(ascii: "a")...UInt8(ascii: "f"): code = code << 4 | UInt32(digit - UInt8(ascii: "a") + 10)
                        case UInt8(ascii: "A")...UInt8(ascii: "F"): code = code << 4 | UInt32(digit - UInt8(ascii: "A") + 10)
                        default: return nil
                        }
                    }
                    index += 4
                    if let high = pendingHigh {
                        guard (0xDC00...0xDFFF).contains(code),
                              let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) else { return nil }
                        scalars.append(scalar)
                        pendingHigh = nil
                    } else if (0xD800...0xDBFF).contains(code) {
                        pendingHigh = code
                    } else {
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        scalars.append(scalar)
                    }
                    continue
                }
                guard pendingHigh == nil else { return nil }
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                default: return nil
                }
                continue
            }
            guard pendingHigh == nil, byte >= 0x20 else { return nil }
            // Copy up to the next quote or backslash.
            let runStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                index += 1
            }
            scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self).unicodeScalars)
        }
        return nil
    }
}
