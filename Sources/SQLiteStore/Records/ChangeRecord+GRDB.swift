import CountdownStore
import GRDB

extension ChangeRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "countdownChange"

    public enum Columns {
        static let id = Column("id")
        static let feedId = Column("feedId")
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ChangeKind: DatabaseValueConvertible {}
