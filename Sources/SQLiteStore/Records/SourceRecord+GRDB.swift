import CountdownStore
import GRDB

extension SourceRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "source"

    /// The columns that queries name.
    public enum Columns {
        public static let feedId = Column("feedId"), location = Column("location")
    }


    /// Read by hand, not through Decodable: a server's start reads every
    /// source (its refresh schedule), and GRDB's Decodable path cost a tenth
    /// of a start of 10,000 feeds.
    public init(row: Row) throws {
        self.init(id: row["id"], feedId: row["feedId"], location: row["location"])
        etag = row["etag"]
        lastModifiedHeader = row["lastModifiedHeader"]
        lastFetchedAt = row["lastFetchedAt"]
        lastSuccessAt = row["lastSuccessAt"]
        lastError = row["lastError"]
        subscribed = row["subscribed"]
        login = row["login"]
        rules = row["rules"]
        importedWith = row["importedWith"]
        leaseUntil = row["leaseUntil"]
    }
}
