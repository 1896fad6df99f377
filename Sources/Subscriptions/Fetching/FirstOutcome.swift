import Synchronization

/// The first of several racing results, awaited once: later ones are dropped.
/// `CalendarFetcher` races a request against its deadline with it, so that the
/// caller hears of the deadline without waiting for the request to unwind.
package final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case pending([CheckedContinuation<T, any Error>])
        case settled(Result<T, any Error>)
    }

    private let state = Mutex<State>(.pending([]))

    /// Records `result` if nothing was recorded before, and wakes the waiter.
    package func settle(_ result: Result<T, any Error>) {
        let waiting: [CheckedContinuation<T, any Error>] = state.withLock { state in
            guard case .pending(let waiting) = state else { return [] }
            state = .settled(result)
            return waiting
        }
        for continuation in waiting { continuation.resume(with: result) }
    }

    /// The first result recorded, waiting for it if need be.
    package var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<T, any Error>? = state.withLock { state in
                    switch state {
                    case .settled(let result): return result
                    case .pending(let waiting): state = .pending(waiting + [continuation]); return nil
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }
}
