import CountdownStore
import GRDB

extension DavObjectRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "davObject"

    /// The columns that queries name.
    public enum Columns {
        public static let feedId = Column("feedId"), uid = Column("uid"), basis = Column("basis"), etag = Column("etag"), title = Column("title"),
                          savedAt = Column("savedAt"), body = Column("body")
    }

    /// A listing's columns: everything but the text.
    static let withoutBody: [Column] = [Columns.feedId, Columns.uid, Columns.basis, Columns.etag, Columns.title, Columns.savedAt]
}
