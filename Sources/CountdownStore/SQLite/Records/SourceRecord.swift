import Foundation
import GRDB

/// A `source` row: where a feed's countdowns were imported from, and how the
/// last fetch went (for conditional GET and /healthz).
struct SourceRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "source"
    var id: Int64?
    var feedId: Int64
    var location: String
    var etag: String?
    var lastModifiedHeader: String?
    var lastFetchedAt: Date?
    var lastSuccessAt: Date?
    var lastError: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static func findOrCreate(_ db: Database, feedId: Int64, location: String) throws -> SourceRecord {
        if let existing = try SourceRecord.filter(Column("feedId") == feedId && Column("location") == location).fetchOne(db) {
            return existing
        }
        var record = SourceRecord(feedId: feedId, location: location)
        try record.insert(db)
        return record
    }
}
