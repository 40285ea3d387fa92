import Foundation
import Migrations

/// How much is left of every migration, where, whose, and when it will be done.
public struct ProgressReport: Codable, Sendable {
    /// Uses in one module or of one owner.
    public struct Count: Codable, Sendable, Equatable {
        public var name: String
        public var uses: Int
        public var fixable: Int
    }

    /// One point of the time series.
    public struct Point: Codable, Sendable, Equatable {
        public var date: String
        public var commit: String?
        public var uses: Int
        /// Whether the point is stored in the history (false for today's unrecorded counts).
        public var recorded: Bool
    }

    /// Where a migration (or a team) is heading.
    public struct Projection: Codable, Sendable, Equatable {
        /// Uses removed per week over the recent history (negative when uses grow).
        public var burnPerWeek: Double
        /// When the uses reach zero at that rate, if they are going down.
        public var completionDate: String?
    }

    /// A team whose uses will not be gone by the deadline.
    public struct TeamStatus: Codable, Sendable, Equatable {
        public var owner: String
        public var remaining: Int
        public var completionDate: String?
        public var reason: String
    }

    public enum Status: String, Codable, Sendable {
        case done, onTrack = "on-track", behind, overdue, noDeadline = "no-deadline", noHistory = "no-history"
    }

    public struct MigrationProgress: Codable, Sendable {
        public var id: String
        public var codemod: String
        public var summary: String
        public var why: String
        public var replacement: String?
        public var priority: String
        public var deadline: String?
        public var docs: String?
        public var contact: String?
        public var total: Int
        public var fixable: Int
        public var modules: [Count]
        public var owners: [Count]
        public var history: [Point]
        public var projection: Projection?
        public var status: Status
        public var teamsBehind: [TeamStatus]
    }

    /// The day the report describes, `YYYY-MM-DD`.
    public var date: String
    public var commit: String?
    /// Migrations, most urgent first (P0 first, then the nearest deadline).
    public var migrations: [MigrationProgress]
    /// The module graph with its rules' violations, when `.swiftmod.yml` has module types or rules.
    public var modules: ModuleOverview?
}

/// Builds progress reports from a scan, the repository's modules and owners, and the history.
public struct ProgressBuilder {
    public var moduleMap: ModuleMap
    public var owners: CodeOwners
    public var today: String

    public init(moduleMap: ModuleMap, owners: CodeOwners, today: String) {
        self.moduleMap = moduleMap
        self.owners = owners
        self.today = today
    }

    public static let unowned = "(unowned)"

    /// Today's counts of the uses, as a snapshot.
    public func snapshot(uses: [Finding], migrations: [Migration], commit: String?) -> Snapshot {
        var snapshot = Snapshot(date: today, commit: commit, totals: [:], modules: [:], owners: [:])
        for migration in migrations { snapshot.totals[migration.id] = 0 }
        for use in uses where use.kind == .use {
            snapshot.totals[use.migration, default: 0] += 1
            snapshot.modules[use.migration, default: [:]][use.module ?? moduleMap.module(of: use.file), default: 0] += 1
            for owner in ownersOf(use.file) { snapshot.owners[use.migration, default: [:]][owner, default: 0] += 1 }
        }
        return snapshot
    }

    /// The owners of a file, or `(unowned)`. A use with several owners counts for each.
    func ownersOf(_ file: String) -> [String] {
        let found = owners.owners(of: file)
        return found.isEmpty ? [Self.unowned] : found
    }

