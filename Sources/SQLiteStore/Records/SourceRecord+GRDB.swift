import CountdownStore
import GRDB

extension SourceRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "source"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
