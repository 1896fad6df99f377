import Synchronization

/// A one-shot event a test awaits instead of sleeping and looking again: fired
/// once from anywhere (a thread, a handler, a child's exit), awaited by any
/// number of tasks, and a wait after the fire returns at once.
public final class Signal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public var hasFired: Bool { state.withLock { $0.fired } }

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if fired { continuation.resume() }
        }
    }
}