    /// The report for today's uses and the stored history.
    public func report(uses: [Finding], migrations: [Migration], history: [Snapshot], commit: String?) -> ProgressReport {
        let current = snapshot(uses: uses, migrations: migrations, commit: commit)
        // Today's counts end the series, unless the history already holds them (the same commit
        // recorded, or, outside git, the same day). A replayed history may hold the commit before
        // newer records: its recorded point stays where its date puts it.
        var series = history
        if let commit, series.contains(where: { $0.commit == commit }) {
            // Recorded already: keep the recorded point and its date.
        } else if let last = series.last, commit == nil, last.commit == nil, last.date == today {
            series[series.count - 1] = current
        } else {
            series.append(current)
        }
        let recordedKeys = Set(history.map { $0.commit ?? $0.date })
        let progress = migrations.map { migration -> ProgressReport.MigrationProgress in
            let mine = uses.filter { $0.kind == .use && $0.migration == migration.id }
            let fixable = migration.fixable ? mine.filter { !$0.inErrorRegion }.count : 0
            func counts(_ key: (Finding) -> [String]) -> [ProgressReport.Count] {
                var totals: [String: (Int, Int)] = [:]
                for use in mine {
                    for name in key(use) {
                        let canFix = migration.fixable && !use.inErrorRegion ? 1 : 0
                        totals[name, default: (0, 0)].0 += 1
                        totals[name, default: (0, 0)].1 += canFix
                    }
                }
                return totals.map { ProgressReport.Count(name: $0.key, uses: $0.value.0, fixable: $0.value.1) }
                    .sorted { ($1.uses, $0.name) < ($0.uses, $1.name) }
            }
            let points = series.filter { $0.date <= today }.map { snapshot in
                ProgressReport.Point(date: snapshot.date, commit: snapshot.commit, uses: snapshot.totals[migration.id] ?? 0,
                                     recorded: recordedKeys.contains(snapshot.commit ?? snapshot.date))
            }
            let projection = Self.projection(points.map { ($0.date, $0.uses) }, today: today)
            let status = Self.status(total: mine.count, projection: projection, deadline: migration.settings.deadline,
                                     today: today, hasHistory: points.count >= 2)
            var behind: [ProgressReport.TeamStatus] = []
            if let deadline = migration.settings.deadline {
                for owner in counts({ ownersOf($0.file) }) where owner.uses > 0 {
                    let ownerPoints = series.filter { $0.date <= today }.map { ($0.date, $0.owners[migration.id]?[owner.name] ?? 0) }
                    let ownerProjection = Self.projection(ownerPoints, today: today)
                    if today > deadline {
                        behind.append(.init(owner: owner.name, remaining: owner.uses, completionDate: ownerProjection?.completionDate,
                                            reason: "the deadline has passed"))
                    } else if let date = ownerProjection?.completionDate, date > deadline {
                        behind.append(.init(owner: owner.name, remaining: owner.uses, completionDate: date,
                                            reason: "projected to finish \(date), after the deadline"))
                    } else if ownerPoints.count >= 2, ownerProjection?.completionDate == nil {
                        behind.append(.init(owner: owner.name, remaining: owner.uses, completionDate: nil,
                                            reason: "no progress recently"))
                    }
                }
            }
            return ProgressReport.MigrationProgress(
                id: migration.id, codemod: migration.codemodID, summary: migration.summary, why: migration.why,
                replacement: migration.replacement, priority: migration.settings.priority.rawValue,
                deadline: migration.settings.deadline, docs: migration.docs, contact: migration.settings.contact,
                total: mine.count, fixable: fixable, modules: counts { [$0.module ?? moduleMap.module(of: $0.file)] },
                owners: counts { ownersOf($0.file) }, history: points, projection: projection, status: status,
                teamsBehind: behind)
        }
        let ordered = progress.sorted {
            ($0.priority, $0.deadline ?? "9999", $0.id) < ($1.priority, $1.deadline ?? "9999", $1.id)
        }
        return ProgressReport(date: today, commit: commit, migrations: ordered)
    }

    /// The burn rate over the recent history (the last 12 points within 90 days of the newest), by
    /// least squares, and the day the uses reach zero at that rate, counted from the report's day
    /// (never in its past); once at zero, the day they got there.
    static func projection(_ points: [(date: String, uses: Int)], today: String? = nil) -> ProgressReport.Projection? {
        let dated = points.compactMap { point in Deadline.date(point.date).map { ($0, Double(point.uses)) } }
        guard let newest = dated.last?.0 else { return nil }
        let recent = dated.filter { newest.timeIntervalSince($0.0) <= 90 * 86_400 }.suffix(12)
        guard recent.count >= 2, let first = recent.first?.0 else { return nil }
        let xs = recent.map { $0.0.timeIntervalSince(first) / 86_400 }
        let ys = recent.map(\.1)
        let meanX = xs.reduce(0, +) / Double(xs.count)
        let meanY = ys.reduce(0, +) / Double(ys.count)
        let denominator = xs.map { ($0 - meanX) * ($0 - meanX) }.reduce(0, +)
        guard denominator > 0 else { return nil }
        let slope = zip(xs, ys).map { ($0 - meanX) * ($1 - meanY) }.reduce(0, +) / denominator
        let burnPerWeek = -slope * 7
        let remaining = ys.last ?? 0
        var completion: String?
        if remaining == 0 {
            // The first day of the final run of zeros.
            let reached = points.reversed().prefix { $0.uses == 0 }.last?.date
            completion = reached ?? DateText.string(newest)
        } else if slope < 0 {
            let from = max(newest, today.flatMap(Deadline.date) ?? newest)
            completion = DateText.string(from.addingTimeInterval((remaining / -slope).rounded(.up) * 86_400))
        }
        let rounded = (burnPerWeek * 10).rounded() / 10
        return ProgressReport.Projection(burnPerWeek: rounded == 0 ? 0 : rounded, completionDate: completion)
    }

    static func status(total: Int, projection: ProgressReport.Projection?, deadline: String?, today: String,
                       hasHistory: Bool) -> ProgressReport.Status {
        if total == 0 { return .done }
        guard let deadline else { return .noDeadline }
        if today > deadline { return .overdue }
        guard hasHistory, let projection else { return .noHistory }
        guard let date = projection.completionDate else { return .behind }
        return date <= deadline ? .onTrack : .behind
    }
}

/// `YYYY-MM-DD` in UTC.
public enum DateText {
    public static func string(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    public static var today: String { string(Date()) }
}
