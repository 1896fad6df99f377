import CountdownStore
import GRDB

extension PersonRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "person"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SpaceRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "space"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension MemberRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "member"
}

extension PersonTokenRecord: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "personToken"
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SpaceRole: DatabaseValueConvertible {}
