import CountdownStore
import Foundation
import GRDB

extension FeedRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "feed"


    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), slug = Column("slug"), revision = Column("revision"), settings = Column("settings")
        public static let createdAt = Column("createdAt"), updatedAt = Column("updatedAt"), personId = Column("personId"), spaceId = Column("spaceId")
    }

    /// Read by hand, not through Decodable: a server's start reads every
    /// feed's row, and GRDB's Decodable path cost a fifth of a start of
    /// 10,000 feeds (the settings document is decoded later, once).
    public init(row: Row) throws {
        self.init(id: row[Columns.id], slug: row[Columns.slug], settings: row[Columns.settings], createdAt: row[Columns.createdAt],
                  updatedAt: row[Columns.updatedAt], revision: row[Columns.revision], personId: row[Columns.personId], spaceId: row[Columns.spaceId])
    }
}
