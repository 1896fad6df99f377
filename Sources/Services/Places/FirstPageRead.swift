import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// The first rows of a feed's soonest-first list read by place, not by a
/// compile of the whole feed (issue #41): what the first `.json` page and
/// the first HTML page of a large feed are rendered from.
///
/// Reads every row placed before tomorrow (a dense feed's page is there);
/// when too few, the first rows by count; when those do not settle the page
/// (`FirstPage.settle`), every row placed through its last. Three reads at
/// most, each under a quarter of the feed: beyond that a compile is cheaper,
/// and `read` answers nil.
public struct FirstPageRead: Sendable {
    /// The feed as the viewer may see it.
    public var feed: Feed
    public var updatedAt: Date
    /// The page's countdowns in the list's order, with their remaining times.
    public var rows: [(Countdown, RemainingTime)]
    public var tasks: TaskCounts
    /// Countdowns in the list (in the category, when one is asked for).
    public var total: Int
    public var calculator: RemainingTimeCalculator

    /// What a first page asks: the viewer's zone, unit and language, a category, how many rows.
    public struct Query: Sendable {
        public var zone: Zone
        public var unit: DisplayUnit?
        public var language: Language
        public var category: String?
        public var limit: Int

        public init(zone: Zone, unit: DisplayUnit?, language: Language, category: String?, limit: Int) {
            self.zone = zone
            self.unit = unit
            self.language = language
            self.category = category
            self.limit = limit
        }
    }

    /// The first page of `stored` at `minuteStart` as `redaction` sees it; nil when the feed changed from
    /// `revision`, has rows not placed yet, or three reads do not settle the page (the caller compiles).
    public static func read(_ stored: StoredFeed, revision: Int64, redaction: Redaction, query: Query, at minuteStart: Date,
                            maxOccurrences: Int, store: any CountdownStore) async throws -> FirstPageRead? {
        // `limit` comes clamped (at most `FeedQuery.maxLimit`), so `4 * limit` cannot overflow; clamped here again anyway.
        let limit = min(max(query.limit, 0), 100_000)
        let cap = max(4 * limit, 256, stored.countdownCount / 4)
        var reads: [(limit: Int, through: PlaceBound?)] = [
            (cap, PlaceBound(rank: 0, from: PlaceBound.seconds(minuteStart.addingTimeInterval(86_400)), checkAt: .max)),
        ]
        var attempts = 0
        while !reads.isEmpty, attempts < 3 {
            attempts += 1
            let (rowLimit, through) = reads.removeFirst()
            guard let placed = try await store.placedContents(slug: stored.feed.slug, category: query.category, limit: rowLimit,
                                                              tasksBefore: PlaceBound.seconds(minuteStart.addingTimeInterval(FirstPage.taskHorizon)),
                                                              through: through),
                  placed.feed.revision == revision, placed.rest != .unplaced else { return nil }
            let feed = redaction.apply(to: placed.feed.feed)
            let calculator = RemainingTimeCalculator(now: minuteStart, zone: query.zone, maxOccurrences: maxOccurrences,
                                                     workingDays: WorkingDays(weekend: feed.weekend), language: query.language)
            // Preparing a few hundred series is libical's work: not on the cooperative pool's threads (on every core, as a compile).
            // The outcome, and for a settled one its rows and task counts.
            let (outcome, rows, tasks) = try await Offload.run { () -> (FirstPage.Outcome, [(Countdown, RemainingTime)], TaskCounts) in
                let prepare = { (countdowns: [Countdown]) in
                    countdowns.concurrentMap(minimumChunk: 128) {
                        // No year of dates: only the countdown calendar reads them.
                        CountdownSeries(redaction.apply(to: $0), preparedAt: minuteStart, floatingZone: feed.zone, maxOccurrences: maxOccurrences,
                                        keepingDates: false)
                    }
                }
                let series = prepare(placed.countdowns)
                let outcome = FirstPage.settle(series, limit: limit, rest: placed.rest, calculator: calculator)
                guard case .settled(let order) = outcome else { return (outcome, [], TaskCounts()) }
                let near = prepare(placed.nearTasks).map { ($0.countdown, calculator.remaining(for: $0, unit: query.unit)) }
                var tasks = TaskCounts(rows: near, now: minuteStart)
                tasks.open += placed.openTasks - near.count
                return (outcome, order.map { (series[$0].countdown, calculator.remaining(for: series[$0], unit: query.unit)) }, tasks)
            }
            switch outcome {
            case .readThrough(let bound): reads.append((cap, bound))
            case .readMore: reads.append((max(4 * limit, 256), nil))
            case .unsettled: return nil
            case .settled:
                return FirstPageRead(feed: feed, updatedAt: placed.feed.updatedAt, rows: rows, tasks: tasks, total: placed.total, calculator: calculator)
            }
        }
        return nil
    }
}
