import Synchronization

/// Counts every SQL statement the store runs, through SQLite's trace hook. Tests
/// read it to prove that serving a cached feed runs no SQL at all.
package final class StatementCounter: Sendable {
    package init() {}

    private let count = Atomic<Int>(0)
    package func increment() { count.add(1, ordering: .relaxed) }
    package var value: Int { count.load(ordering: .relaxed) }
}
