import CountdownStore
import GRDB

extension ImageRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "image"

    /// The columns that queries name.
    public enum Columns {
        public static let sha256 = Column("sha256")
    }
}
