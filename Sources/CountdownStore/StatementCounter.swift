import Synchronization

/// Counts every SQL statement the store runs, through SQLite's trace hook. Tests
/// read it to prove that serving a cached feed runs no SQL at all.
final class StatementCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
