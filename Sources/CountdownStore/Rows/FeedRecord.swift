import Countdowns
import Foundation
import ICalendar

/// A `feed` row, the same in every store. Its Codable conformance is the
/// mapping to columns: SQLite reads and writes it through GRDB
/// (`FeedRecord+GRDB`), PostgreSQL through `RowCoding` and `StoreTable`.
public struct FeedRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var slug: String
    public var name: String
    public var description: String?
    public var timeZone: String
    public var color: String?
    public var isPublic: Bool
    public var countdownMode: Feed.CountdownMode
    public var includeAlarms: Bool
    public var refreshInterval: String
    public var createdAt: Date
    public var updatedAt: Date
    public var revision: Int64 = 0
    public var countdownMaxEvents: Int = 2_000
    /// JSON of `Celebrations`; nil for the default set.
    public var celebrations: String?
    /// `Feed.purgeURL`.
    public var purgeURL: String?
    /// `Feed.weekend`'s bits; nil for Saturday and Sunday.
    public var weekend: Int?
    /// `Feed.holidays`.
    public var holidays: String?
    /// `Feed.language`'s code.
    public var language: String?
    /// `Feed.sort`'s name; nil for the default (soonest first).
    public var sort: FeedSnapshot.Sort?

    /// The columns an update of the definition leaves alone: the identity, and
    /// the stamps only a change's own write moves (`bumpRevision`).
    public static let stampColumns: Set<String> = ["id", "slug", "createdAt", "updatedAt", "revision"]

    public init(_ feed: Feed, now: Date) {
        slug = feed.slug
        name = feed.name
        timeZone = feed.timeZone
        isPublic = feed.isPublic
        countdownMode = feed.countdownMode
        includeAlarms = feed.includeAlarms
        refreshInterval = feed.refreshInterval.description
        createdAt = now
        updatedAt = now
        apply(feed)
    }

    public mutating func apply(_ feed: Feed) {
        name = feed.name
        description = feed.description
        timeZone = feed.timeZone
        color = feed.color
        isPublic = feed.isPublic
        countdownMode = feed.countdownMode
        includeAlarms = feed.includeAlarms
        refreshInterval = feed.refreshInterval.description
        countdownMaxEvents = feed.countdownMaxEvents
        purgeURL = feed.purgeURL
        weekend = feed.weekend == .standard ? nil : feed.weekend.rawValue
        holidays = feed.holidays
        language = feed.language?.code
        sort = feed.sort == .remaining ? nil : feed.sort
        celebrations = feed.celebrations == .default ? nil : (try? JSONEncoder().encode(feed.celebrations)).map { String(decoding: $0, as: UTF8.self) }
    }

    public func feed(categoryColors: [String: String]) -> Feed {
        Feed(slug: slug, name: name, description: description, timeZone: timeZone, color: color, isPublic: isPublic,
             countdownMode: countdownMode, includeAlarms: includeAlarms,
             refreshInterval: ICalDuration(parsing: refreshInterval) ?? ICalDuration(seconds: 6 * 3600),
             categoryColors: categoryColors, countdownMaxEvents: countdownMaxEvents,
             celebrations: celebrations.flatMap { try? JSONDecoder().decode(Celebrations.self, from: Data($0.utf8)) } ?? .default,
             purgeURL: purgeURL, weekend: weekend.map(Weekend.init(rawValue:)) ?? .standard, holidays: holidays,
             language: language.flatMap(Language.named), sort: sort ?? .remaining)
    }
}

extension StoredFeed {
    /// A stored row as callers see it: every store builds it the same way.
    public init(_ record: FeedRecord, categoryColors: [String: String], countdownCount: Int) throws(StoreError) {
        self.init(id: try record.savedID(), feed: record.feed(categoryColors: categoryColors), countdownCount: countdownCount,
                  updatedAt: record.updatedAt, revision: record.revision)
    }
}
