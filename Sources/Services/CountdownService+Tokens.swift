import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Creates a token for a feed, showing it as `visibility` says; returns the
    /// secret once (only its hash is kept).
    public func createFeedToken(feed slug: String, label: String, visibility: Visibility) async throws -> (token: String, info: FeedToken) {
        try authorize(.editFeed(slug))
        let secret = Secret.generate()
        let info = try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let id = try await tx.insertToken(feedId: try feed.savedID(), label: label, hash: Secret.hash(secret), visibility: visibility)
            return FeedToken(id: id, feed: slug, label: label, visibility: visibility, createdAt: tx.now)
        }
        return (secret, info)
    }

    public func revokeFeedToken(feed slug: String, id: Int64) async throws {
        try authorize(.editFeed(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            guard try await tx.revokeToken(id: id, feedId: try feed.savedID()) else { throw StoreError.invalid("feed '\(slug)' has no token \(id)") }
        }
    }
}
