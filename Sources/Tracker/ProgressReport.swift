import CodemodKit
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

    /// Where a migration (or a team) stands. `noHistory`: no record besides today's counts;
    /// `noTrend`: records, but not on two days (within 90 days of the newest, since `started:`),
    /// so no rate to project from.
    public enum Status: String, Codable, Sendable {
        case done, onTrack = "on-track", behind, overdue, noDeadline = "no-deadline", noHistory = "no-history", noTrend = "no-trend"
    }

    /// Records missing from the start of a migration's history: the first record is more than a
    /// week after `started:`, or there is none though the migration started before the report's
    /// day. Most likely the history file was lost (a CI cache evicted) and started over.
    public struct MissingHistory: Codable, Sendable, Equatable {
        /// `started:` of the migration.
        public var started: String
        /// The day of the first record of the migration, nil when there is none.
        public var firstRecord: String?
        /// Days from `started:` to the first record (or, without one, to the report's day).
        public var days: Int
        /// What the report says: "history starts 2026-11-20, 3 weeks after started: 2026-10-30;
        /// records before that are missing".
        public var message: String
    }

    /// One team's part of a migration: what it has left, the day it is judged against (its own
    /// commitment, else the deadline), where it is heading, and its own history.
    public struct TeamProgress: Codable, Sendable, Equatable {
        public var owner: String
        public var remaining: Int
        public var fixable: Int
        /// The day the team committed to (`commitments:` in `.swiftmod.yml`).
        public var commitment: String?
        /// The day it is judged against: its commitment, else the migration's deadline.
        public var target: String?
        public var status: Status
        /// Why it is behind or overdue (nil otherwise).
        public var reason: String?
        public var projection: Projection?
        /// Its uses at each point of the migration's history.
        public var history: [Point]
    }

    /// What changed since an earlier point of the history (the previous record, or `--since`).
    public struct Change: Codable, Sendable, Equatable {
        /// The earlier point's day and commit.
        public var since: String
        public var commit: String?
        /// Uses then.
        public var uses: Int
        /// Uses now minus uses then (negative: fewer left).
        public var delta: Int
        /// Teams that had uses then and have none now.
        public var teamsDone: [String]
    }

    /// One remaining use, for the drill-down (`report --uses`).
    public struct Use: Codable, Sendable, Equatable {
        /// Repo-relative.
        public var file: String
        public var line: Int
        public var column: Int
        public var module: String
        public var owners: [String]
        /// The source line, trimmed.
        public var code: String
        /// The line in a code browser (`repository-url:` in `.swiftmod.yml`).
        public var url: String?
    }

    public struct MigrationProgress: Codable, Sendable {
        public var id: String
        public var codemod: String
        public var summary: String
        public var why: String
        public var replacement: String?
        public var priority: String
        public var deadline: String?
        public var started: String?
        public var docs: String?
        public var contact: String?
        public var total: Int
        public var fixable: Int
        public var modules: [Count]
        public var owners: [Count]
        public var history: [Point]
        public var projection: Projection?
        public var status: Status
        /// Every team with uses now, in the history, or with a commitment: most uses first.
        public var teams: [TeamProgress]
        /// The teams projected to miss their commitment or the deadline, or past it.
        public var teamsBehind: [TeamStatus]
        /// Teams behind that have not committed to a day.
        public var uncommitted: [String]
        /// The change since the previous record (or `--since`).
        public var change: Change?
        /// The remaining uses, when asked for (`--uses`), in file order.
        public var uses: [Use]?
        /// Records missing from the start of the history, if they are.
        public var missingHistory: MissingHistory?
    }

    /// The day the report describes, `YYYY-MM-DD`.
    public var date: String
    public var commit: String?
    /// The one team reported (`--team`), when the report is about one team.
    public var team: String?
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
    /// Report one team only: its uses, its history, judged against its commitment.
    public var team: String?
    /// Compare with the history's point on or before this day, instead of the previous record.
    public var since: String?
    /// The report is about some modules only (`--module`): their counts in the history are the
    /// series, not the whole repository's.
    public var modules: Set<String>?
    /// The report is about some paths only: the history (the whole repository's) says nothing
    /// of them, so only today's counts are shown.
    public var ignoresHistory = false
    /// List the remaining uses (the drill-down), with their source lines from this function
    /// (repo-relative file, 1-based line) and links made from `repositoryURL`.
    public var sourceLine: ((String, Int) -> String?)?
    public var repositoryURL: String?

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
            snapshot.modules[use.migration, default: [:]][module(of: use), default: 0] += 1
            for owner in ownersOf(use.file) { snapshot.owners[use.migration, default: [:]][owner, default: 0] += 1 }
        }
        return snapshot
    }

    /// The owners of a file, or `(unowned)`. A use with several owners counts for each.
    func ownersOf(_ file: String) -> [String] {
        let found = owners.owners(of: file)
        return found.isEmpty ? [Self.unowned] : found
    }

    func module(of use: Finding) -> String { use.module ?? moduleMap.module(of: use.file) }

    /// The teams known to the report: those with uses now, in the history, or with a commitment.
    public func teams(uses: [Finding], history: [Snapshot], migrations: [Migration]) -> Set<String> {
        var names = Set(uses.filter { $0.kind == .use }.flatMap { ownersOf($0.file) })
        for snapshot in history { for counts in snapshot.owners.values { for name in counts.keys { Self.insert(owners.spelling(of: name), into: &names) } } }
        for migration in migrations { for name in migration.settings.commitments.keys { Self.insert(owners.spelling(of: name), into: &names) } }
        return names
    }

    /// Adds a team to a set of names unless it holds the team already, in any case (a history
    /// recorded before CODEOWNERS changed a team's case holds the old spelling).
    static func insert(_ owner: String, into names: inout Set<String>) {
        if !names.contains(where: { CodeOwners.isSameOwner($0, owner) }) { names.insert(owner) }
    }

    /// The report for today's uses and the stored history.
    public func report(uses: [Finding], migrations: [Migration], history: [Snapshot], commit: String?) -> ProgressReport {
        let current = snapshot(uses: uses, migrations: migrations, commit: commit)
        // Today's counts end the series, unless the history already holds them (the same commit
        // recorded, or, outside git, the same day). A replayed history may hold the commit before
        // newer records: its recorded point stays where its date puts it.
        var series = ignoresHistory ? [] : history
        if let commit, let index = series.firstIndex(where: { $0.commit == commit }) {
            // Recorded already: the recorded point keeps its date, with the counts of the files
            // counted today (uncommitted changes, a CODEOWNERS not yet committed), so that the
            // history ends where "uses left" stands.
            var point = current
            point.date = series[index].date
            series[index] = point
        } else if let last = series.last, commit == nil, last.commit == nil, last.date == today {
            series[series.count - 1] = current
        } else {
            series.append(current)
        }
        series = series.filter { $0.date <= today }
        // Today's counts are in the series even when their commit was recorded on a later day.
        if !series.contains(where: { $0.commit == current.commit && ($0.commit != nil || $0.date == today) }) {
            series.append(current)
        }
        let recordedKeys = Set(history.map { $0.commit ?? $0.date })
        // A file's owners are matched once (CODEOWNERS' patterns), however many uses it holds.
        var ownersByFile: [String: [String]] = [:]
        for use in uses where ownersByFile[use.file] == nil { ownersByFile[use.file] = ownersOf(use.file) }
        let ownersOfFile = { (file: String) in ownersByFile[file] ?? self.ownersOf(file) }
        let mineOnly = uses.filter { use in
            use.kind == .use && (team.map { team in ownersOfFile(use.file).contains { CodeOwners.isSameOwner($0, team) } } ?? true)
        }
        // The records up to the report's day (none for a report of paths, which the history is not).
        let recorded = ignoresHistory ? [] : history.filter { $0.date <= today }
        let progress = migrations.map { migration -> ProgressReport.MigrationProgress in
            let mine = mineOnly.filter { $0.migration == migration.id }
            let settings = migration.settings
            let canFix = { (use: Finding) in migration.fixable && !use.inErrorRegion }
            func counts(_ key: (Finding) -> [String]) -> [ProgressReport.Count] {
                var totals: [String: (Int, Int)] = [:]
                for use in mine {
                    for name in key(use) {
                        totals[name, default: (0, 0)].0 += 1
                        totals[name, default: (0, 0)].1 += canFix(use) ? 1 : 0
                    }
                }
                return totals.map { ProgressReport.Count(name: $0.key, uses: $0.value.0, fixable: $0.value.1) }
                    .sorted { ($1.uses, $0.name) < ($0.uses, $1.name) }
            }
            /// A series of counts: the migration's (or the reported team's), or one team's.
            func points(_ count: (Snapshot) -> Int) -> [ProgressReport.Point] {
                series.map { snapshot in
                    ProgressReport.Point(date: snapshot.date, commit: snapshot.commit, uses: count(snapshot),
                                         recorded: recordedKeys.contains(snapshot.commit ?? snapshot.date))
                }
            }
            /// A team's uses in a record, under any spelling of its name.
            func teamCount(_ owner: String) -> (Snapshot) -> Int {
                { ($0.owners[migration.id] ?? [:]).filter { CodeOwners.isSameOwner($0.key, owner) }.values.clampedSum }
            }
            let moduleCount = modules.map { names in { (snapshot: Snapshot) in
                (snapshot.modules[migration.id] ?? [:]).filter { names.contains($0.key) }.values.clampedSum
            } }
            let seriesCount = team.map(teamCount) ?? moduleCount ?? { $0.totals[migration.id] ?? 0 }
            let history = points(seriesCount)
            /// Where a series is heading, and its status against a day: the trend counts from the
            /// day the migration started.
            func judged(_ points: [ProgressReport.Point], left: Int, against target: String?) -> (ProgressReport.Projection?, ProgressReport.Status) {
                let trend = points.filter { settings.started == nil || $0.date >= settings.started! }.map { ($0.date, $0.uses) }
                let projection = Self.projection(trend, today: today)
                return (projection, Self.status(total: left, projection: projection, deadline: target, today: today, hasHistory: points.count >= 2))
            }
            let (projection, status) = judged(history, left: mine.count,
                                              against: team.flatMap { settings.commitment(of: $0) } ?? settings.deadline)

            // Every team: judged against its commitment, else the deadline.
            let owners = counts { ownersOfFile($0.file) }
            let byOwner = Dictionary(uniqueKeysWithValues: owners.map { ($0.name, $0) })
            var names = Set(byOwner.keys)
            // Teams are counted in the whole repository's history: a report of some modules knows
            // only the teams with uses in them today.
            if modules == nil {
                // A commitment names a team as written in CODEOWNERS, in any case (as GitHub does).
                for name in settings.commitments.keys { Self.insert(self.owners.spelling(of: name), into: &names) }
                for snapshot in series {
                    for (name, uses) in snapshot.owners[migration.id] ?? [:] where uses > 0 { Self.insert(self.owners.spelling(of: name), into: &names) }
                }
            }
            if let team { names = [team] }
            let teams = names.map { owner -> ProgressReport.TeamProgress in
                let remaining = byOwner[owner]?.uses ?? 0
                let teamHistory = points(teamCount(owner))
                let commitment = settings.commitment(of: owner)
                let teamTarget = commitment ?? settings.deadline
                let (teamProjection, teamStatus) = judged(teamHistory, left: remaining, against: teamTarget)
                let promise = commitment.map { "its commitment \($0)" } ?? settings.deadline.map { "the deadline \($0)" } ?? ""
                var reason: String?
                switch teamStatus {
                case .overdue: reason = "\(promise) has passed"
                case .behind:
                    reason = teamProjection?.completionDate.map { "projected to finish \($0), after \(promise)" }
                        ?? (teamProjection.map { $0.burnPerWeek > 0 } == true ? "progress too slow to project a day" : "no progress recently")
                default: break
                }
                return ProgressReport.TeamProgress(owner: owner, remaining: remaining, fixable: byOwner[owner]?.fixable ?? 0,
                                                   commitment: commitment, target: teamTarget, status: teamStatus, reason: reason,
                                                   projection: teamProjection, history: teamHistory)
            }.sorted { ($1.remaining, $0.owner) < ($0.remaining, $1.owner) }
            let behind = teams.filter { $0.status == .behind || $0.status == .overdue }
            let teamsBehind = behind.map {
                ProgressReport.TeamStatus(owner: $0.owner, remaining: $0.remaining, completionDate: $0.projection?.completionDate, reason: $0.reason ?? "")
            }

            // What changed: since the record on or before `since`, as it was recorded (the current
            // commit's record too, whose point in the series holds today's counts), else since the
            // previous point. No record on or before that day: nothing to compare with.
            var change: ProgressReport.Change?
            var then: (date: String, commit: String?, uses: Int, teamUses: (String) -> Int)?
            if let since {
                if let snapshot = recorded.last(where: { $0.date <= since }) {
                    then = (snapshot.date, snapshot.commit, seriesCount(snapshot), { teamCount($0)(snapshot) })
                }
            } else if let index = history.indices.dropLast().last {
                then = (history[index].date, history[index].commit, history[index].uses,
                        { owner in teams.first { $0.owner == owner }?.history[index].uses ?? 0 })
            }
            if let then, let now = history.last {
                let done = teams.filter { $0.remaining == 0 && then.teamUses($0.owner) > 0 }.map(\.owner).sorted()
                change = ProgressReport.Change(since: then.date, commit: then.commit, uses: then.uses,
                                               delta: now.uses.clampedSubtracting(then.uses), teamsDone: done)
            }
            let missingHistory = ignoresHistory ? nil
                : Self.missingHistory(started: settings.started, firstRecord: recorded.first { $0.totals[migration.id] != nil }?.date, today: today)

            var listed: [ProgressReport.Use]?
            if let sourceLine {
                listed = mine.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }.map { use in
                    ProgressReport.Use(file: use.file, line: use.line, column: use.column, module: module(of: use), owners: ownersOfFile(use.file),
                                       code: sourceLine(use.file, use.line)?.trimmingCharacters(in: .whitespaces) ?? use.text,
                                       url: repositoryURL.map { Self.link($0, commit: commit, file: use.file, line: use.line) })
                }
            }
            return ProgressReport.MigrationProgress(
                id: migration.id, codemod: migration.codemodID, summary: migration.summary, why: migration.why,
                replacement: migration.replacement, priority: settings.priority.rawValue,
                deadline: settings.deadline, started: settings.started, docs: migration.docs, contact: settings.contact,
                total: mine.count, fixable: mine.filter(canFix).count, modules: counts { [module(of: $0)] },
                owners: owners, history: history, projection: projection, status: status,
                teams: teams, teamsBehind: teamsBehind, uncommitted: behind.filter { $0.commitment == nil && settings.deadline != nil && $0.owner != Self.unowned }.map(\.owner),
                change: change, uses: listed, missingHistory: missingHistory)
        }
        let ordered = progress.sorted {
            ($0.priority, $0.deadline ?? "9999", $0.id) < ($1.priority, $1.deadline ?? "9999", $1.id)
        }
        return ProgressReport(date: today, commit: commit, team: team, migrations: ordered)
    }

    /// How many days the first record may come after `started:` before records count as missing.
    static let missingHistoryTolerance = 7

    /// The records missing from the start of a migration's history, if they are (`MissingHistory`).
    static func missingHistory(started: String?, firstRecord: String?, today: String) -> ProgressReport.MissingHistory? {
        guard let started, let start = Deadline.date(started), let day = Deadline.date(today) else { return nil }
        func days(to date: Date) -> Int { Int((date.timeIntervalSince(start) / 86_400).rounded()) }
        if let firstRecord, let first = Deadline.date(firstRecord) {
            let gap = days(to: first)
            guard gap > missingHistoryTolerance else { return nil }
            return .init(started: started, firstRecord: firstRecord, days: gap,
                         message: "history starts \(firstRecord), \(span(gap)) after started: \(started); records before that are missing")
        }
        let gap = days(to: day)
        guard gap > 0 else { return nil }
        return .init(started: started, firstRecord: nil, days: gap,
                     message: "no history recorded, though started: \(started) is \(span(gap)) ago; records since then are missing")
    }

    /// "5 days", "3 weeks".
    static func span(_ days: Int) -> String { days < 14 ? plural(days, "day") : plural((days + 3) / 7, "week") }

    /// A use's address in a code browser: `{commit}` (HEAD outside git), `{path}` (each part
    /// percent-encoded) and `{line}` filled in.
    static func link(_ template: String, commit: String?, file: String, line: Int) -> String {
        let path = file.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))) ?? String($0)
        }.joined(separator: "/")
        return template.replacingOccurrences(of: "{commit}", with: commit ?? "HEAD")
            .replacingOccurrences(of: "{path}", with: path).replacingOccurrences(of: "{line}", with: "\(line)")
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
            // A rate too slow to end within the calendar's four digits projects no day (a day of
            // year 100000 would sort before 2027 as text).
            let days = (remaining / -slope).rounded(.up)
            let last = Deadline.date("9999-12-31")!
            if days.isFinite, days <= last.timeIntervalSince(from) / 86_400 {
                completion = DateText.string(from.addingTimeInterval(days * 86_400))
            }
        }
        let rounded = (burnPerWeek * 10).rounded() / 10
        return ProgressReport.Projection(burnPerWeek: rounded == 0 ? 0 : rounded, completionDate: completion)
    }

    /// The status of a series against a day. `hasHistory`: the series holds a record besides
    /// today's counts (without a projection, it is `noTrend`).
    static func status(total: Int, projection: ProgressReport.Projection?, deadline: String?, today: String,
                       hasHistory: Bool) -> ProgressReport.Status {
        if total == 0 { return .done }
        guard let deadline else { return .noDeadline }
        if today > deadline { return .overdue }
        guard hasHistory else { return .noHistory }
        guard let projection else { return .noTrend }
        guard let date = projection.completionDate else { return .behind }
        return date <= deadline ? .onTrack : .behind
    }
}

extension Int {
    /// The sum, held at `Int.max` (or `Int.min`) instead of overflowing: a report adds up counts
    /// of a history, which a hand edit can fill with anything.
    func clampedAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// The difference, held at `Int.max` or `Int.min` instead of overflowing.
    func clampedSubtracting(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}

extension Sequence<Int> {
    /// The sum of the counts, held at `Int.max` instead of overflowing (`Int.clampedAdding`).
    var clampedSum: Int { reduce(0) { $0.clampedAdding($1) } }
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
