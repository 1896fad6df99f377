import Foundation
import GRDB

extension FeedRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "feed"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Moves `updatedAt` forward, never back, so Last-Modified only rises; and
    /// bumps `revision`, which changes even when the clock does not move.
    static func touch(_ db: Database, feedId: Int64, now: Date) throws {
        try db.execute(sql: "UPDATE feed SET updatedAt = MAX(updatedAt, ?), revision = revision + 1 WHERE id = ?", arguments: [now, feedId])
    }
}
