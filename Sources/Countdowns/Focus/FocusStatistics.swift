import Foundation
import ICalendar

/// What a person's focused time adds up to (issue #42): minutes per tag over
/// a day, week, month or year, split into the same bars as the statistics
/// page (`CategoryStatistics.Span`), each tag's share, streaks of days with
/// focus, and a level with experience points. Pure: the entries, the zone
/// days are counted in and today come from the caller.
public struct FocusStatistics: Sendable, Equatable, Encodable {
    public struct Tag: Sendable, Equatable, Encodable {
        public var name: String
        public var color: String?
        public var minutes: Int
        /// The same, to the second: a session of a few seconds is listed, though it rounds to 0 minutes.
        public var seconds: Int
        /// Minutes in each bar of the span.
        public var perBucket: [Int]
        /// Of the span's focused minutes, from 0 to 1.
        public var share: Double
    }

    /// Experience and the level it reaches: a point per focused minute and
    /// `pointsPerTask` per task done by its date. Level L starts at
    /// 30·L·(L−1) points: 1 hour for level 2, 3 for level 3, 10 for level 5.
    public struct Level: Sendable, Equatable, Encodable {
        public var level: Int
        public var points: Int
        public var levelStartsAt: Int
        public var nextLevelAt: Int
        /// How far from this level to the next, from 0 to 1 (the bar).
        public var progress: Double

        public static let pointsPerTask = 10

        public init(points: Int) {
            self.points = max(0, points)
            // 30L(L−1) ≤ points: L = ⌊(1 + √(1 + 4·points/30)) / 2⌋, in Double so no sum can trap.
            let level = max(1, Int(((1 + (1 + 4 * Double(self.points) / 30).squareRoot()) / 2).rounded(.down)))
            self.level = level
            levelStartsAt = Self.start(of: level)
            nextLevelAt = Self.start(of: level + 1)
            progress = nextLevelAt > levelStartsAt ? min(1, Double(self.points - levelStartsAt) / Double(nextLevelAt - levelStartsAt)) : 0
        }

        static func start(of level: Int) -> Int { Int(min(Double(Int.max / 2), 30 * Double(level) * Double(level - 1))) }
    }

    public var period: String
    public var start: String
    public var end: String
    public var buckets: [String]
    public var tags: [Tag]
    public var totalMinutes: Int
    /// Days in a row with focus, up to today (or yesterday, while today has none yet).
    public var streak: Int
    public var longestStreak: Int
    public var level: Level

    public init(entries: [FocusEntry], span: CategoryStatistics.Span, zone: Zone, today: CivilDate, tasksOnTime: Int = 0,
                colors: [String: String] = [:]) {
        period = span.period.rawValue
        start = span.start.iso
        end = span.end.iso
        buckets = span.buckets.map(\.label)
        var byTag: [String: Tag] = [:]
        var days = Set<CivilDate>()
        var allSeconds = 0
        var bucketSeconds: [String: [Int]] = [:]
        for entry in entries {
            let day = zone.local(of: entry.start).date
            guard entry.seconds > 0 else { continue }
            days.insert(day)
            allSeconds += entry.seconds
            guard day >= span.start, day < span.end else { continue }
            var tag = byTag[entry.tag] ?? Tag(name: entry.tag, color: colors[entry.tag], minutes: 0, seconds: 0,
                                              perBucket: Array(repeating: 0, count: span.buckets.count), share: 0)
            tag.seconds += entry.seconds
            if let index = span.buckets.firstIndex(where: { day >= $0.start && day < $0.end }) { bucketSeconds[entry.tag, default: Array(repeating: 0, count: span.buckets.count)][index] += entry.seconds }
            byTag[entry.tag] = tag
        }
        let totalSeconds = byTag.values.reduce(0) { $0 + $1.seconds }
        totalMinutes = (totalSeconds + 30) / 60
        tags = byTag.values.map { tag in
            var tag = tag
            tag.minutes = (tag.seconds + 30) / 60
            tag.perBucket = (bucketSeconds[tag.name] ?? tag.perBucket).map { ($0 + 30) / 60 }
            tag.share = totalSeconds > 0 ? Double(tag.seconds) / Double(totalSeconds) : 0
            return tag
        }.sorted { ($0.minutes, $1.name) > ($1.minutes, $0.name) }
        (streak, longestStreak) = Self.streaks(days, today: today)
        level = Level(points: allSeconds / 60 + Level.pointsPerTask * max(0, tasksOnTime))
    }

    /// The current run of days with focus, and the longest run there was.
    static func streaks(_ days: Set<CivilDate>, today: CivilDate) -> (current: Int, longest: Int) {
        var current = 0
        var cursor = days.contains(today) ? today : today.adding(days: -1)
        while days.contains(cursor) {
            current += 1
            cursor = cursor.adding(days: -1)
        }
        var longest = 0
        for day in days where !days.contains(day.adding(days: -1)) {
            var length = 1
            var next = day.adding(days: 1)
            while days.contains(next) {
                length += 1
                next = next.adding(days: 1)
            }
            longest = max(longest, length)
        }
        return (current, longest)
    }
}
