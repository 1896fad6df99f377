import CountdownStore
import GRDB

extension TokenRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "feedToken"

    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), feedId = Column("feedId")
    }
}
