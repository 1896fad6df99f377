import Countdowns
import Foundation
import NIOCore

/// Where countdowns live. Two implementations: `SQLiteCountdownStore`, one file
/// on one machine (the default, nothing to run beside it), and
/// `PostgresCountdownStore`, shared by several replicas; and
/// `InMemoryCountdownStore` for tests and dry runs. The service layer, the
/// server, the CLI and the web app see only this protocol, and one contract
/// suite runs every requirement against all three.
///
/// The store is narrow on purpose: rows in, rows out. Reads go through `read`
/// and writes through `transaction`, both over the row-level primitives of
/// `StoreReader` and `StoreTransaction`; every decision (stamps, revisions,
/// leases, which validators a new rule forgets) is the service's. What is
/// left here is what only a store can do: kept renders, copying a whole
/// store, its health, and telling of other processes' changes.
///
/// Every method is async: PostgreSQL answers over the network, and SQLite's
/// work runs on GRDB's own queues, so neither ever blocks a thread of Swift's
/// cooperative pool.
public protocol CountdownStore: AnyObject, Sendable {
    /// Where the store is, for logs and health: a file path, or a `postgres://`
    /// URL without its password.
    var location: String { get }

    /// Runs reads. Each primitive sees every transaction committed before it
    /// began; a caller that needs rows to agree with a revision reads the feed
    /// row first (what it then reads is never older than that revision).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T

    /// Runs a use case's writes in one transaction: it commits when `body`
    /// returns, and rolls back, changing nothing, when `body` throws.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T

    // MARK: exported calendars kept (a cache of renders, not data)

    /// The exported calendar kept for `slug`'s `view`, whatever its revision
    /// (the caller checks it), with the bytes resolved; nil when none is kept.
    /// The bytes come only when at most `bodyUpTo` long; a longer one comes
    /// as a summary, validators and length (one too large to hold, sent with
    /// `keptExportChunk`).
    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport?
    /// Up to `length` bytes of the body kept for `slug`'s `view` from `offset`,
    /// or nil when what is kept is no longer of `revision` and `variant` (a
    /// change replaced it while it was being sent).
    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer?
    /// Keeps `export` for `slug`'s `view`, replacing the row of another
    /// revision or variant. Does nothing unless the feed is at `export`'s
    /// revision (a slow writer never replaces newer bytes).
    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws
    /// The same for a body written in parts (a large export written a batch
    /// at a time, `BatchedExport`): joined, they are the body. A store that
    /// can writes them one after the other, never holding the body joined
    /// (SQLite: 56 MB bound to a statement were copied twice more).
    func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws

    // MARK: copying a whole store

    /// Every row of every table, read in one snapshot.
    func snapshot() async throws -> StoreSnapshot
    /// Writes a snapshot into this store in one transaction; refused unless the
    /// store holds no feed yet (a copy never merges into existing data).
    func restore(_ snapshot: StoreSnapshot) async throws

    // MARK: health

    /// Whether the store is sound and, looking `.full`, answers and which
    /// schema it is at. A SQLite file deleted or replaced under the running
    /// server still answers every query from its open descriptor, and is gone
    /// at restart: a cheap check finds that.
    func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck
    /// How the store tells of changes other processes make, when it can
    /// (PostgreSQL); nil when the server must poll (`feedVersions`).
    var changeNotices: (any FeedChangeNotices)? { get }
    func close() async throws
}
