import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Synchronization

/// A large feed's exported calendar (`/feeds/{slug}.ics`) written from its
/// rows a batch at a time, in the order the calendar holds them (by UID),
/// without compiling the feed (issue #41): a compile of 100,000 countdowns
/// held 500 MB of prepared series for a moment, where this holds one batch
/// of rows and the bytes written so far. The bytes are the compiled export's,
/// byte for byte (`CalendarExport.Batches`).
public enum BatchedExport {
    /// The export of feed `slug` at `revision` as `redaction` sees it, in
    /// parts (joined, the calendar's bytes), with the feed as exported; nil
    /// when the feed is gone or changed from `revision` while it was read.
    public static func write(slug: String, revision: Int64, redaction: Redaction, otherCalendarDates: OtherCalendarDates,
                             imageURL: @escaping @Sendable (String) -> String?, store: any CountdownStore,
                             batchRows: Int = FeedBatches.rows) async throws -> (feed: StoredFeed, parts: [[UInt8]])? {
        let writer = Mutex<CalendarExport.Batches?>(nil)
        guard let feed = try await FeedBatches.forEach(slug: slug, revision: revision, batchRows: batchRows, store: store, { feed, countdowns in
            let redacted = countdowns.map(redaction.apply(to:))
            writer.withLock { writer in
                if writer == nil { writer = CalendarExport.Batches(feed: redaction.apply(to: feed.feed), imageURL: imageURL, otherCalendarDates: otherCalendarDates) }
                writer?.add(redacted)
            }
        }), let parts = writer.withLock({ $0?.takeParts() }) else { return nil }
        return (feed, parts)
    }
}
