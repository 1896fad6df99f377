import Synchronization

/// Writers take turns, first come first served. SQLite has one writer
/// connection, and a `StoreTransaction` spans several awaits on it (BEGIN, the
/// primitives, COMMIT): no other write may run on that connection in between,
/// so every write of `SQLiteCountdownStore` waits for its turn here. Waiting
/// suspends the task; it never blocks a thread.
package final class WriteTurns: Sendable {
    package init() {}

    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Returns once the caller holds the turn; `end()` passes it on.
    package func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    package func end() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` in the caller's turn.
    package func run<T>(_ body: () async throws -> T) async throws -> T {
        await begin()
        defer { end() }
        return try await body()
    }
}
