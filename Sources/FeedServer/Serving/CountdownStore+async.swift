import CountdownStore
import NIOPosix

extension CountdownStore {
    /// Runs store work on NIO's blocking-I/O thread pool: SQLite blocks, and
    /// Swift's cooperative pool (two threads here) must never wait on it.
    /// A full disk comes back as `StoreError.storageFull` (507), not as a 500.
    func async<T: Sendable>(_ body: @escaping @Sendable (CountdownStore) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive {
            do { return try body(self) } catch where CountdownStore.isStorageFull(error) { throw StoreError.storageFull }
        }
    }
}
