import Synchronization

/// Rendered responses keyed by everything they depend on (the feed's last
/// change, the day or minute, query parameters), so a feed is rendered once per
/// change rather than on every poll. Only the newest entry per slot is kept.
final class RenderCache: Sendable {
    struct Key: Hashable, Sendable {
        /// What is rendered, for whom: kind, slug and query ("ics|family|").
        var slot: String
        /// What it depends on: the feed's last change, and the day or minute when time matters.
        var version: String
    }

    private let entries = Mutex<[String: (version: String, value: Representation)]>([:])
    private let counters = Mutex((hits: 0, misses: 0))

    func value(for key: Key, render: () throws -> Representation) rethrows -> Representation {
        if let cached = entries.withLock({ $0[key.slot] }), cached.version == key.version {
            counters.withLock { $0.hits += 1 }
            return cached.value
        }
        let value = try render()
        counters.withLock { $0.misses += 1 }
        entries.withLock { $0[key.slot] = (key.version, value) }
        return value
    }

    var statistics: (hits: Int, misses: Int) { counters.withLock { $0 } }

    /// Drops every entry of a feed (after a definition reload changes its header).
    func invalidate(slugPrefix: String) {
        entries.withLock { entries in entries = entries.filter { !$0.key.contains("|\(slugPrefix)|") } }
    }
}
