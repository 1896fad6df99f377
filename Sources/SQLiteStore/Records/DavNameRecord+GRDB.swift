import CountdownStore
import GRDB

extension DavNameRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "davName"
}

extension PersonTokenRecord.Purpose: DatabaseValueConvertible {}
