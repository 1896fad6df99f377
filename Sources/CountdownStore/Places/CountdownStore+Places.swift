import Countdowns
import Foundation

/// A feed's first rows by place, read as countdowns, with what its first page
/// counts beside them (`StoreReader.placedRows`, issue #41).
public struct PlacedContents: Sendable {
    /// The feed as a compile reads it (`exportable`): the same headers follow.
    public var feed: StoredFeed
    /// The first rows in place order (not yet in list order: `FirstPage.settle` orders them).
    public var countdowns: [Countdown]
    /// What is known of the rows not read.
    public var rest: FirstPage.Rest
    public var total: Int
    public var openTasks: Int
    /// The open tasks that may be overdue or due this week, with their rows.
    public var nearTasks: [Countdown]
}

extension CountdownStore {
    /// `limit` first rows of feed `slug` by place (of `category`, compared
    /// lower-cased), read in one snapshot and parsed; nil when there is no such feed.
    public func placedContents(slug: String, category: String?, limit: Int, tasksBefore: Int64) async throws -> PlacedContents? {
        guard let (feed, placed, sources) = try await read({ reader -> (StoredFeed, PlacedRows, [Int64: String])? in
            guard let row = try await reader.feedRow(slug: slug) else { return nil }
            let feedId = try row.savedID()
            let feed = try await reader.exportable(try await reader.storedFeed(row))
            let placed = try await reader.placedRows(PlacedQuery(feedId: feedId, category: category, limit: limit, tasksBefore: tasksBefore))
            let sources = try await reader.sourceRows(feedId: feedId, lock: false).reduce(into: [Int64: String]()) { $0[$1.id ?? 0] = $1.location }
            return (feed, placed, sources)
        }) else { return nil }
        let read: @Sendable (CountdownRecord) throws -> Countdown = { row in try row.countdown(source: row.sourceId.flatMap { sources[$0] }) }
        let (countdowns, nearTasks) = try await Offload.run { (try placed.rows.map(read), try placed.nearTasks.map(read)) }
        let rest: FirstPage.Rest = placed.rows.count < limit ? .none : placed.rows.last?.place.map(FirstPage.Rest.placed) ?? .unplaced
        return PlacedContents(feed: feed, countdowns: countdowns, rest: rest, total: placed.total, openTasks: placed.openTasks, nearTasks: nearTasks)
    }
}
