import NIOCore
import NIOPosix
import Synchronization

/// Rendered clock-dependent representations, least recently used first out,
/// within a byte budget. A key is rendered once: concurrent requests for a key
/// that is being rendered wait for that render (single flight), and renders run
/// on a pool with one thread per core, so at most that many run at once and
/// none occupies Swift's cooperative threads.
final class RenderCache: Sendable {
    struct Statistics: Sendable, Codable {
        var hits = 0
        var misses = 0
        var evictions = 0
        var bytes = 0
        var entries = 0
    }

    private struct Entry {
        var value: Representation
        var size: Int
        var older: RenderKey?
        var newer: RenderKey?
    }

    /// A doubly linked list threaded through the dictionary: `newest` is used last.
    private struct State {
        var entries: [RenderKey: Entry] = [:]
        var newest: RenderKey?
        var oldest: RenderKey?
        var inFlight: [RenderKey: Task<Representation, any Error>] = [:]
        var statistics = Statistics()

        mutating func unlink(_ key: RenderKey) -> Entry? {
            guard let entry = entries.removeValue(forKey: key) else { return nil }
            if let older = entry.older { entries[older]!.newer = entry.newer } else { oldest = entry.newer }
            if let newer = entry.newer { entries[newer]!.older = entry.older } else { newest = entry.older }
            return entry
        }

        mutating func pushNewest(_ key: RenderKey, _ entry: Entry) {
            var entry = entry
            entry.older = newest
            entry.newer = nil
            if let newest { entries[newest]!.newer = key } else { oldest = key }
            entries[key] = entry
            newest = key
        }
    }

    let budgetBytes: Int
    private let state = Mutex(State())
    private static let renderPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    init(budgetBytes: Int = 64 << 20) {
        self.budgetBytes = budgetBytes
    }

    var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.entries = state.entries.count
            return statistics
        }
    }

    /// The cached value for `key`, or the one `render` makes (once, however many
    /// ask) on the render threads.
    func value(for key: RenderKey, render: @escaping @Sendable () throws -> Representation) async throws -> Representation {
        try await value(for: key, load: {
            try await Self.renderPool.runIfActive {
                let value = try render()
                if value.byteCount >= HeapTrim.afterRenderBytes { HeapTrim.now() }
                return value
            }
        })
    }

    /// The cached value for `key`, or the one `load` fetches (once, however many
    /// ask): for what comes from the store as it is, an image.
    func value(for key: RenderKey, load: @escaping @Sendable () async throws -> Representation) async throws -> Representation {
        enum Lookup { case cached(Representation), rendering(Task<Representation, any Error>) }
        let lookup: Lookup = state.withLock { state in
            if let entry = state.unlink(key) {
                state.pushNewest(key, entry)
                state.statistics.hits += 1
                return .cached(entry.value)
            }
            if let running = state.inFlight[key] {
                state.statistics.hits += 1
                return .rendering(running)
            }
            state.statistics.misses += 1
            let task = Task {
                do {
                    let value = try await load()
                    self.insert(key, value)
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

    private func insert(_ key: RenderKey, _ value: Representation) {
        let size = value.cachedSize
        state.withLock { state in
            state.inFlight[key] = nil
            if let old = state.unlink(key) { state.statistics.bytes -= old.size }
            state.pushNewest(key, Entry(value: value, size: size))
            state.statistics.bytes += size
            // The newest entry always stays, even one larger than the whole budget
            // (a 10,000-countdown JSON with a 16 MB budget): rendering it again on
            // every request would cost far more than holding it.
            while state.statistics.bytes > budgetBytes, let oldest = state.oldest, oldest != key, let evicted = state.unlink(oldest) {
                state.statistics.bytes -= evicted.size
                state.statistics.evictions += 1
            }
        }
    }
}
