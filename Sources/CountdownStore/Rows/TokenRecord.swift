import Countdowns
import Foundation

/// A `feedToken` row, the same in every store: a secret link to one feed,
/// kept as the SHA-256 of the secret (shown once, when made).
public struct TokenRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var feedId: Int64
    public var label: String
    public var tokenHash: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    /// How much of the feed the link shows.
    public var visibility: Visibility

    public init(id: Int64? = nil, feedId: Int64, label: String, tokenHash: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil,
                visibility: Visibility) {
        self.id = id
        self.feedId = feedId
        self.label = label
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.visibility = visibility
    }

    /// The token as callers see it, under its feed's slug.
    public func token(feed slug: String) throws(StoreError) -> FeedToken {
        FeedToken(id: try savedID(), feed: slug, label: label, visibility: visibility, createdAt: createdAt, lastUsedAt: lastUsedAt, revokedAt: revokedAt)
    }
}
