import Dispatch

/// Runs blocking or CPU-heavy work (parsing a calendar, SQLite's own calls) on
/// a Dispatch thread and awaits it: Swift's cooperative pool has one thread per
/// core (two here), and a request handler must never wait behind such work.
public enum Offload {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }
}
