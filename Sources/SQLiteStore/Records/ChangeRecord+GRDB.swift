import CountdownStore
import GRDB

extension ChangeRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "countdownChange"

    public enum Columns {
        static let id = Column("id")
        static let feedId = Column("feedId")
    }
}

extension ChangeKind: DatabaseValueConvertible {}
