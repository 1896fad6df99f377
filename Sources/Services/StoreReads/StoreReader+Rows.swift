import Countdowns
import CountdownStore
import Foundation

/// Single rows and joins built from the scoped reads, written once for every
/// store.
extension StoreReader {
    package func feedRow(slug: String, lock: Bool = false) async throws -> FeedRecord? {
        try await feedRows(.slug(slug), lock: lock).first
    }

    package func feedRow(id: Int64, lock: Bool = false) async throws -> FeedRecord? {
        try await feedRows(.id(id), lock: lock).first
    }

    /// The feed row, or `feedNotFound`.
    package func requireFeed(_ slug: String, lock: Bool = false) async throws -> FeedRecord {
        guard let feed = try await feedRow(slug: slug, lock: lock) else { throw StoreError.feedNotFound(slug) }
        return feed
    }

    /// The feed as callers see it: its row, category colours and countdown count.
    package func storedFeed(_ row: FeedRecord) async throws -> StoredFeed {
        let id = try row.savedID()
        let tally = try await feedTallies(feedId: id)[id] ?? FeedTally()
        return try StoredFeed(row, tally: tally)
    }

    /// Many feeds as callers see them, their tallies read for every feed in
    /// one go (10,000 feeds: two statements, not 20,000).
    package func storedFeeds(_ rows: [FeedRecord]) async throws -> [StoredFeed] {
        let tallies = try await feedTallies(feedId: nil)
        return try rows.map { row throws(StoreError) in try StoredFeed(row, tally: tallies[try row.savedID()] ?? FeedTally()) }
    }

    /// The countdown row, or `countdownNotFound`.
    package func requireCountdown(_ id: Int64, lock: Bool = false) async throws -> CountdownRecord {
        guard let row = try await countdownRows(.id(id, lock: lock)).first else { throw StoreError.countdownNotFound(id) }
        return row
    }

    /// A feed's source at `location`, if it has one.
    package func sourceRow(feedId: Int64, location: String, lock: Bool = false) async throws -> SourceRecord? {
        try await sourceRows(feedId: feedId, lock: lock).first { $0.location == location }
    }

    /// A countdown row as a countdown, with the location of its source.
    package func countdown(_ row: CountdownRecord) async throws -> Countdown {
        guard let sourceId = row.sourceId else { return try row.countdown(source: nil) }
        return try row.countdown(source: try await sourceRows(feedId: row.feedId, lock: false).first { $0.id == sourceId }?.location)
    }

    /// A setting's text.
    package func setting(_ key: SettingKey) async throws -> String? {
        try await value(for: .setting(key)).map { String(decoding: $0.bytes, as: UTF8.self) }
    }
}

extension StoreTransaction {
    /// Sets a setting, or removes it (`nil`).
    package func setSetting(_ key: SettingKey, to value: String?) async throws {
        try await setValue(value.map { PersistedValue(bytes: Data($0.utf8), expiresAt: nil) }, for: .setting(key))
    }
}

extension StoreReader {
    /// The feed as it is exported: a feed that sets no refresh interval gets
    /// one from how often it changed (`RefreshHint`, from its change log up to
    /// its last change), so that every server writes the same bytes for one revision.
    package func exportable(_ stored: StoredFeed) async throws -> StoredFeed {
        guard stored.feed.refreshInterval == nil else { return stored }
        let changes = try await changeRows(ChangeQuery(feedIds: [stored.id], limit: 200, newestFirst: true))
        var shown = stored
        shown.feed.refreshInterval = RefreshHint.interval(changes: changes.map(\.at), asOf: stored.updatedAt)
        return shown
    }
}
