import Countdowns
import CountdownStore
import Foundation
import NIOCore
import Synchronization

/// A store that counts the reads and transactions it is asked for, and hands
/// everything to an in-memory store: what a test needs to see that a path
/// touched the store, or did not.
final class CountingStore: CountdownStore {
    let inner = InMemoryCountdownStore()
    let reads = Mutex(0)
    let transactions = Mutex(0)

    var location: String { inner.location }
    var changeNotices: (any FeedChangeNotices)? { inner.changeNotices }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        reads.withLock { $0 += 1 }
        return try await inner.read(body)
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        transactions.withLock { $0 += 1 }
        return try await inner.transaction(body)
    }

    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        try await inner.keptExport(slug: slug, view: view, bodyUpTo: maxBytes)
    }

    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer? {
        try await inner.keptExportChunk(slug: slug, view: view, revision: revision, variant: variant, offset: offset, length: length)
    }

    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws { try await inner.keepExport(export, slug: slug, view: view) }
    func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws {
        try await inner.keepExport(parts: parts, etag: etag, revision: revision, variant: variant, slug: slug, view: view)
    }
    func snapshot() async throws -> StoreSnapshot { try await inner.snapshot() }
    func restore(_ snapshot: StoreSnapshot) async throws { try await inner.restore(snapshot) }
    func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck { try await inner.check(depth) }
    func close() async throws { try await inner.close() }
}
