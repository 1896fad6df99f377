import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Creates a token for a feed, showing it as `visibility` says; returns the
    /// secret once (only its hash is kept).
    public func createFeedToken(feed slug: String, label: String, visibility: Visibility) async throws -> (token: String, info: FeedToken) {
        try await authorize(.editFeed(slug))
        let secret = Secret.generate()
        let info = try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            let row = try await tx.save(TokenRecord(feedId: try feed.savedID(), label: label, tokenHash: Secret.hash(secret), createdAt: tx.now,
                                                          visibility: visibility))
            return try row.token(feed: slug)
        }
        return (secret, info)
    }

    public func revokeFeedToken(feed slug: String, id: Int64) async throws {
        try await authorize(.editFeed(slug))
        try await transaction { tx in
            let feed = try await tx.requireFeed(slug)
            guard var row = try await tx.tokenRows(feedId: try feed.savedID()).first(where: { $0.id == id }) else {
                throw StoreError.invalid("feed '\(slug)' has no token \(id)")
            }
            // The first revocation's time is kept.
            guard row.revokedAt == nil else { return }
            row.revokedAt = tx.now
            _ = try await tx.save(row)
        }
    }
}
