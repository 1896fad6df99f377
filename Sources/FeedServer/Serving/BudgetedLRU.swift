/// Values by key within a byte budget, least recently used first out: a
/// doubly linked list threaded through a dictionary, so a hit, an insert and
/// an eviction are O(1), which the render cache needs: at its budget, every
/// insert evicts. Not thread-safe: its owner keeps it behind a lock (the
/// render cache and `ListOrders`). The compiled feeds use `CompiledSet`,
/// whose hits are cheaper and whose evictions are rare.
package struct BudgetedLRU<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var size: Int
        var older: Key?
        var newer: Key?
    }

    private var entries: [Key: Entry] = [:]
    private var newest: Key?
    private var oldest: Key?
    package let budgetBytes: Int
    private(set) var bytes = 0
    private(set) var evictions = 0

    package init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    package var count: Int { entries.count }

    /// The value for `key`, marked as used now.
    package mutating func use(_ key: Key) -> Value? {
        guard let entry = unlink(key) else { return nil }
        pushNewest(key, entry)
        return entry.value
    }

    /// Keeps `value` as the newest, then evicts the oldest until the budget
    /// holds. The newest always stays, even one larger than the whole budget:
    /// making it again on every request would cost far more than holding it.
    package mutating func insert(_ key: Key, _ value: Value, size: Int) {
        if let old = unlink(key) { bytes -= old.size }
        pushNewest(key, Entry(value: value, size: size))
        bytes += size
        while bytes > budgetBytes, let oldest, oldest != key, let entry = unlink(oldest) {
            bytes -= entry.size
            evictions += 1
        }
    }

    private mutating func unlink(_ key: Key) -> Entry? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        if let older = entry.older { entries[older]!.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]!.older = entry.older } else { newest = entry.older }
        return entry
    }

    private mutating func pushNewest(_ key: Key, _ entry: Entry) {
        var entry = entry
        entry.older = newest
        entry.newer = nil
        if let newest { entries[newest]!.newer = key } else { oldest = key }
        entries[key] = entry
        newest = key
    }
}
