import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Synchronization

/// A large feed's countdown calendar (`/feeds/{slug}/countdown.ics`) made
/// from its rows a batch at a time, without compiling the feed (issue #41):
/// a first pass notes what each countdown would cost (`CountdownCalendar.Gathering`,
/// a few numbers each), the calendar chooses, and a second pass prepares
/// only the series it shows events of (at most `countdownMaxEvents`). The
/// same calendar the compiled feed renders.
public enum BatchedCountdownCalendar {
    /// The countdown calendar of feed `slug` at `revision` as `redaction`
    /// sees it, on `today` in `zone` (the feed's when nil), in `language`
    /// (the feed's, else English, when nil), with the feed as exported; nil
    /// when the feed is gone or changed from `revision` while it was read.
    public static func make(slug: String, revision: Int64, redaction: Redaction, today: CivilDate, zone: Zone?, language: Language?, at now: Date,
                            maxOccurrences: Int, store: any CountdownStore,
                            batchRows: Int = FeedBatches.rows) async throws -> (feed: StoredFeed, result: CountdownCalendar.Result)? {
        let gathering = Mutex<CountdownCalendar.Gathering?>(nil)
        // Dates of a year for every series: the calendar reads them (`keepingDates`), and they go with the batch.
        let prepare = { @Sendable (feed: Feed, countdowns: [Countdown]) in
            countdowns.concurrentMap(minimumChunk: 128) {
                CountdownSeries($0, preparedAt: now, floatingZone: feed.zone, maxOccurrences: maxOccurrences)
            }
        }
        guard try await FeedBatches.forEach(slug: slug, revision: revision, batchRows: batchRows, store: store, { stored, countdowns in
            let feed = redaction.apply(to: stored.feed)
            let series = prepare(feed, countdowns.map(redaction.apply(to:)))
            gathering.withLock { gathering in
                if gathering == nil {
                    gathering = CountdownCalendar.Gathering(CountdownCalendar(feed: feed, today: today, zone: zone ?? feed.zone,
                                                                              workingDays: WorkingDays(weekend: feed.weekend), language: language ?? feed.language ?? .english))
                }
                gathering?.add(series)
            }
        }) != nil, let gathered = gathering.withLock({ $0.take() }) else { return nil }
        let allotment = gathered.allot()
        // The second pass: the series shown, read again. Rows are skipped unparsed in the full view; a redacted one may hash UIDs.
        let shown = Mutex<[CountdownSeries]>([])
        let keepRow: @Sendable (CountdownRecord) -> Bool = { row in allotment.showsEvents(of: row.uid) }
        let keep = redaction == .none ? keepRow : nil
        guard let feed = try await FeedBatches.forEach(slug: slug, revision: revision, batchRows: batchRows, store: store, keep: keep, { stored, countdowns in
            let series = prepare(stored.feed, countdowns.map(redaction.apply(to:)).filter { allotment.showsEvents(of: $0.uid) })
            shown.withLock { $0 += series }
        }) else { return nil }
        return (feed, gathered.calendar.calendar(gathered, allotment, shown: shown.withLock { $0 }))
    }
}
