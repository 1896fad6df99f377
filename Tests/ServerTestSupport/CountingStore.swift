import Countdowns
import CountdownStore
import Foundation
import NIOCore
import Synchronization

/// A store that counts the reads and transactions it is asked for, and hands
/// everything to an in-memory store: what a test needs to see that a path
/// touched the store, or did not.
package final class CountingStore: CountdownStore {
    package let inner = InMemoryCountdownStore()
    package let reads = Mutex(0)
    package let transactions = Mutex(0)

    package init() {}

    package var location: String { inner.location }
    package var changeNotices: (any FeedChangeNotices)? { inner.changeNotices }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        reads.withLock { $0 += 1 }
        return try await inner.read(body)
    }

    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        transactions.withLock { $0 += 1 }
        return try await inner.transaction(body)
    }

    package var keptExports: any KeptExports { inner.keptExports }
    package func snapshot() async throws -> StoreSnapshot { try await inner.snapshot() }
    package func restore(_ snapshot: StoreSnapshot) async throws { try await inner.restore(snapshot) }
    package func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck { try await inner.check(depth) }
    package func close() async throws { try await inner.close() }
}
