import CountdownStore
import Foundation
import GRDB

extension SourceRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "source"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    package static func findOrCreate(_ db: Database, feedId: Int64, location: String) throws -> SourceRecord {
        if let existing = try SourceRecord.filter(Column("feedId") == feedId && Column("location") == location).fetchOne(db) {
            return existing
        }
        var record = SourceRecord(feedId: feedId, location: location)
        try record.insert(db)
        return record
    }
}
