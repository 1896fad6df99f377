import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    /// The `feed` columns in `FeedRecord`'s order.
    static let feedColumns = """
        feed.id, feed.slug, feed.name, feed.description, feed.timeZone, feed.color, feed.isPublic, feed.countdownMode, feed.includeAlarms,
        feed.refreshInterval, feed.createdAt, feed.updatedAt, feed.revision, feed.countdownMaxEvents, feed.celebrations, feed.purgeURL,
        feed.weekend, feed.holidays, feed.language
        """

    static func feedRecord(_ row: PostgresRow) throws -> FeedRecord {
        let (id, slug, name, description, timeZone, color, isPublic, mode, alarms, refresh, created, updated, revision, maxEvents, celebrations,
             purge, weekend, holidays, language) = try row.decode((Int64, String, String, String?, String, String?, Bool, String, Bool, String,
                                                                   Date, Date, Int64, Int, String?, String?, Int?, String?, String?).self)
        return FeedRecord(id: id, slug: slug, name: name, description: description, timeZone: timeZone, color: color, isPublic: isPublic,
                          countdownMode: mode, includeAlarms: alarms, refreshInterval: refresh, createdAt: created, updatedAt: updated,
                          revision: revision, countdownMaxEvents: maxEvents, celebrations: celebrations, purgeURL: purge,
                          weekend: weekend, holidays: holidays, language: language)
    }

    func feedRecord(_ connection: PostgresConnection, slug: String, lock: Bool = false) async throws -> FeedRecord? {
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.feedColumns) FROM feed WHERE slug = \(slug) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger).rows()
        return try rows.first.map(Self.feedRecord)
    }

    func requireFeed(_ connection: PostgresConnection, _ slug: String, lock: Bool = false) async throws -> FeedRecord {
        guard let feed = try await feedRecord(connection, slug: slug, lock: lock) else { throw StoreError.feedNotFound(slug) }
        return feed
    }

    func stored(_ record: FeedRecord, _ connection: PostgresConnection) async throws -> StoredFeed {
        let count = try await connection.query("SELECT count(*) FROM countdown WHERE feedId = \(record.id!)", logger: logger)
            .collect(Int64.self).first ?? 0
        return StoredFeed(id: record.id!, feed: record.feed(categoryColors: try await categoryColors(connection, feedId: record.id!)),
                          countdownCount: Int(count), updatedAt: record.updatedAt, revision: record.revision)
    }

    func categoryColors(_ connection: PostgresConnection, feedId: Int64) async throws -> [String: String] {
        var colors: [String: String] = [:]
        for try await (name, color) in try await connection.query(
            "SELECT name, color FROM category WHERE feedId = \(feedId) AND color IS NOT NULL", logger: logger).decode((String, String).self) {
            colors[name] = color
        }
        return colors
    }

    func saveCategoryColors(_ connection: PostgresConnection, feedId: Int64, colors: [String: String]) async throws {
        for (name, color) in colors.sorted(by: { $0.key < $1.key }) {
            try await connection.query("""
                INSERT INTO category (feedId, name, color) VALUES (\(feedId), \(name), \(color))
                ON CONFLICT (feedId, name) DO UPDATE SET color = excluded.color
                """, logger: logger)
        }
    }

    /// Moves `updatedAt` forward (never back) and raises `revision`, and tells
    /// every replica which revision the feed is at. NOTIFY is transactional: it
    /// goes out when this transaction commits, and never if it rolls back.
    func touch(_ connection: PostgresConnection, feedId: Int64, now: Date) async throws {
        try await connection.query("""
            WITH touched AS (
                UPDATE feed SET updatedAt = GREATEST(updatedAt, \(now)), revision = revision + 1 WHERE id = \(feedId) RETURNING slug, revision
            )
            SELECT pg_notify(\(FeedChange.channel), slug || ':' || revision) FROM touched
            """, logger: logger)
    }

    /// Tells the replicas about a feed whose row is gone (deleted) or new.
    func notify(_ connection: PostgresConnection, slug: String, revision: Int64) async throws {
        try await connection.query("SELECT pg_notify(\(FeedChange.channel), \(slug + ":\(revision)"))", logger: logger)
    }

    // MARK: feeds

    public func feeds() async throws -> [StoredFeed] {
        try await read { connection in
            var feeds: [StoredFeed] = []
            for row in try await connection.query("SELECT \(unescaped: Self.feedColumns) FROM feed ORDER BY slug COLLATE \"C\"",
                                                  logger: self.logger).rows() {
                feeds.append(try await self.stored(Self.feedRecord(row), connection))
            }
            return feeds
        }
    }

    public func feed(slug: String) async throws -> StoredFeed? {
        try await read { connection in
            guard let record = try await self.feedRecord(connection, slug: slug) else { return nil }
            return try await self.stored(record, connection)
        }
    }

    func insert(_ record: FeedRecord, _ connection: PostgresConnection) async throws -> FeedRecord {
        var record = record
        let ids = try await connection.query("""
            INSERT INTO feed (slug, name, description, timeZone, color, isPublic, countdownMode, includeAlarms, refreshInterval,
                              createdAt, updatedAt, revision, countdownMaxEvents, celebrations, purgeURL, weekend, holidays,
                              language)
            VALUES (\(record.slug), \(record.name), \(record.description), \(record.timeZone), \(record.color), \(record.isPublic),
                    \(record.countdownMode), \(record.includeAlarms), \(record.refreshInterval), \(record.createdAt), \(record.updatedAt),
                    \(record.revision), \(record.countdownMaxEvents), \(record.celebrations), \(record.purgeURL),
                    \(record.weekend), \(record.holidays), \(record.language))
            RETURNING id
            """, logger: logger).collect(Int64.self)
        record.id = ids.first
        return record
    }

    func update(_ record: FeedRecord, _ connection: PostgresConnection) async throws {
        try await connection.query("""
            UPDATE feed SET name = \(record.name), description = \(record.description), timeZone = \(record.timeZone), color = \(record.color),
                isPublic = \(record.isPublic), countdownMode = \(record.countdownMode), includeAlarms = \(record.includeAlarms),
                refreshInterval = \(record.refreshInterval), countdownMaxEvents = \(record.countdownMaxEvents),
                celebrations = \(record.celebrations), purgeURL = \(record.purgeURL),
                weekend = \(record.weekend), holidays = \(record.holidays), language = \(record.language)
            WHERE id = \(record.id!)
            """, logger: logger)
    }
}
