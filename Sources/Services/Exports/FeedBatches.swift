import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// A feed's countdowns read from the store a batch at a time, in UID order
/// (bytes), each batch in a snapshot that checks the feed is still at the
/// revision asked: what a large feed's export and countdown calendar are
/// written from without compiling it (issue #41). Rows are parsed on the
/// import threads, on every core; the caller's work on each batch runs there too.
public enum FeedBatches {
    /// Rows read at a time: as the place round reads.
    public static let rows = 2_000

    /// Calls `body` with the feed as exported and each batch of its
    /// countdowns (those `keep` takes, when given; `keep` sees the row before
    /// it is parsed). Nil when the feed is gone or moved from `revision`
    /// while it was read; else the feed.
    static func forEach(slug: String, revision: Int64, batchRows: Int = rows, store: any CountdownStore,
                        keep: (@Sendable (CountdownRecord) -> Bool)? = nil,
                        _ body: @escaping @Sendable (StoredFeed, [Countdown]) throws -> Void) async throws -> StoredFeed? {
        let limit = max(1, batchRows)
        var feed: StoredFeed?
        var after: String?
        while true {
            guard let batch = try await store.read({ [after, feed] reader -> Batch? in
                guard let row = try await reader.feedRow(slug: slug), row.revision == revision else { return nil }
                let feedId = try row.savedID()
                var exported = feed
                if exported == nil { exported = try await reader.exportable(try await reader.storedFeed(row)) }
                guard let exported else { return nil }
                return Batch(feed: exported,
                             rows: try await reader.countdownRows(.batch(feedId: feedId, after: after, limit: limit)),
                             sources: try await reader.sourceRows(feedId: feedId, lock: false).reduce(into: [:]) { $0[$1.id ?? 0] = $1.location })
            }) else { return nil }
            feed = batch.feed
            try await Offload.run {
                let rows = keep.map { batch.rows.filter($0) } ?? batch.rows
                let countdowns = try rows.concurrentMap(minimumChunk: 256) { row in
                    Result { try row.countdown(source: row.sourceId.flatMap { batch.sources[$0] }) }
                }.map { try $0.get() }
                try body(batch.feed, countdowns)
            }
            guard batch.rows.count == limit, let last = batch.rows.last?.uid else { break }
            after = last
        }
        return feed
    }

    private struct Batch: Sendable {
        var feed: StoredFeed
        var rows: [CountdownRecord]
        var sources: [Int64: String]
    }
}
