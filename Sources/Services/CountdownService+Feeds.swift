import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Creates a feed; refused when the slug is taken.
    @discardableResult
    public func createFeed(_ feed: Feed) async throws -> StoredFeed {
        try authorize(.manageFeeds)
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        return try await transaction { tx in
            guard try await tx.feedRow(slug: feed.slug, lock: false) == nil else { throw StoreError.feedExists(feed.slug) }
            let row = try await tx.saveFeed(FeedRecord(feed, now: tx.now))
            try await tx.saveCategories(feedId: try row.savedID(), colors: feed.categoryColors, links: [], replacing: false)
            return try await tx.storedFeed(row)
        }
    }

    /// Creates the feed or updates its definition (a feed file loaded, the
    /// settings form, the API's PATCH). The revision rises only when the
    /// definition really changed, so reloading unchanged files recompiles nothing.
    @discardableResult
    public func saveFeed(_ feed: Feed) async throws -> StoredFeed {
        try authorize(.editFeed(feed.slug))
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        return try await transaction { tx in
            var row: FeedRecord
            if let before = try await tx.feedRow(slug: feed.slug, lock: true) {
                row = before
                row.apply(feed)
                if before.feed(categoryColors: [:]) != row.feed(categoryColors: [:]) {
                    row.revision += 1
                    row.updatedAt = max(row.updatedAt, tx.now)
                }
                if row != before { row = try await tx.saveFeed(row) }
            } else {
                row = try await tx.saveFeed(FeedRecord(feed, now: tx.now))
            }
            try await tx.saveCategories(feedId: try row.savedID(), colors: feed.categoryColors, links: [], replacing: false)
            return try await tx.storedFeed(row)
        }
    }

    /// Deletes a feed and everything in it.
    public func deleteFeed(slug: String) async throws {
        try authorize(.manageFeeds)
        try await transaction { tx in
            try await tx.deleteFeed(id: try await tx.requireFeed(slug, lock: true).savedID())
        }
    }
}
