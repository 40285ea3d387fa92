import CodemodKit
import Foundation
import GRDB
import Migrations

/// The counts of one day (or commit), as `report --record` stores them.
public struct Snapshot: Sendable, Equatable, Codable {
    /// `YYYY-MM-DD`.
    public var date: String
    /// The commit the counts were taken at, when in git.
    public var commit: String?
    /// Uses per migration.
    public var totals: [String: Int]
    /// Uses per migration, per module.
    public var modules: [String: [String: Int]]
    /// Uses per migration, per owner.
    public var owners: [String: [String: Int]]

    public init(date: String, commit: String?, totals: [String: Int], modules: [String: [String: Int]], owners: [String: [String: Int]]) {
        self.date = date
        self.commit = commit
        self.totals = totals
        self.modules = modules
        self.owners = owners
    }
}

/// The time series of counts, in an SQLite database (`.swiftmod/history.sqlite` by default), so a
/// daily CI job builds the history that burndowns and projections come from.
///
/// A snapshot is keyed by its commit (or, outside git, by its date): recording the same commit
/// twice replaces the first record instead of adding a second.
public final class HistoryStore {
    let queue: DatabaseQueue
    let path: String
    /// A new file opened for reading: it holds no snapshots.
    private var isEmpty = false

    /// How a history is opened.
    public enum Access: Sendable {
        /// Only read: nothing is created, migrated or written (`report` without `--record`).
        case read
        /// Read and record: a new or empty file becomes a history.
        case write
    }

    /// `PRAGMA application_id` of a swiftmod history ("SWMD"), so that another program's SQLite
    /// database is recognised before anything is written to it.
    public static let applicationID: Int32 = 0x5357_4D44

    /// The tables of a swiftmod history (histories written before the application id have them and
    /// an application id of 0).
    static let tables: Set<String> = ["grdb_migrations", "snapshot", "count"]

    /// Opens a history database; with `.write`, creates it if needed.
    /// - Throws: `HistoryError` when the file is not a swiftmod history database (another
    ///   program's SQLite database is never modified, whatever the access).
    public init(path: String, access: Access = .write) throws {
        self.path = path
        do {
            if access == .write {
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            }
            var configuration = Configuration()
            configuration.readonly = access == .read
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw HistoryError(path: path, detail: "\(error)")
        }
        let identity: Identity
        do {
            identity = try queue.read(Self.identity)
        } catch {
            throw HistoryError(path: path, detail: "\(error)")
        }
        if case let .foreign(detail) = identity {
            throw HistoryError(path: path, detail: "\(detail); it was left as it is: pass another --history path")
        }
        isEmpty = identity == .empty
        guard access == .write else { return }
        isEmpty = false
        do {
            try Self.migrator.migrate(queue)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = \(Self.applicationID)") }
        } catch {
            throw HistoryError(path: path, detail: "\(error)")
        }
    }

    /// What a database is.
    enum Identity: Equatable {
        /// Marked as a swiftmod history, or holding exactly a history's tables.
        case history
        /// No tables and no application id: a new file.
        case empty
        /// Anything else, and why.
        case foreign(String)
    }

