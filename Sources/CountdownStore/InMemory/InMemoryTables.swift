import Countdowns
import Foundation

/// Every row of an in-memory store, as plain values: copying it is how a
/// transaction gets its working state, and keeping the copy is its commit.
struct InMemoryTables: Sendable {
    struct Category: Sendable {
        var id: Int64
        var feedId: Int64
        var name: String
        var color: String?
    }

    struct Token: Sendable {
        var info: FeedToken
        var feedId: Int64
        var hash: String
    }

    struct Image: Sendable {
        var mimeType: String
        var bytes: Data
        var createdAt: Date
    }

    var feeds: [Int64: FeedRecord] = [:]
    var countdowns: [Int64: CountdownRecord] = [:]
    var categories: [Int64: Category] = [:]
    /// countdown id → category ids.
    var links: [Int64: Set<Int64>] = [:]
    var sources: [Int64: SourceRecord] = [:]
    var tokens: [Int64: Token] = [:]
    var images: [String: Image] = [:]
    var settings: [String: String] = [:]
    var entries: [String: PersistedValue] = [:]
    /// The tables whose rows get ids.
    enum Table: Hashable, Sendable { case feed, countdown, category, source, token }
    private var lastIds: [Table: Int64] = [:]

    /// Each table counts its own ids from 1, as SQLite's and PostgreSQL's do.
    mutating func nextId(_ table: Table) -> Int64 {
        let id = (lastIds[table] ?? 0) + 1
        lastIds[table] = id
        return id
    }

    func feed(slug: String) -> FeedRecord? { feeds.values.first { $0.slug == slug } }

    func stored(_ row: FeedRecord) throws(StoreError) -> StoredFeed {
        let colors = categories.values.filter { $0.feedId == row.id && $0.color != nil }.reduce(into: [String: String]()) { $0[$1.name] = $1.color }
        return try StoredFeed(row, categoryColors: colors, countdownCount: countdowns.values.count { $0.feedId == row.id })
    }

    func countdown(_ row: CountdownRecord) throws -> Countdown {
        try row.countdown(source: row.sourceId.flatMap { sources[$0]?.location })
    }

    /// Deletes a feed and what hangs on it, as the databases' cascades do.
    mutating func deleteFeed(id: Int64) {
        feeds[id] = nil
        for (countdownId, row) in countdowns where row.feedId == id { deleteCountdown(id: countdownId) }
        categories = categories.filter { $0.value.feedId != id }
        sources = sources.filter { $0.value.feedId != id }
        tokens = tokens.filter { $0.value.feedId != id }
    }

    mutating func deleteCountdown(id: Int64) {
        countdowns[id] = nil
        links[id] = nil
    }

    mutating func categoryId(feedId: Int64, name: String) -> Int64 {
        if let found = categories.values.first(where: { $0.feedId == feedId && $0.name == name }) { return found.id }
        let id = nextId(.category)
        categories[id] = Category(id: id, feedId: feedId, name: name)
        return id
    }
}
