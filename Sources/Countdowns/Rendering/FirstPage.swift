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

    /// What the rows read tell of the page.
    public enum Outcome: Sendable, Equatable {
        /// Indices into the rows read of the list's first `limit`, in its order.
        case settled([Int])
        /// The rows not read might come before the page's last: read every
        /// row placed through this bound (the page's last as the rows read
        /// have it, which the whole list can only bring forward), and the
        /// page is settled.
        case readThrough(PlaceBound)
        /// Fewer rows were read than the page holds: read the first rows by count.
        case readMore
        /// Rows not placed yet are left: compile.
        case unsettled
    }

    /// The list's first `limit` among `series` (the rows read), when the rows
    /// not read (`rest`) cannot come before the last of them.
    public static func settle(_ series: [CountdownSeries], limit: Int, rest: Rest, calculator: RemainingTimeCalculator) -> Outcome {
        let order = FeedSnapshot.order(series, calculator: calculator, sort: .remaining)
        switch rest {
        case .none:
            return .settled(Array(order.prefix(limit)))
        case .unplaced:
            return .unsettled
        case .placed(let bound):
            guard limit > 0 else { return .unsettled }
            guard order.count >= limit else { return .readMore }
            let last = series[order[limit - 1]]
            let placement = calculator.placement(for: last)
            let rank = FeedSnapshot.rank(status: last.countdown.status, state: placement.state)
            let start = placement.occurrence?.startInstant ?? .distantFuture
            if bound.comesAfter(rank: rank, start: start) { return .settled(Array(order.prefix(limit))) }
            let through = start == .distantFuture ? Int64.max : PlaceBound.seconds(start.addingTimeInterval(1))
            return .readThrough(PlaceBound(rank: rank, from: through, checkAt: .max))
        }
    }

    /// How far from now an open task must be placed to be certainly neither
    /// overdue nor due this week in any zone (`TaskCounts.Due.later`): 9 days.
    public static let taskHorizon: TimeInterval = 9 * 86_400
}
