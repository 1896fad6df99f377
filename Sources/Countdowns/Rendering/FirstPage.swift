import Foundation
import ICalendar

/// The first page of a feed's soonest-first list, settled from its first rows
/// by place (`PlaceBound`) instead of from all of them (issue #41): a feed of
/// 100,000 countdowns answers its first `.json` by reading and preparing a
/// few hundred.
///
/// Why it is the same page the whole list gives: the rows not read have
/// bounds at or after `Rest.placed`, and a bound is never later than where
/// its countdown stands in any zone, now or later. So when the page's last
/// countdown stands strictly before that bound, no row left out can come
/// before it, and the rows read, in the list's own order, are the page.
public enum FirstPage {
    /// What is known of the rows not read.
    public enum Rest: Sendable, Equatable {
        /// There are none: the rows read are the whole list.
        case none
        /// Each stands at or after this bound.
        case placed(PlaceBound)
        /// Some are not placed yet (rows of an older version, before the place round).
        case unplaced
    }

    /// Indices into `series` (the rows read) of the list's first `limit`, in
    /// its order; nil when the rows not read might come before the last of
    /// them (read more rows, or compile the feed).
    public static func settle(_ series: [CountdownSeries], limit: Int, rest: Rest, calculator: RemainingTimeCalculator) -> [Int]? {
        let order = FeedSnapshot.order(series, calculator: calculator, sort: .remaining)
        switch rest {
        case .none:
            return Array(order.prefix(limit))
        case .unplaced:
            return nil
        case .placed(let bound):
            guard limit > 0, order.count >= limit else { return nil }
            let last = series[order[limit - 1]]
            let placement = calculator.placement(for: last)
            let rank = FeedSnapshot.rank(status: last.countdown.status, state: placement.state)
            guard bound.comesAfter(rank: rank, start: placement.occurrence?.startInstant ?? .distantFuture) else { return nil }
            return Array(order.prefix(limit))
        }
    }

    /// How far from now an open task must be placed to be certainly neither
    /// overdue nor due this week in any zone (`TaskCounts.Due.later`): 9 days.
    public static let taskHorizon: TimeInterval = 9 * 86_400
}
