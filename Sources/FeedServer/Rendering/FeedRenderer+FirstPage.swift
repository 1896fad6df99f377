import Countdowns
import CountdownStore
import Foundation
import ICalendar

extension FeedRenderer {
    /// `/feeds/{slug}.json`'s first page of a feed that is not compiled, from
    /// its first rows by place (`FirstPage`, issue #41): a read of a few
    /// hundred rows and their preparation instead of a compile of them all.
    /// Kept in the render cache under the key the compiled feed's first page
    /// has, with the same bytes. Nil when the rows read do not settle the page
    /// (after a second, wider read, while that stays under a quarter of the
    /// feed): the caller compiles the feed.
    package func firstJSON(_ stored: StoredFeed, identity: CompiledFeed.Identity, query: FeedQuery, store: any CountdownStore) async throws -> Representation? {
        guard query.cursor == nil, query.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.json(identity, minute: minute, query: query)
        if let cached = cache.cached(key) { return cached }
        let redaction = identity.redaction
        // A first read of a few rows; when they do not settle the page, one more of every row placed
        // before its last, while that stays well under a compile (a quarter of the feed).
        var through: PlaceBound?
        for limit in [max(4 * query.limit, 256), max(4 * query.limit, stored.countdownCount / 4)] {
            guard let placed = try await store.placedContents(slug: stored.feed.slug, category: query.category, limit: limit,
                                                              tasksBefore: PlaceBound.seconds(minuteStart.addingTimeInterval(FirstPage.taskHorizon)),
                                                              through: through),
                  placed.feed.revision == identity.revision, placed.rest != .unplaced else { return nil }
            let feed = redaction.apply(to: placed.feed.feed)
            let calculator = RemainingTimeCalculator(now: minuteStart, zone: query.zone, maxOccurrences: settings.maxOccurrences,
                                                     workingDays: WorkingDays(weekend: feed.weekend), language: query.language)
            let maxOccurrences = settings.maxOccurrences
            // Preparing a few hundred series is libical's work: not on the cooperative pool's threads (on every core, as a compile).
            let outcome = try await Offload.run({ () -> Settled in
                let prepare = { (countdowns: [Countdown]) in
                    countdowns.concurrentMap(minimumChunk: 128) {
                        // No year of dates: only the countdown calendar reads them.
                        CountdownSeries(redaction.apply(to: $0), preparedAt: minuteStart, floatingZone: feed.zone, maxOccurrences: maxOccurrences,
                                        keepingDates: false)
                    }
                }
                let series = prepare(placed.countdowns)
                switch FirstPage.settle(series, limit: query.limit, rest: placed.rest, calculator: calculator) {
                case .unsettled: return .unsettled
                case .readThrough(let bound): return .readThrough(bound)
                case .settled(let order):
                    let near = prepare(placed.nearTasks).map { ($0.countdown, calculator.remaining(for: $0, unit: query.unit)) }
                    var tasks = TaskCounts(rows: near, now: minuteStart)
                    tasks.open += placed.openTasks - near.count
                    return .page(order.map { (series[$0].countdown, calculator.remaining(for: series[$0], unit: query.unit)) }, tasks)
                }
            })
            guard case .page(let rows, let tasks) = outcome else {
                if case .readThrough(let bound) = outcome, through == nil { through = bound; continue }
                return nil
            }
            let next = rows.count < placed.total
                ? FeedCursor(revision: identity.revision, holidaysRevision: identity.holidaysRevision, minute: minute, offset: rows.count,
                             fingerprint: query.fingerprint)
                : nil
            let page = jsonPage(feed, updatedAt: placed.feed.updatedAt, rows: rows, calculator: calculator, tasks: tasks, total: placed.total, next: next)
            // A category the feed lacks is answered empty and not kept, as a compiled feed does.
            if placed.total > 0 || query.category == nil { cache.keep(key, page) }
            return page
        }
        return nil
    }

    /// What one read by place came to.
    private enum Settled: Sendable {
        case page([(Countdown, RemainingTime)], TaskCounts)
        case readThrough(PlaceBound)
        case unsettled
    }
}
