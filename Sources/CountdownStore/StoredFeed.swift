import Countdowns
import Foundation

/// A feed as stored: its definition plus what clients need for caching.
public struct StoredFeed: Sendable, Hashable {
    public var id: Int64
    public var feed: Feed
    public var countdownCount: Int
    /// The last change to the feed or any of its countdowns (never moves back).
    public var updatedAt: Date
    /// Rises with every change: a cache key that a stalled clock cannot fool.
    public var revision: Int64
    /// Whose it is: a person's, a space's, or (both nil) the operator's.
    public var personId: Int64?
    public var spaceId: Int64?

    public init(id: Int64, feed: Feed, countdownCount: Int, updatedAt: Date, revision: Int64, personId: Int64? = nil, spaceId: Int64? = nil) {
        self.id = id
        self.feed = feed
        self.countdownCount = countdownCount
        self.updatedAt = updatedAt
        self.revision = revision
        self.personId = personId
        self.spaceId = spaceId
    }
}

/// A feed's identity and how far it has changed.
public struct FeedVersion: Sendable, Hashable {
    public var slug: String
    public var revision: Int64
    /// Whose it is. A move to a space changes who may read it but not its
    /// contents (so not its revision): what a server keeps must follow both.
    public var owner: StorageOwner?

    public init(slug: String, revision: Int64, owner: StorageOwner? = nil) {
        self.slug = slug
        self.revision = revision
        self.owner = owner
    }
}

extension StoredFeed {
    /// Whose it is: a space's, a person's, or (nil) the operator's.
    public var owner: StorageOwner? { StorageOwner(personId: personId, spaceId: spaceId) }
}

/// A live feed token: the hash of its secret and the feed it opens.
public struct ActiveToken: Sendable, Hashable {
    public var id: Int64
    public var hash: String
    public var slug: String
    public var visibility: Visibility

    public init(id: Int64, hash: String, slug: String, visibility: Visibility) {
        self.id = id
        self.hash = hash
        self.slug = slug
        self.visibility = visibility
    }
}

/// A URL that a feed keeps fetched (added from the web app).
public struct SourceSubscription: Sendable, Hashable {
    public var feed: String
    public var location: String
    /// Its login, sealed; only the server holding the key can open it.
    public var login: String?
    /// Its rules as written (YAML: `include:`, `exclude:`, `change:`); nil for none.
    public var rules: String?

    public init(feed: String, location: String, login: String? = nil, rules: String? = nil) {
        self.feed = feed
        self.location = location
        self.login = login
        self.rules = rules
    }
}
