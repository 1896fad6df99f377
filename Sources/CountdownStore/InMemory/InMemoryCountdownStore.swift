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

    private func row(slug: String) -> FeedRecord? { tables.withLock { $0.feeds.values.first { $0.slug == slug } } }

    // MARK: kept exports

    public func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        guard let id = row(slug: slug)?.id else { return nil }
        let kept = exports.withLock { $0[id] ?? [:] }
        guard var resolved = KeptExport.resolved(view: kept[view], full: kept[Redaction.none]) else { return nil }
        if let length = resolved.bytes?.length, length > maxBytes {
            resolved.bytes?.body = ByteBuffer()
            resolved.bytes?.gzipped = nil
        }
        return resolved
    }

    public func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer? {
        guard let kept = try await keptExport(slug: slug, view: view), kept.revision == revision, kept.variant == variant,
              let body = kept.bytes?.body else { return nil }
        let start = min(max(offset, 0), body.readableBytes)
        return body.getSlice(at: body.readerIndex + start, length: min(max(length, 0), body.readableBytes - start))
    }

    public func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        guard let feed = row(slug: slug), let id = feed.id, feed.revision == export.revision else { return }
        exports.withLock { exports in
            if let kept = exports[id]?[view], kept.revision > export.revision || kept == export { return }
            exports[id, default: [:]][view] = export
        }
    }

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
