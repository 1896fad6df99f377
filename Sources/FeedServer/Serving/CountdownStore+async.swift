import CountdownStore
import NIOPosix

extension CountdownStore {
    /// Runs store work on NIO's blocking-I/O thread pool: SQLite blocks, and
    /// Swift's cooperative pool (two threads here) must never wait on it.
    func async<T: Sendable>(_ body: @escaping @Sendable (CountdownStore) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { try body(self) }
    }
}
