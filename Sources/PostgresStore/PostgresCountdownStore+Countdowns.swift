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
            try row.decode((Int64, Int64, Int64?, String, String, Countdown.Kind, CountdownStatus, String, Int, Date, Date, String).self)
        return CountdownRecord(id: id, feedId: feedId, sourceId: sourceId, uid: uid, title: title, kind: kind, status: status,
                               startsOn: startsOn, sequence: sequence, createdAt: created, lastModified: modified, content: content)
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
}
