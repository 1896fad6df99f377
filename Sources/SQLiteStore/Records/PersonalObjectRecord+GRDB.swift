import CountdownStore
import GRDB

extension PersonalObjectRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "personalObject"

    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), personId = Column("personId"), feedId = Column("feedId"), uid = Column("uid"), body = Column("body"),
                          savedAt = Column("savedAt")
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
