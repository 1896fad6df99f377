import CountdownStore
import GRDB

extension FeedRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "feed"

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), slug = Column("slug"), revision = Column("revision")
    }
}
