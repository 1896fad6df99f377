import GRDB
import Synchronization

/// A few read-only connections for the short reads that answer a request
/// (a kept export: a few pages), used on the request's own thread.
///
/// `DatabasePool`'s async read sends the work to a reader's queue and resumes
/// the task from there: two thread switches that cost more than reading the
/// pages, and left a feed not in memory answered at a third of a cached one's
/// rate (issue #41). Its synchronous read cannot stand in: it waits for a free
/// reader on the calling thread, and the tasks holding readers need those
/// threads to resume and give them back (tried: with Swift's two pool threads
/// both waiting, the server stopped answering). A quick reader is only ever
/// taken when free (`withLockIfAvailable`) and held by code that never
/// suspends, so nothing waits for it: when all are busy, the caller takes the
/// pool's async read instead.
package final class QuickReaders: Sendable {
    /// One connection, opened on first use (Mutex is not copyable: a class holds it).
    private final class Slot: Sendable {
        let connection = Mutex<DatabaseQueue?>(nil)
    }

    private let slots: [Slot]
    private let next = Atomic<UInt>(0)
    private let open: @Sendable () throws -> DatabaseQueue

    /// `open` makes a connection the first time a slot is used: a store that
    /// never answers such a read opens none.
    package init(count: Int, open: @escaping @Sendable () throws -> DatabaseQueue) {
        slots = (0..<max(1, count)).map { _ in Slot() }
        self.open = open
    }

    /// `body` on a free connection, on this thread; nil when every connection
    /// is in use. Outside a transaction: one statement reads one snapshot, and
    /// the connections are read-only. `DatabaseQueue.read` began and committed
    /// a transaction around it, two more statements parsed for each request.
    package func read<T: Sendable>(_ body: (Database) throws -> T) throws -> T? {
        let first = Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(slots.count))
        for offset in slots.indices {
            let answered = try slots[(first + offset) % slots.count].connection.withLockIfAvailable { queue throws -> T in
                let connection = try queue ?? open()
                queue = connection
                return try connection.inDatabase(body)
            }
            if let answered { return answered }
        }
        return nil
    }
}
