/// The compiled feeds in memory, within a byte budget, the least recently
/// read going first. A read marks its entry with a tick: one dictionary
/// lookup, where `BudgetedLRU`'s linked list relinks on every hit (six hash
/// operations), which on the hot path of a cached `.ics` cost a tenth of the
/// request rate. Eviction scans for the oldest tick instead: it happens only
/// when a compile adds an entry, which costs far more than the scan.
package struct CompiledSet<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var size: Int
        var lastUse: UInt64
    }

    private var entries: [Key: Entry] = [:]
    private var tick: UInt64 = 0
    package let budgetBytes: Int
    private(set) var bytes = 0
    private(set) var evictions = 0

    package init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    package var count: Int { entries.count }
    package var keyed: [(key: Key, value: Value)] { entries.map { ($0.key, $0.value.value) } }

    /// The value for `key`, marked as read now.
    package mutating func use(_ key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        tick &+= 1
        entries.values[index].lastUse = tick
        return entries.values[index].value
    }

    /// The value for `key`, without marking it.
    package func peek(_ key: Key) -> Value? { entries[key]?.value }

    /// Keeps `value` as the newest, then evicts the least recently read until
    /// the budget holds; the newest always stays. Returns how many went.
    @discardableResult
    package mutating func insert(_ key: Key, _ value: Value, size: Int) -> Int {
        tick &+= 1
        if let old = entries.updateValue(Entry(value: value, size: size, lastUse: tick), forKey: key) { bytes -= old.size }
        bytes += size
        var evicted = 0
        while bytes > budgetBytes {
            var oldest: Key?
            var oldestUse = UInt64.max
            for (candidate, entry) in entries where candidate != key && entry.lastUse < oldestUse {
                oldest = candidate
                oldestUse = entry.lastUse
            }
            guard let oldest else { break }
            bytes -= entries.removeValue(forKey: oldest)!.size
            evictions += 1
            evicted += 1
        }
        return evicted
    }

    package mutating func removeAll(where shouldRemove: (Key) -> Bool) {
        for key in entries.keys where shouldRemove(key) { bytes -= entries.removeValue(forKey: key)!.size }
    }
}
