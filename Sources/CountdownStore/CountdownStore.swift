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
/// left here is what only a store can do: copying a whole store, its health,
/// and telling of other processes' changes; and, apart, in the same database,
/// a shelf of kept renders (`KeptExports`).
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

    /// The exported calendars kept in this store's database, beside its
    /// rows: the read model's shelf of renders (`KeptExports`).
    var keptExports: any KeptExports { get }

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