    static func identity(_ db: Database) throws -> Identity {
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        if application == applicationID { return .history }
        if application != 0 {
            return .foreign("another program's SQLite database (application id \(String(format: "0x%08X", application)))")
        }
        if tables.isEmpty { return .empty }
        if tables == Self.tables { return .history }
        let names = tables.sorted().prefix(5).joined(separator: ", ")
        return .foreign("an SQLite database that is not a swiftmod history (tables: \(names)\(tables.count > 5 ? ", …" : ""))")
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "snapshot") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("key", .text).notNull().unique()
                table.column("date", .text).notNull()
                table.column("commitHash", .text)
                table.column("recordedAt", .text).notNull()
            }
            try db.create(table: "count") { table in
                table.belongsTo("snapshot", onDelete: .cascade).notNull()
                table.column("migration", .text).notNull()
                table.column("dimension", .text).notNull()   // total, module, owner
                table.column("name", .text).notNull()
                table.column("uses", .integer).notNull()
            }
        }
        return migrator
    }

    /// Stores a snapshot, replacing an earlier one of the same commit (or date, outside git).
    /// - Returns: whether an earlier record was replaced.
    @discardableResult
    public func record(_ snapshot: Snapshot) throws -> Bool {
        do { return try write(snapshot) } catch { throw HistoryError(path: path, detail: "\(error)") }
    }

    private func write(_ snapshot: Snapshot) throws -> Bool {
        try queue.write { db in
            let key = snapshot.commit ?? "date:\(snapshot.date)"
            let existed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM snapshot WHERE key = ?", arguments: [key]) ?? 0 > 0
            try db.execute(sql: "DELETE FROM snapshot WHERE key = ?", arguments: [key])
            try db.execute(sql: "INSERT INTO snapshot (key, date, commitHash, recordedAt) VALUES (?, ?, ?, ?)",
                           arguments: [key, snapshot.date, snapshot.commit, ISO8601DateFormatter().string(from: Date())])
            let id = db.lastInsertedRowID
            func insert(_ dimension: String, _ migration: String, _ name: String, _ uses: Int) throws {
                try db.execute(sql: "INSERT INTO count (snapshotId, migration, dimension, name, uses) VALUES (?, ?, ?, ?, ?)",
                               arguments: [id, migration, dimension, name, uses])
            }
            for (migration, uses) in snapshot.totals { try insert("total", migration, "", uses) }
            for (migration, counts) in snapshot.modules { for (name, uses) in counts { try insert("module", migration, name, uses) } }
            for (migration, counts) in snapshot.owners { for (name, uses) in counts { try insert("owner", migration, name, uses) } }
            return existed
        }
    }

    /// Every snapshot, oldest first (by date, then by when it was recorded).
    public func snapshots() throws -> [Snapshot] {
        if isEmpty { return [] }
        do { return try readSnapshots() } catch { throw HistoryError(path: path, detail: "\(error)") }
    }

    private func readSnapshots() throws -> [Snapshot] {
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, date, commitHash FROM snapshot ORDER BY date, recordedAt, id")
            return try rows.map { row in
                let id: Int64 = try Self.column(row, "id", of: "snapshot")
                // Damage is named by its record: the id, then the day and commit when they read.
                var record = "record \(id)"
                do {
                    let date: String = try Self.column(row, "date", of: "snapshot")
                    let commit: String? = try Self.optionalColumn(row, "commitHash", of: "snapshot")
                    record += " (\(SafeText.oneLine(date))\(commit.map { " at \(SafeText.oneLine(String($0.prefix(10))))" } ?? ""))"
                    guard Deadline.date(date) != nil else {
                        throw HistoryError.Damage("the date '\(SafeText.oneLine(date))' is not a day of the calendar like 2026-11-22")
                    }
                    var snapshot = Snapshot(date: date, commit: commit, totals: [:], modules: [:], owners: [:])
                    for count in try Row.fetchAll(db, sql: "SELECT migration, dimension, name, uses FROM count WHERE snapshotId = ?", arguments: [id]) {
                        let migration: String = try Self.column(count, "migration", of: "count")
                        let name: String = try Self.column(count, "name", of: "count")
                        let uses: Int = try Self.column(count, "uses", of: "count")
                        let dimension: String = try Self.column(count, "dimension", of: "count")
                        let what = "\(SafeText.oneLine(migration))\(dimension == "total" ? "" : " in \(SafeText.oneLine(name))")"
                        guard uses >= 0 else { throw HistoryError.Damage("\(uses) uses of \(what) is negative") }
                        guard uses <= Self.maximumUses else {
                            throw HistoryError.Damage("\(uses) uses of \(what) is more than any codebase holds (at most \(Self.maximumUses))")
                        }
                        let twice = HistoryError.Damage("two counts of \(what)")
                        switch dimension {
                        case "total":
                            guard snapshot.totals[migration] == nil else { throw twice }
                            snapshot.totals[migration] = uses
                        case "module":
                            guard snapshot.modules[migration]?[name] == nil else { throw twice }
                            snapshot.modules[migration, default: [:]][name] = uses
                        case "owner":
                            guard snapshot.owners[migration]?[name] == nil else { throw twice }
                            snapshot.owners[migration, default: [:]][name] = uses
                        default: throw HistoryError.Damage("a count of \(SafeText.oneLine(migration)) by '\(SafeText.oneLine(dimension))', which is none of total, module and owner")
                        }
                    }
                    return snapshot
                } catch let damage as HistoryError.Damage {
                    throw HistoryError.Damage("\(record): \(damage); restore the history, or delete that record (sqlite3 \(Self.shellQuoted(path)) 'DELETE FROM snapshot WHERE id = \(id)')")
                }
            }
        }
    }

    /// The most uses a count of the history may hold, a billion: more than any codebase has. A
    /// larger count is damage (a hand edit, another program), and with every count below it no
    /// sum a report makes comes near `Int`'s limit.
    public static let maximumUses = 1_000_000_000

    /// A path as one word of a shell command.
    static func shellQuoted(_ path: String) -> String {
        "'" + SafeText.oneLine(path).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension HistoryStore {
    /// A column's value, or an error naming the table, column and what was found instead (a
    /// history written by hand or by another program may hold NULL or text where numbers belong).
    static func column<Value: DatabaseValueConvertible>(_ row: Row, _ name: String, of table: String) throws -> Value {
        guard let value: Value = try optionalColumn(row, name, of: table) else {
            throw HistoryError.Damage("\(table).\(name) is NULL")
        }
        return value
    }

    /// A column's value, nil for NULL, or an error when it holds something of another type.
    static func optionalColumn<Value: DatabaseValueConvertible>(_ row: Row, _ name: String, of table: String) throws -> Value? {
        let stored: DatabaseValue = row[name] ?? .null
        if stored.isNull { return nil }
        // SQLite converts freely ('12abc' to 12); only values stored with the right type count.
        let rightType: Bool
        switch (stored.storage, Value.self) {
        case (.int64, is Int.Type), (.int64, is Int64.Type), (.string, is String.Type): rightType = true
        default: rightType = false
        }
        guard rightType, let value = Value.fromDatabaseValue(stored) else {
            throw HistoryError.Damage("\(table).\(name) holds \(stored.description), not \(Value.self == String.self ? "text" : "a whole number")")
        }
        return value
    }
}

/// A history database that cannot be opened or read.
public struct HistoryError: Error, CustomStringConvertible {
    /// What is wrong inside a database that opened (a value of the wrong type, say).
    struct Damage: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    public var path: String
    public var detail: String
    public var description: String { "\(path): not a usable swiftmod history database (\(detail))" }
}
