import CountdownStore
import GRDB

extension PersonRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "person"

    /// The columns that queries name.
    public enum Columns {
        public static let login = Column("login")
    }
}

extension SpaceRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "space"

    /// The columns that queries name.
    public enum Columns {
        public static let slug = Column("slug")
    }
}

extension MemberRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "member"

    /// The columns that queries name.
    public enum Columns {
        public static let spaceId = Column("spaceId"), personId = Column("personId")
    }
}

extension PersonTokenRecord: FetchableRecord, TableRecord {
    public static let databaseTableName = "personToken"

    /// The columns that queries name.
    public enum Columns {
        public static let id = Column("id"), personId = Column("personId"), tokenHash = Column("tokenHash")
    }
}

extension SpaceRole: DatabaseValueConvertible {}
