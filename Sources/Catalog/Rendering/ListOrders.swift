import Countdowns
import Foundation
import ICalendar
import Synchronization

/// The order of a feed's list at one minute, kept for the pages after the
/// first: a cursor walk through 100,000 countdowns sorts them once, not once
/// per page. Only the order (four bytes a countdown) and the task counts are
/// kept; a page computes the remaining times of its own rows again, which for
/// the same minute gives the same values.
package final class ListOrders: Sendable {
    /// Everything the order depends on.
    package struct Key: Hashable, Sendable {
        package var feed: CompiledFeed.Identity
        package var minute: Int
        package var zone: Zone
        package var unit: DisplayUnit?
        package var category: String?
        package var sort: FeedSnapshot.Sort
        package var language: Language
    }

    /// One list: indices into the compilation's series, in display order.
    package struct Order: Sendable {
        package var indices: [Int32]
        package var tasks: TaskCounts
    }

    private let orders: Mutex<BudgetedLRU<Key, Order>>

    package init(budgetBytes: Int = 8 << 20) {
        orders = Mutex(BudgetedLRU(budgetBytes: budgetBytes))
    }

    /// The order for `key`, computed by `make` when it is not kept.
    package func order(_ key: Key, make: () -> Order) -> Order {
        if let kept = orders.withLock({ $0.use(key) }) { return kept }
        let made = make()
        orders.withLock { $0.insert(key, made, size: Self.bytes(key, made)) }
        return made
    }

    /// How many orders are kept (for tests and health).
    package var count: Int { orders.withLock { $0.count } }

    /// What one kept order takes: its key three times (the dictionary's and the
    /// LRU's two links), the entry, the dictionary's spare room (load ≤ 3/4),
    /// the indices' heap block and a category longer than Swift keeps inline.
    /// Measured before this count: 2.8 KB an entry where `256 + 4n` was counted.
    package static func bytes(_ key: Key, _ order: Order) -> Int {
        let slot = (MemoryLayout<Key>.stride * 3 + MemoryLayout<Order>.stride + 4 * MemoryLayout<Int>.stride) * 4 / 3
        let heap = 64 + order.indices.capacity * MemoryLayout<Int32>.stride
        let category = (key.category?.utf8.count ?? 0) > 15 ? 48 + (key.category?.utf8.count ?? 0) : 0
        return slot + heap + category + 512   // a margin for malloc's rounding and block headers
    }

    /// The order of `series` (a compilation's, filtered or not) as `calculator` sees it.
    /// The order comes from placements alone; only tasks get their whole remaining time, for the counts.
    package static func make(_ series: [CountdownSeries], calculator: RemainingTimeCalculator, unit: DisplayUnit?, sort: FeedSnapshot.Sort) -> Order {
        let order = FeedSnapshot.order(series, calculator: calculator, sort: sort)
        let tasks = TaskCounts(rows: series.filter { $0.countdown.kind == .task }.map { ($0.countdown, calculator.remaining(for: $0, unit: unit)) },
                               now: calculator.now)
        return Order(indices: order.map { Int32($0) }, tasks: tasks)
    }
}
