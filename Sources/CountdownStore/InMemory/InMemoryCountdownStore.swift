import Countdowns
import Foundation
import NIOCore
import Synchronization

/// Countdowns in memory: the same primitives as the databases, over plain
/// values, for fast tests of everything above the store (the service, the
/// routes, the web app in `.router` mode) and for dry runs that must write
/// nothing. Nothing survives the process.
///
/// A transaction works on a copy of the tables and, when its use case returns,
/// the copy becomes the store; transactions take turns (`WriteTurns`), as
/// SQLite's do. A read works on a copy it drops. Copying is cheap for the few
/// hundred rows tests hold; this store is not meant for a real server's data.
public final class InMemoryCountdownStore: CountdownStore {
    public var location: String { "memory" }
    package let clock: @Sendable () -> Date
    package let tables = Mutex(InMemoryTables())
    package let turns = WriteTurns()
    /// Kept exports by feed id and view, beside the tables: a transaction
    /// replaces the tables with its copy, and must not drop a render kept meanwhile.
    /// Ids are never reused, so a deleted feed's rows are never read again.
    package let exports = Mutex<[Int64: [Redaction: KeptExport]]>([:])

    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await body(InMemoryTransaction(tables.withLock { $0 }, now: clock()))
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await turns.run {
            let transaction = InMemoryTransaction(tables.withLock { $0 }, now: clock())
            let result = try await body(transaction)
            let committed = transaction.tables.withLock { $0 }
            tables.withLock { $0 = committed }
            return result
        }
    }

    package func row(slug: String) -> FeedRecord? { tables.withLock { $0.feeds.values.first { $0.slug == slug } } }

    public var keptExports: any KeptExports { InMemoryKeptExports(store: self) }

    // MARK: copying, health

    /// A copy reads every table of a database; an in-memory store is never the
    /// source or the target of `tminus copy`, `backup` or `restore`.
    public func snapshot() async throws -> StoreSnapshot {
        throw StoreError.invalid("an in-memory store cannot be copied: copy from a SQLite file or PostgreSQL")
    }

    public func restore(_ snapshot: StoreSnapshot) async throws {
        throw StoreError.invalid("an in-memory store cannot be copied into: copy into a SQLite file or PostgreSQL")
    }

    /// Always sound, and without a schema: the tables are Swift values.
    public func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck { StoreCheck(problem: nil, migrations: []) }
    /// Only this process writes it.
    public var changeNotices: (any FeedChangeNotices)? { nil }
    public func close() async throws {}
}
