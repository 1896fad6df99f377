import Countdowns
import Foundation

/// The row-level writes one store transaction offers, beside its reads. Every
/// use case (`CountdownService` in the Services target) is written once over
/// these, and each store implements them once: SQLite through GRDB,
/// PostgreSQL through PostgresNIO, memory over plain values. Nothing above
/// this protocol knows which store it has.
///
/// Primitives take and return rows, never decisions: a row is written as
/// given (stamps, revisions, leases and validators are the service's). A
/// transaction is used by one task, in order; it holds the store's writer
/// (SQLite's one writer connection, PostgreSQL's row locks) until it ends, so
/// slow work (fetching a calendar, parsing it) happens before it begins.
public protocol StoreTransaction: StoreReader {
    /// The store clock's reading when the transaction began: every stamp a
    /// use case writes in one transaction is the same instant.
    var now: Date { get }

    /// Inserts the row (no id yet: it gets one) or writes every column of the
    /// row with its id but its `writtenOnce` ones; returns it with its id. A
    /// feed's row saved: on PostgreSQL every replica hears of its revision
    /// when the transaction commits.
    func save<Row: TableRow>(_ row: Row) async throws -> Row
    /// Deletes the rows with these ids and, by cascade, what hangs on them
    /// (a feed's countdowns, sources and tokens; a person's memberships and
    /// tokens, their own feeds losing their owner: the service deletes or
    /// hands them over first).
    func delete<Row: TableRow>(_ type: Row.Type, ids: [Int64]) async throws

    /// Inserts rows without an id and writes rows with one (every column but
    /// `createdAt` and `createdBy`, which never change once written); returns their ids, in order. Batched: an import writes
    /// thousands of rows, and one call per row would cost a round trip each.
    func saveCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64]
    /// Sets category colours (creating the categories), leaving the others as
    /// they are; and links each countdown to exactly its category names,
    /// creating categories as needed (`replacing` first removes old links,
    /// not needed for new rows).
    func saveCategories(feedId: Int64, colors: [String: String], links: [CategoryLinks], replacing: Bool) async throws


    /// Keeps a value by key, or removes it (`nil`). A setting keeps no expiry.
    func setValue(_ value: PersistedValue?, for key: StoreKey) async throws
    /// Deletes every entry that expired at or before `now`; returns how many went.
    func deleteExpiredEntries() async throws -> Int

    // MARK: people and spaces (issue #37)

    /// Writes `label` wherever the countdowns' history (`createdBy`,
    /// `changedBy`, the change log's `actor`) names `actor`: a deleted person's login, whose name stays
    /// as a former member, and which a new person may take.
    func relabelHistory(actor: String, as label: String) async throws
    /// Keeps the object name a calendar app chose for a UID of a feed (replacing any).
    func saveDavName(_ row: DavNameRecord) async throws
    /// Keeps an object's text as a calendar app wrote it (replacing the one kept for its UID).
    func saveDavObject(_ row: DavObjectRecord) async throws
    /// Forgets the kept text of these UIDs of a feed (their objects are written from their countdowns again, or are gone).
    func deleteDavObjects(feedId: Int64, uids: [String]) async throws
    /// Keeps a person's own part of an object (replacing theirs for its UID), under a new id; returns it saved.
    func savePersonalObject(_ row: PersonalObjectRecord) async throws -> PersonalObjectRecord
    /// Forgets every person's own part of these UIDs of a feed (person nil), or one person's.
    func deletePersonalObjects(feedId: Int64, uids: [String], personId: Int64?) async throws
    /// Gives a person a role in a space (a new member, or a new role), or
    /// removes them (`nil`).
    func setMember(spaceId: Int64, personId: Int64, to row: MemberRecord?) async throws
}
