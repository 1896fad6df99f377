import Countdowns
import Foundation
import ICalendar
import Synchronization

/// The order of a feed's list at one minute, kept for the pages after the
/// first: a cursor walk through 100,000 countdowns sorts them once, not once
/// per page. Only the order (four bytes a countdown) and the task counts are
/// kept; a page computes the remaining times of its own rows again, which for
/// the same minute gives the same values.
final class ListOrders: Sendable {
    /// Everything the order depends on.
    struct Key: Hashable, Sendable {
        var feed: CompiledFeed.Identity
        var minute: Int
        var zone: Zone
        var unit: DisplayUnit?
        var category: String?
        var sort: FeedSnapshot.Sort
        var language: Language
    }

    /// One list: indices into the compilation's series, in display order.
    struct Order: Sendable {
        var indices: [Int32]
        var tasks: TaskCounts
    }

    private let orders: Mutex<BudgetedLRU<Key, Order>>

    init(budgetBytes: Int = 8 << 20) {
        orders = Mutex(BudgetedLRU(budgetBytes: budgetBytes))
    }

    /// The order for `key`, computed by `make` when it is not kept.
    func order(_ key: Key, make: () -> Order) -> Order {
        if let kept = orders.withLock({ $0.use(key) }) { return kept }
        let made = make()
        orders.withLock { $0.insert(key, made, size: 256 + made.indices.count * 4) }
        return made
    }

    /// The order of `series` (a compilation's, filtered or not) as `calculator` sees it.
    /// The order comes from placements alone; only tasks get their whole remaining time, for the counts.
    static func make(_ series: [CountdownSeries], calculator: RemainingTimeCalculator, unit: DisplayUnit?, sort: FeedSnapshot.Sort) -> Order {
        let order = FeedSnapshot.order(series, calculator: calculator, sort: sort)
        let tasks = TaskCounts(rows: series.filter { $0.countdown.kind == .task }.map { ($0.countdown, calculator.remaining(for: $0, unit: unit)) },
                               now: calculator.now)
        return Order(indices: order.map { Int32($0) }, tasks: tasks)
    }
}
