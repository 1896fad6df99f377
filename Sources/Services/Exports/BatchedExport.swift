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
    /// Rows read (and parsed, on every core) at a time: as the place round reads.
    public static let batchRows = 2_000

    /// The export of feed `slug` at `revision` as `redaction` sees it, in
    /// parts (joined, the calendar's bytes), with the feed as exported; nil
    /// when the feed is gone or changed from `revision` while it was read
    /// (each batch is read in a snapshot that checks it).
    public static func write(slug: String, revision: Int64, redaction: Redaction, otherCalendarDates: OtherCalendarDates,
                             imageURL: @escaping @Sendable (String) -> String?, store: any CountdownStore,
                             batchRows: Int = batchRows) async throws -> (feed: StoredFeed, parts: [[UInt8]])? {
        let rows = max(1, batchRows)
        let writer = Mutex<CalendarExport.Batches?>(nil)
        var feed: StoredFeed?
        var after: String?
        while true {
            let first = feed == nil
            guard let batch = try await store.read({ [after] reader -> Batch? in
                guard let row = try await reader.feedRow(slug: slug), row.revision == revision else { return nil }
                let feedId = try row.savedID()
                return Batch(feed: first ? try await reader.exportable(try await reader.storedFeed(row)) : nil,
                             rows: try await reader.countdownRows(feedId: feedId, after: after, limit: rows),
                             sources: try await reader.sourceRows(feedId: feedId, lock: false).reduce(into: [:]) { $0[$1.id ?? 0] = $1.location })
            }) else { return nil }
            if let stored = batch.feed {
                feed = stored
                let shown = redaction.apply(to: stored.feed)
                writer.withLock { $0 = CalendarExport.Batches(feed: shown, imageURL: imageURL, otherCalendarDates: otherCalendarDates) }
            }
            // Parsing rows and writing their components is libical's work: on the import threads, not the cooperative pool.
            try await Offload.run {
                let countdowns = try batch.rows.concurrentMap(minimumChunk: 256) { row in
                    Result { redaction.apply(to: try row.countdown(source: row.sourceId.flatMap { batch.sources[$0] })) }
                }.map { try $0.get() }
                writer.withLock { $0?.add(countdowns) }
            }
            guard batch.rows.count == rows, let last = batch.rows.last?.uid else { break }
            after = last
        }
        guard let feed, let parts = writer.withLock({ $0.take()?.parts() }) else { return nil }
        return (feed, parts)
    }

    private struct Batch: Sendable {
        var feed: StoredFeed?
        var rows: [CountdownRecord]
        var sources: [Int64: String]
    }
}
