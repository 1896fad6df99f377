import CountdownStore
import GRDB

extension TokenRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "feedToken"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
