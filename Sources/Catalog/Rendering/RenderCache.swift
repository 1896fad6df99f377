import NIOCore
import NIOPosix
import Synchronization

/// Rendered clock-dependent representations, least recently used first out,
/// within a byte budget. A key is rendered once: concurrent requests for a key
/// that is being rendered wait for that render (single flight), and renders run
/// on a pool with one thread per core, so at most that many run at once and
/// none occupies Swift's cooperative threads.
package final class RenderCache: Sendable {
    package struct Statistics: Sendable, Codable {
        package var hits = 0
        package var misses = 0
        package var evictions = 0
        package var bytes = 0
        package var entries = 0

        package init() {}

        init(hits: Int, misses: Int, evictions: Int, bytes: Int, entries: Int) {
            (self.hits, self.misses, self.evictions, self.bytes, self.entries) = (hits, misses, evictions, bytes, entries)
        }
    }

    private struct State: ~Copyable {
        var entries: BudgetedLRU<RenderKey, Representation>
        var inFlight: [RenderKey: Task<Representation, any Error>] = [:]
        var hits = 0
        var misses = 0
    }

    package let budgetBytes: Int
    private let state: Mutex<State>
    private static let renderPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    package init(budgetBytes: Int = 64 << 20) {
        self.budgetBytes = budgetBytes
        state = Mutex(State(entries: BudgetedLRU(budgetBytes: budgetBytes)))
    }

    package var statistics: Statistics {
        state.withLock { state in
            Statistics(hits: state.hits, misses: state.misses, evictions: state.entries.evictions, bytes: state.entries.bytes,
                       entries: state.entries.count)
        }
    }

    /// The cached value for `key`, or the one `render` makes (once, however many
    /// ask) on the render threads.
    package func value(for key: RenderKey, render: @escaping @Sendable () throws -> Representation) async throws -> Representation {
        try await value(for: key, load: {
            try await Self.renderPool.runIfActive {
                let started = ContinuousClock.now
                let value = try render()
                if HeapTrim.follows(renderOf: value.byteCount, taking: ContinuousClock.now - started) { HeapTrim.now() }
                return value
            }
        })
    }

    /// The cached value for `key`, or the one `load` fetches (once, however many
    /// ask): for what comes from the store as it is, an image.
    package func value(for key: RenderKey, load: @escaping @Sendable () async throws -> Representation) async throws -> Representation {
        enum Lookup { case cached(Representation), rendering(Task<Representation, any Error>) }
        let lookup: Lookup = state.withLock { state in
            if let value = state.entries.use(key) {
                state.hits += 1
                return .cached(value)
            }
            if let running = state.inFlight[key] {
                state.hits += 1
                return .rendering(running)
            }
            state.misses += 1
            let task = Task {
                do {
                    let value = try await load()
                    self.keep(key, value)
                    return value
                } catch {
                    _ = self.state.withLock { $0.inFlight.removeValue(forKey: key) }
                    throw error
                }
            }
            state.inFlight[key] = task
            return .rendering(task)
        }
        switch lookup {
        case .cached(let value): return value
        case .rendering(let task): return try await task.value
        }
    }

    /// The cached value for `key`, or nil, counting a hit or a miss: for a
    /// caller that fetches a miss itself, without a task of its own (a kept
    /// export, one store read, where single flight would cost more than the
    /// rare second read of the same key it saves).
    package func cached(_ key: RenderKey) -> Representation? {
        state.withLock { state in
            if let value = state.entries.use(key) {
                state.hits += 1
                return value
            }
            state.misses += 1
            return nil
        }
    }

    /// Keeps `value` for `key` (what a caller of `cached` fetched, or a render just made).
    package func keep(_ key: RenderKey, _ value: Representation) {
        let size = value.cachedSize
        state.withLock { state in
            state.inFlight[key] = nil
            // The newest stays even past the budget (a 10,000-countdown JSON with a 16 MB budget).
            state.entries.insert(key, value, size: size)
        }
    }
}
