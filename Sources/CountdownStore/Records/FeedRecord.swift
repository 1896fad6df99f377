import Countdowns
import Foundation
import GRDB
import ICalendar

/// A `feed` row.
struct FeedRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "feed"
    var id: Int64?
    var slug: String
    var name: String
    var description: String?
    var timeZone: String
    var color: String?
    var isPublic: Bool
    var countdownMode: String
    var includeAlarms: Bool
    var refreshInterval: String
    var createdAt: Date
    var updatedAt: Date
    var revision: Int64 = 0
    var countdownMaxEvents: Int = 2_000
    /// JSON of `Celebrations`; nil for the default set.
    var celebrations: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    init(_ feed: Feed, now: Date) {
        slug = feed.slug
        name = feed.name
        timeZone = feed.timeZone
        isPublic = feed.isPublic
        countdownMode = Self.encode(feed.countdownMode)
        includeAlarms = feed.includeAlarms
        refreshInterval = feed.refreshInterval.description
        createdAt = now
        updatedAt = now
        apply(feed)
    }

    mutating func apply(_ feed: Feed) {
        name = feed.name
        description = feed.description
        timeZone = feed.timeZone
        color = feed.color
        isPublic = feed.isPublic
        countdownMode = Self.encode(feed.countdownMode)
        includeAlarms = feed.includeAlarms
        refreshInterval = feed.refreshInterval.description
        countdownMaxEvents = feed.countdownMaxEvents
        celebrations = feed.celebrations == .default ? nil : (try? JSONEncoder().encode(feed.celebrations)).map { String(decoding: $0, as: UTF8.self) }
    }

    func feed(categoryColors: [String: String]) -> Feed {
        Feed(slug: slug, name: name, description: description, timeZone: timeZone, color: color, isPublic: isPublic,
             countdownMode: Self.decode(countdownMode), includeAlarms: includeAlarms,
             refreshInterval: ICalDuration(parsing: refreshInterval) ?? ICalDuration(seconds: 6 * 3600),
             categoryColors: categoryColors, countdownMaxEvents: countdownMaxEvents,
             celebrations: celebrations.flatMap { try? JSONDecoder().decode(Celebrations.self, from: Data($0.utf8)) } ?? .default)
    }

    /// `daily:60` or `milestones:100,50,30`.
    static func encode(_ mode: Feed.CountdownMode) -> String {
        switch mode {
        case .daily(let days): "daily:\(days)"
        case .milestones(let days): "milestones:" + days.map(String.init).joined(separator: ",")
        }
    }

    static func decode(_ text: String) -> Feed.CountdownMode {
        let parts = text.split(separator: ":", maxSplits: 1)
        if parts.first == "milestones" {
            let days = parts.count > 1 ? parts[1].split(separator: ",").compactMap { Int($0) } : []
            return .milestones(days.isEmpty ? Feed.CountdownMode.defaultMilestones : days)
        }
        return .daily(days: parts.count > 1 ? Int(parts[1]) ?? 60 : 60)
    }

    /// Moves `updatedAt` forward, never back, so Last-Modified only rises; and
    /// bumps `revision`, which changes even when the clock does not move.
    static func touch(_ db: Database, feedId: Int64, now: Date) throws {
        try db.execute(sql: "UPDATE feed SET updatedAt = MAX(updatedAt, ?), revision = revision + 1 WHERE id = ?", arguments: [now, feedId])
    }
}
