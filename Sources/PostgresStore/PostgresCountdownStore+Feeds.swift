import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    /// The `feed` table as both stores define it: its column list builds every
    /// statement here, and `RowCoding` maps a row to a `FeedRecord` and back.
    static let feedTable = StoreTable.all.first { $0.name == "feed" }!

    /// The columns a SELECT names, qualified (other tables may join).
    static let feedColumns = feedTable.columns.map { "feed.\($0.name)" }.joined(separator: ", ")

    static func feedRecord(_ row: PostgresRow) throws -> FeedRecord {
        let cells = row.makeRandomAccess()
        return try RowCoding.record(FeedRecord.self, from: feedTable.columns.enumerated().map { index, column in
            try Self.value(cells[index], column.kind)
        }, in: feedTable)
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
        let id = try record.savedID()
        let count = try await connection.query("SELECT count(*) FROM countdown WHERE feedId = \(id)", logger: logger).collect(Int64.self).first ?? 0
        return try StoredFeed(record, categoryColors: try await categoryColors(connection, feedId: id), countdownCount: Int(count))
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

    /// Inserts every column but the id, which the database gives.
    func insert(_ record: FeedRecord, _ connection: PostgresConnection) async throws -> FeedRecord {
        var record = record
        let table = Self.feedTable
        let cells = try RowCoding.cells(of: record, in: table)
        var bindings = PostgresBindings()
        var names: [String] = []
        for (column, cell) in zip(table.columns, cells) where column.name != "id" {
            names.append(column.name)
            try Self.bind(cell, column.kind, to: &bindings)
        }
        let marks = (1...names.count).map { "$\($0)" }.joined(separator: ", ")
        record.id = try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO feed (\(names.joined(separator: ", "))) VALUES (\(marks)) RETURNING id",
                                                             binds: bindings), logger: logger).collect(Int64.self).first
        return record
    }

    /// Writes the definition: every column but the identity and the stamps
    /// (`FeedRecord.stampColumns`), which only their own writes move.
    func update(_ record: FeedRecord, _ connection: PostgresConnection) async throws {
        let table = Self.feedTable
        let cells = try RowCoding.cells(of: record, in: table)
        var bindings = PostgresBindings()
        var assignments: [String] = []
        for (column, cell) in zip(table.columns, cells) where !FeedRecord.stampColumns.contains(column.name) {
            try Self.bind(cell, column.kind, to: &bindings)
            assignments.append("\(column.name) = $\(assignments.count + 1)")
        }
        bindings.append(try record.savedID())
        try await connection.query(PostgresQuery(unsafeSQL: "UPDATE feed SET \(assignments.joined(separator: ", ")) WHERE id = $\(assignments.count + 1)",
                                                 binds: bindings), logger: logger)
    }
}
