import Countdowns
import CountdownStore
import Foundation

/// A feed's first rows by place, read as countdowns, with what its first page
/// counts beside them (`StoreReader.placedRows`, issue #41).
package struct PlacedContents: Sendable {
    /// The feed as a compile reads it (`exportable`): the same headers follow.
    package var feed: StoredFeed
    /// The first rows in place order (not yet in list order: `FirstPage.settle` orders them).
    package var countdowns: [Countdown]
    /// What is known of the rows not read.
    package var rest: FirstPage.Rest
    package var total: Int
    package var openTasks: Int
    /// The open tasks that may be overdue or due this week, with their rows.
    package var nearTasks: [Countdown]
}

extension CountdownStore {
    /// `limit` first rows of feed `slug` by place (of `category`, compared
    /// lower-cased), read in one snapshot and parsed; nil when there is no such feed.
    package func placedContents(slug: String, category: String?, limit: Int, tasksBefore: Int64, through: PlaceBound? = nil) async throws -> PlacedContents? {
        guard let (feed, placed, sources) = try await read({ reader -> (StoredFeed, PlacedRows, [Int64: String])? in
            guard let row = try await reader.feedRow(slug: slug) else { return nil }
            let feedId = try row.savedID()
            let feed = try await reader.exportable(try await reader.storedFeed(row))
            let placed = try await reader.placedRows(PlacedQuery(feedId: feedId, category: category, limit: limit, tasksBefore: tasksBefore,
                                                                 through: through))
            let sources = try await reader.sourceRows(feedId: feedId, lock: false).reduce(into: [Int64: String]()) { $0[$1.id ?? 0] = $1.location }
            return (feed, placed, sources)
        }) else { return nil }
        let read: @Sendable (CountdownRecord) throws -> Countdown = { row in try row.countdown(source: row.sourceId.flatMap { sources[$0] }) }
        // Parsed on every core: a dense feed's first page reads a few thousand rows (the few days a place's margin spans).
        let parse: @Sendable ([CountdownRecord]) throws -> [Countdown] = { rows in
            try rows.concurrentMap(minimumChunk: 256) { row in Result { try read(row) } }.map { try $0.get() }
        }
        let (countdowns, nearTasks) = try await Offload.run { (try parse(placed.rows), try parse(placed.nearTasks)) }
        let rest: FirstPage.Rest
        if placed.rows.count < limit {
            // Every row was read, or every one placed through `through`: the others are placed after it.
            rest = through.map { .placed(PlaceBound(rank: $0.rank, from: $0.from == .max ? .max : $0.from + 1, checkAt: .max)) } ?? .none
        } else {
            rest = placed.rows.last?.place.map(FirstPage.Rest.placed) ?? .unplaced
        }
        return PlacedContents(feed: feed, countdowns: countdowns, rest: rest, total: placed.total, openTasks: placed.openTasks, nearTasks: nearTasks)
    }
}
