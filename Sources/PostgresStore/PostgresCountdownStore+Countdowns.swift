import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    /// The `countdown` columns in `CountdownRecord`'s order.
    static let countdownColumns = """
        countdown.id, countdown.feedId, countdown.sourceId, countdown.uid, countdown.title, countdown.kind, countdown.status,
        countdown.startsOn, countdown.sequence, countdown.createdAt, countdown.lastModified, countdown.content
        """

    /// Reads the first twelve columns (a row may carry more after them).
    static func countdownRecord(_ row: PostgresRow) throws -> CountdownRecord {
        let (id, feedId, sourceId, uid, title, kind, status, startsOn, sequence, created, modified, content) =
            try row.decode((Int64, Int64, Int64?, String, String, String, String, String, Int, Date, Date, String).self)
        return CountdownRecord(id: id, feedId: feedId, sourceId: sourceId, uid: uid, title: title, kind: kind, status: status,
                               startsOn: startsOn, sequence: sequence, createdAt: created, lastModified: modified, content: content)
    }

    func countdownRecord(_ connection: PostgresConnection, id: Int64, lock: Bool = false) async throws -> CountdownRecord {
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.countdownColumns) FROM countdown WHERE id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger).rows()
        guard let row = rows.first else { throw StoreError.countdownNotFound(id) }
        return try Self.countdownRecord(row)
    }

    func insert(_ record: CountdownRecord, _ connection: PostgresConnection) async throws -> Int64 {
        let ids = try await connection.query("""
            INSERT INTO countdown (feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content)
            VALUES (\(record.feedId), \(record.sourceId), \(record.uid), \(record.title), \(record.kind), \(record.status), \(record.startsOn),
                    \(record.sequence), \(record.createdAt), \(record.lastModified), \(record.content))
            RETURNING id
            """, logger: logger).collect(Int64.self)
        guard let id = ids.first else { throw StoreError.invalid("the countdown \(record.uid) was not saved") }
        return id
    }

    func hasUID(_ connection: PostgresConnection, feedId: Int64, uid: String) async throws -> Bool {
        try await connection.query("SELECT count(*) FROM countdown WHERE feedId = \(feedId) AND uid = \(uid)", logger: logger)
            .collect(Int64.self).first ?? 0 > 0
    }

    /// Links a countdown to exactly these category names, creating categories as needed.
    func link(_ connection: PostgresConnection, countdownId: Int64, feedId: Int64, names: [String], replacing: Bool) async throws {
        if replacing {
            try await connection.query("DELETE FROM countdownCategory WHERE countdownId = \(countdownId)", logger: logger)
        }
        for name in Set(names).sorted() {
            try await connection.query("""
                WITH found AS (
                    INSERT INTO category (feedId, name) VALUES (\(feedId), \(name))
                    ON CONFLICT (feedId, name) DO UPDATE SET name = excluded.name RETURNING id
                )
                INSERT INTO countdownCategory (countdownId, categoryId) SELECT \(countdownId), id FROM found ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    func categoryNames(_ connection: PostgresConnection, countdownId: Int64) async throws -> [String] {
        try await connection.query("""
            SELECT category.name FROM countdownCategory JOIN category ON category.id = countdownCategory.categoryId
            WHERE countdownCategory.countdownId = \(countdownId) ORDER BY category.name COLLATE "C"
            """, logger: logger).collect(String.self)
    }

    // MARK: countdowns

    public func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String) {
        try await read { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.countdownColumns), source.location, feed.slug FROM countdown
                JOIN feed ON feed.id = countdown.feedId LEFT JOIN source ON source.id = countdown.sourceId
                WHERE countdown.id = \(id)
                """, logger: self.logger).rows()
            guard let row = rows.first else { throw StoreError.countdownNotFound(id) }
            let cells = row.makeRandomAccess()
            let (location, slug) = (try cells[12].decode(String?.self), try cells[13].decode(String.self))
            return (try Self.countdownRecord(row).countdown(source: location), slug)
        }
    }

    @discardableResult
    public func add(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await insertNew(CountdownStamps.added(countdown, now: now), toFeed: slug, now: now)
    }

    /// Inserts an already stamped countdown as a new row of the feed (add and
    /// restore); refused when the feed already has its UID.
    func insertNew(_ stamped: Countdown, toFeed slug: String, now: Date) async throws -> Countdown {
        try await transaction { connection in
            let feed = try await self.requireFeed(connection, slug, lock: true)
            guard try await !self.hasUID(connection, feedId: feed.id!, uid: stamped.uid) else {
                throw StoreError.duplicateUID(stamped.uid, feed: slug)
            }
            var saved = stamped
            let id = try await self.insert(CountdownRecord(saved, feedId: feed.id!, sourceId: nil, now: now), connection)
            try await self.link(connection, countdownId: id, feedId: feed.id!, names: saved.categories, replacing: false)
            try await self.touch(connection, feedId: feed.id!, now: now)
            saved.id = id
            return saved
        }
    }

    @discardableResult
    public func update(_ countdown: Countdown) async throws -> Countdown {
        guard let id = countdown.id else { throw StoreError.invalid("the countdown has no id; add it first") }
        let now = clock()
        return try await transaction { connection in
            let record = try await self.countdownRecord(connection, id: id, lock: true)
            let content = CountdownRecord.content(of: countdown)
            guard content != record.content else { return try record.countdown(source: countdown.source) }
            let edited = CountdownStamps.edited(countdown, row: record, now: now)
            let replacement = CountdownRecord(edited, feedId: record.feedId, sourceId: record.sourceId, now: now, content: content)
            try await connection.query("""
                UPDATE countdown SET uid = \(replacement.uid), title = \(replacement.title), kind = \(replacement.kind),
                    status = \(replacement.status), startsOn = \(replacement.startsOn), sequence = \(edited.sequence),
                    lastModified = \(edited.lastModified!), content = \(content)
                WHERE id = \(id)
                """, logger: self.logger)
            try await self.link(connection, countdownId: id, feedId: record.feedId, names: edited.categories, replacing: true)
            try await self.touch(connection, feedId: record.feedId, now: now)
            return edited
        }
    }

    public func delete(id: Int64) async throws {
        let now = clock()
        try await transaction { connection in
            let feedIds = try await connection.query("DELETE FROM countdown WHERE id = \(id) RETURNING feedId", logger: self.logger)
                .collect(Int64.self)
            guard let feedId = feedIds.first else { throw StoreError.countdownNotFound(id) }
            try await self.touch(connection, feedId: feedId, now: now)
        }
    }

    @discardableResult
    public func move(id: Int64, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await transaction { connection in
            var record = try await self.countdownRecord(connection, id: id, lock: true)
            let target = try await self.requireFeed(connection, slug, lock: true)
            guard target.id != record.feedId else { return try record.countdown(source: nil) }
            guard try await !self.hasUID(connection, feedId: target.id!, uid: record.uid) else {
                throw StoreError.duplicateUID(record.uid, feed: slug)
            }
            let names = try await self.categoryNames(connection, countdownId: id)
            let from = record.feedId
            record.feedId = target.id!
            record.sourceId = nil
            record.sequence += 1
            record.lastModified = max(now, record.lastModified)
            try await connection.query("""
                UPDATE countdown SET feedId = \(record.feedId), sourceId = NULL, sequence = \(record.sequence), lastModified = \(record.lastModified)
                WHERE id = \(id)
                """, logger: self.logger)
            try await self.link(connection, countdownId: id, feedId: target.id!, names: names, replacing: true)
            try await self.touch(connection, feedId: from, now: now)
            try await self.touch(connection, feedId: target.id!, now: now)
            return try record.countdown(source: nil)
        }
    }

    @discardableResult
    public func restore(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await insertNew(CountdownStamps.restored(countdown, now: now), toFeed: slug, now: now)
    }
}
