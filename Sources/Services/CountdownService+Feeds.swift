import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Creates a feed; refused when the slug is taken. A person's is their own.
    @discardableResult
    public func createFeed(_ feed: Feed) async throws -> StoredFeed {
        try await createFeed(feed, inSpace: nil)
    }

    /// Creates the feed or updates its definition (a feed file loaded, the
    /// settings form, the API's PATCH). The revision rises only when the
    /// definition really changed, so reloading unchanged files recompiles nothing.
    @discardableResult
    public func saveFeed(_ feed: Feed) async throws -> StoredFeed {
        try await authorize(.editFeed(feed.slug))
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        return try await transaction { tx in
            var row: FeedRecord
            if let before = try await tx.feedRow(slug: feed.slug, lock: true) {
                // A purge hook is POSTed after every change: it reaches the network.
                if before.feed(categoryColors: [:]).purgeURL != feed.purgeURL { try await authorize(.manageSources(feed.slug)) }
                row = before
                row.apply(feed)
                if before.feed(categoryColors: [:]) != row.feed(categoryColors: [:]) {
                    row.revision += 1
                    row.updatedAt = max(row.updatedAt, tx.now)
                }
                if row != before { row = try await tx.save(row) }
            } else {
                row = try await tx.save(FeedRecord(feed, now: tx.now))
            }
            try await tx.saveCategories(feedId: try row.savedID(), colors: feed.categoryColors, links: [], replacing: false)
            return try await tx.storedFeed(row)
        }
    }

    /// Deletes a feed and everything in it.
    public func deleteFeed(slug: String) async throws {
        try await authorize(.deleteFeed(slug))
        try await transaction { tx in
            try await tx.delete(FeedRecord.self, ids: [try await tx.requireFeed(slug, lock: true).savedID()])
        }
    }
}
