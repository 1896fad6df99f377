/// Values by key within a byte budget, least recently used first out: a
/// doubly linked list of nodes the dictionary points to, so a hit is one
/// lookup and a few pointer moves, an insert one lookup and an insert, and an
/// eviction one removal, which the render cache needs: at its budget, every
/// insert evicts. Not thread-safe: its owner keeps it behind a lock (the
/// render cache and `ListOrders`). The compiled feeds use `CompiledSet`,
/// whose evictions are rare.
///
/// Why nodes: the list was threaded through the dictionary by key before, so
/// a hit removed and inserted its entry and rewrote two neighbours' (six hash
/// operations, each moving a `Representation` of a few hundred bytes), and a
/// miss of a server with more feeds than fit paid that again for the
/// eviction (issue #41: 2% of such a request in `memmove` alone). Not
/// copyable: a copy would share the nodes.
package struct BudgetedLRU<Key: Hashable, Value>: ~Copyable {
    /// One entry. Its links are `unowned(unsafe)`: every linked node is held by
    /// `entries`, and a node is unlinked before it leaves it, so the links
    /// never outlive what they point to and cost no reference counting.
    private final class Node {
        let key: Key
        var value: Value
        var size: Int
        unowned(unsafe) var older: Node?
        unowned(unsafe) var newer: Node?

        init(key: Key, value: Value, size: Int) {
            self.key = key
            self.value = value
            self.size = size
        }
    }

    private var entries: [Key: Node] = [:]
    private unowned(unsafe) var newest: Node?
    private unowned(unsafe) var oldest: Node?
    package let budgetBytes: Int
    private(set) var bytes = 0
    private(set) var evictions = 0

    package init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    package var count: Int { entries.count }

    /// The keys from the newest to the oldest (for tests).
    package var keysNewestFirst: [Key] {
        var keys: [Key] = []
        var node = newest
        while let current = node {
            keys.append(current.key)
            node = current.older
        }
        return keys
    }

    /// The value for `key`, marked as used now.
    package mutating func use(_ key: Key) -> Value? {
        guard let node = entries[key] else { return nil }
        if node !== newest {
            unlink(node)
            pushNewest(node)
        }
        return node.value
    }

    /// Keeps `value` as the newest, then evicts the oldest until the budget
    /// holds. The newest always stays, even one larger than the whole budget:
    /// making it again on every request would cost far more than holding it.
    package mutating func insert(_ key: Key, _ value: Value, size: Int) {
        if let node = entries[key] {
            bytes += size - node.size
            node.value = value
            node.size = size
            unlink(node)
            pushNewest(node)
        } else {
            let node = Node(key: key, value: value, size: size)
            entries[key] = node
            bytes += size
            pushNewest(node)
        }
        while bytes > budgetBytes, let victim = oldest, victim !== newest {
            unlink(victim)
            bytes -= victim.size
            evictions += 1
            entries.removeValue(forKey: victim.key)   // last: this releases the node
        }
    }

    private mutating func unlink(_ node: Node) {
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        node.older = nil
        node.newer = nil
    }

    private mutating func pushNewest(_ node: Node) {
        node.older = newest
        node.newer = nil
        if let newest { newest.newer = node } else { oldest = node }
        newest = node
    }
}
