import Countdowns
import CountdownStore
import Foundation
import ICalendar

extension FeedRenderer {
    /// `/feeds/{slug}.json`'s first page of a feed that is not compiled, from
    /// its first rows by place (`FirstPage`, issue #41): a read of a few
    /// hundred rows and their preparation instead of a compile of them all.
    /// Kept in the render cache under the key the compiled feed's first page
    /// has, with the same bytes. Nil when three reads, each at most a quarter
    /// of the feed, do not settle the page: the caller compiles the feed.
    package func firstJSON(_ stored: StoredFeed, identity: CompiledFeed.Identity, query: FeedQuery, store: any CountdownStore) async throws -> Representation? {
        guard query.cursor == nil, query.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.json(identity, minute: minute, query: query)
        if let cached = cache.cached(key) { return cached }
        let redaction = identity.redaction
        // First every row placed before tomorrow (a dense feed's page is there); when too few, the first
        // rows by count; when they do not settle the page, every row placed before its last. Each read
        // stays well under a compile: a quarter of the feed at most.
        let cap = max(4 * query.limit, 256, stored.countdownCount / 4)
        var reads: [(limit: Int, through: PlaceBound?)] = [
            (cap, PlaceBound(rank: 0, from: PlaceBound.seconds(minuteStart.addingTimeInterval(86_400)), checkAt: .max)),
        ]
        var attempts = 0
        while !reads.isEmpty, attempts < 3 {
            attempts += 1
            let (limit, through) = reads.removeFirst()
            guard let placed = try await store.placedContents(slug: stored.feed.slug, category: query.category, limit: limit,
                                                              tasksBefore: PlaceBound.seconds(minuteStart.addingTimeInterval(FirstPage.taskHorizon)),
                                                              through: through),
                  placed.feed.revision == identity.revision, placed.rest != .unplaced else { return nil }
            let feed = redaction.apply(to: placed.feed.feed)
            let calculator = RemainingTimeCalculator(now: minuteStart, zone: query.zone, maxOccurrences: settings.maxOccurrences,
                                                     workingDays: WorkingDays(weekend: feed.weekend), language: query.language)
            let maxOccurrences = settings.maxOccurrences
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
                let outcome = FirstPage.settle(series, limit: query.limit, rest: placed.rest, calculator: calculator)
                guard case .settled(let order) = outcome else { return (outcome, [], TaskCounts()) }
                let near = prepare(placed.nearTasks).map { ($0.countdown, calculator.remaining(for: $0, unit: query.unit)) }
                var tasks = TaskCounts(rows: near, now: minuteStart)
                tasks.open += placed.openTasks - near.count
                return (outcome, order.map { (series[$0].countdown, calculator.remaining(for: series[$0], unit: query.unit)) }, tasks)
            }
            switch outcome {
            case .readThrough(let bound): reads.append((cap, bound))
            case .readMore: reads.append((max(4 * query.limit, 256), nil))
            case .unsettled: return nil
            case .settled:
                let next = rows.count < placed.total
                    ? FeedCursor(revision: identity.revision, holidaysRevision: identity.holidaysRevision, minute: minute, offset: rows.count,
                                 fingerprint: query.fingerprint)
                    : nil
                let page = jsonPage(feed, updatedAt: placed.feed.updatedAt, rows: rows, calculator: calculator, tasks: tasks, total: placed.total,
                                    next: next)
                // A category the feed lacks is answered empty and not kept, as a compiled feed does.
                if placed.total > 0 || query.category == nil { cache.keep(key, page) }
                return page
            }
        }
        return nil
    }
}
