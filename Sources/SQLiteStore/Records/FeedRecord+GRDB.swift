import CountdownStore
import Foundation
import GRDB

extension FeedRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "feed"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Moves `updatedAt` forward, never back, so Last-Modified only rises; and
    /// bumps `revision`, which changes even when the clock does not move.
    package static func touch(_ db: Database, feedId: Int64, now: Date) throws {
        try db.execute(sql: "UPDATE feed SET updatedAt = MAX(updatedAt, ?), revision = revision + 1 WHERE id = ?", arguments: [now, feedId])
    }
}

extension FeedRecord {
    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), slug = Column("slug"), revision = Column("revision")
    }
}

extension StoredFeed {
    /// A feed row as callers see it, with its category colours and countdown count.
    package static func read(_ record: FeedRecord, _ db: Database) throws -> StoredFeed {
        let id = try record.savedID()
        let count = try CountdownRecord.filter(CountdownRecord.Columns.feedId == id).fetchCount(db)
        return try StoredFeed(record, categoryColors: try CategoryRecord.colors(db, feedId: id), countdownCount: count)
    }
}
