import Countdowns
import Foundation
import GRDB
import ICalendar

/// A `countdown` row. `content` is the countdown as iCalendar with volatile
/// fields (sequence, stamps, source) cleared; the columns are authoritative for those.
struct CountdownRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "countdown"
    var id: Int64?
    var feedId: Int64
    var sourceId: Int64?
    var uid: String
    var title: String
    var kind: String
    var status: String
    var startsOn: String
    var sequence: Int
    var createdAt: Date
    var lastModified: Date
    var content: String

    enum Columns {
        static let id = Column(CodingKeys.id), feedId = Column(CodingKeys.feedId), sourceId = Column(CodingKeys.sourceId)
        static let uid = Column(CodingKeys.uid), title = Column(CodingKeys.title), kind = Column(CodingKeys.kind)
        static let status = Column(CodingKeys.status), startsOn = Column(CodingKeys.startsOn)
        static let sequence = Column(CodingKeys.sequence), createdAt = Column(CodingKeys.createdAt)
        static let lastModified = Column(CodingKeys.lastModified), content = Column(CodingKeys.content)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Written by hand, not through Encodable: an import writes every row of a
    /// calendar, and the Codable path cost more than SQLite's own insert.
    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.feedId] = feedId
        container[Columns.sourceId] = sourceId
        container[Columns.uid] = uid
        container[Columns.title] = title
        container[Columns.kind] = kind
        container[Columns.status] = status
        container[Columns.startsOn] = startsOn
        container[Columns.sequence] = sequence
        container[Columns.createdAt] = createdAt
        container[Columns.lastModified] = lastModified
        container[Columns.content] = content
    }

    /// Inserts through one cached, prepared statement: an import writes
    /// thousands of rows in one transaction, and GRDB's generic record insert
    /// builds its column dictionary and statement key for each of them.
    mutating func insertPrepared(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO countdown (feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content])
        id = db.lastInsertedRowID
    }

    /// `content`, when the caller already has it, saves serializing the countdown again.
    init(_ countdown: Countdown, feedId: Int64, sourceId: Int64?, now: Date, content: String? = nil) {
        self.feedId = feedId
        self.sourceId = sourceId
        uid = countdown.uid
        title = countdown.title
        kind = countdown.kind.rawValue
        status = countdown.status.rawValue
        startsOn = countdown.target.civilDate.iso
        sequence = countdown.sequence
        createdAt = countdown.created ?? now
        lastModified = countdown.lastModified ?? now
        self.content = content ?? Self.content(of: countdown)
    }

    /// The canonical text two versions of a countdown are compared by.
    static func content(of countdown: Countdown) -> String { CountdownArchive.text(of: countdown) }

    func countdown(source: String?) throws -> Countdown {
        guard var countdown = try CountdownArchive.countdown(from: content, source: source) else {
            throw StoreError.invalid("countdown \(id ?? 0) has unreadable content")
        }
        countdown.id = id
        countdown.sequence = sequence
        countdown.created = createdAt
        countdown.lastModified = lastModified
        countdown.source = source
        return countdown
    }
}
