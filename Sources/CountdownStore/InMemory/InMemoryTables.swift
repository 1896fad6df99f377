import Countdowns
import Foundation

/// Every row of an in-memory store, as plain values: copying it is how a
/// transaction gets its working state, and keeping the copy is its commit.
package struct InMemoryTables: Sendable {
    package struct Category: Sendable {
        package var id: Int64
        package var feedId: Int64
        package var name: String
        package var color: String?
    }

    package struct Token: Sendable {
        package var info: FeedToken
        package var feedId: Int64
        package var hash: String
    }

    package struct Image: Sendable {
        package var mimeType: String
        package var bytes: Data
        package var createdAt: Date
    }

    package var feeds: [Int64: FeedRecord] = [:]
    package var countdowns: [Int64: CountdownRecord] = [:]
    package var categories: [Int64: Category] = [:]
    /// countdown id → category ids.
    package var links: [Int64: Set<Int64>] = [:]
    package var sources: [Int64: SourceRecord] = [:]
    package var tokens: [Int64: Token] = [:]
    package var images: [String: Image] = [:]
    package var settings: [String: String] = [:]
    package var entries: [String: PersistedValue] = [:]
    /// The tables whose rows get ids.
    package enum Table: Hashable, Sendable { case feed, countdown, category, source, token }
    private var lastIds: [Table: Int64] = [:]

    /// Each table counts its own ids from 1, as SQLite's and PostgreSQL's do.
    package mutating func nextId(_ table: Table) -> Int64 {
        let id = (lastIds[table] ?? 0) + 1
        lastIds[table] = id
        return id
    }

    package func feed(slug: String) -> FeedRecord? { feeds.values.first { $0.slug == slug } }

    package func stored(_ row: FeedRecord) throws(StoreError) -> StoredFeed {
        let colors = categories.values.filter { $0.feedId == row.id && $0.color != nil }.reduce(into: [String: String]()) { $0[$1.name] = $1.color }
        return try StoredFeed(row, categoryColors: colors, countdownCount: countdowns.values.count { $0.feedId == row.id })
    }

    package func countdown(_ row: CountdownRecord) throws -> Countdown {
        try row.countdown(source: row.sourceId.flatMap { sources[$0]?.location })
    }

    /// Deletes a feed and what hangs on it, as the databases' cascades do.
    package mutating func deleteFeed(id: Int64) {
        feeds[id] = nil
        for (countdownId, row) in countdowns where row.feedId == id { deleteCountdown(id: countdownId) }
        categories = categories.filter { $0.value.feedId != id }
        sources = sources.filter { $0.value.feedId != id }
        tokens = tokens.filter { $0.value.feedId != id }
    }

    package mutating func deleteCountdown(id: Int64) {
        countdowns[id] = nil
        links[id] = nil
    }

    package mutating func categoryId(feedId: Int64, name: String) -> Int64 {
        if let found = categories.values.first(where: { $0.feedId == feedId && $0.name == name }) { return found.id }
        let id = nextId(.category)
        categories[id] = Category(id: id, feedId: feedId, name: name)
        return id
    }
}
