import CountdownStore
import Foundation
import GRDB

extension CountdownRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "countdown"

    public enum Columns {
        public static let id = Column("id"), feedId = Column("feedId"), sourceId = Column("sourceId")
        public static let uid = Column("uid"), title = Column("title"), kind = Column("kind")
        public static let status = Column("status"), startsOn = Column("startsOn")
        public static let sequence = Column("sequence"), createdAt = Column("createdAt")
        public static let lastModified = Column("lastModified"), content = Column("content")
        public static let createdBy = Column("createdBy"), changedBy = Column("changedBy")
        public static let placeRank = Column("placeRank"), placeFrom = Column("placeFrom"), placeCheckAt = Column("placeCheckAt")
        public static let changedByPerson = Column("changedByPerson")
    }


    /// Inserts through one cached, prepared statement: an import writes
    /// thousands of rows in one transaction, and GRDB's generic record insert
    /// builds its column dictionary and statement key for each of them.
    package mutating func insertPrepared(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO countdown (feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content, createdBy, changedBy,
                placeRank, placeFrom, placeCheckAt, changedByPerson)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content, createdBy, changedBy,
                                     placeRank, placeFrom, placeCheckAt, changedByPerson])
        id = db.lastInsertedRowID
    }
}
