import CountdownStore
import GRDB

extension DavNameRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "davName"

    /// The columns that queries name.
    public enum Columns {
        public static let feedId = Column("feedId"), uid = Column("uid"), name = Column("name")
    }
}

extension PersonTokenRecord.Purpose: DatabaseValueConvertible {}
