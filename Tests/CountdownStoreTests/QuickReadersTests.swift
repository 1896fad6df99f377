import GRDB
import Synchronization
import Testing
@testable import SQLiteStore

/// The connections a request reads a kept export on, on its own thread: one
/// in use is never waited for (its holder would need this thread back), the
/// caller is told to take the pool's read instead.
struct QuickReadersTests {
    @Test func aReaderInUseIsNotWaitedForAndTheCallerIsToldSo() throws {
        let opened = OpenCount()
        let readers = QuickReaders(count: 1) { opened.add(); return try DatabaseQueue() }
        let outer = try readers.read { db -> Int? in
            // The only reader is this one: a second read answers nil at once, where waiting would never end.
            let inner = try readers.read { db in try Int.fetchOne(db, sql: "SELECT 2") }
            #expect(inner == nil)
            return try Int.fetchOne(db, sql: "SELECT 1")
        }
        #expect(outer == 1)
        #expect(try readers.read { db in try Int.fetchOne(db, sql: "SELECT 3") } == 3, "free again once its read ended")
        #expect(opened.count == 1, "a connection is opened once, when first used")
    }

    @Test func noConnectionIsOpenedUntilOneIsUsed() throws {
        let opened = OpenCount()
        _ = QuickReaders(count: 2) { opened.add(); return try DatabaseQueue() }
        #expect(opened.count == 0)
    }
}

private final class OpenCount: Sendable {
    private let value = Atomic<Int>(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
