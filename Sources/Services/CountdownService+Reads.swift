import Countdowns
import CountdownStore
import Foundation

/// What the principal may read, as use cases: the admin API, the web app and
/// the command line read through here, so that `Authorization` decides reads
/// as it decides writes (a list holds only the feeds the principal may read).
/// The serving catalog reads the store itself: it serves what each request's
/// token or page allows, and caches it.
extension CountdownService {
    /// The feeds the principal may read, by slug.
    public func feeds() async throws -> [StoredFeed] {
        try await readable(try await store.feeds())
    }

    public func feed(slug: String) async throws -> StoredFeed? {
        try await authorize(.readFeed(slug))
        return try await store.feed(slug: slug)
    }

    /// The feed, or `feedNotFound`.
    public func requireFeed(slug: String) async throws -> StoredFeed {
        guard let stored = try await feed(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return stored
    }

    /// One countdown and the slug of its feed. One in a feed the principal
    /// may not see is answered as a missing id is: naming its feed told that a
    /// private feed exists, and its address (issue #59).
    public func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String) {
        let found = try await store.countdown(id: id)
        do {
            try await authorize(.readFeed(found.feed))
        } catch StoreError.feedNotFound(found.feed) {
            throw StoreError.countdownNotFound(id)
        }
        return found
    }

    /// The feed as it is exported, with every countdown (what `tminus export` writes).
    public func feedContents(slug: String) async throws -> (feed: StoredFeed, countdowns: [Countdown]) {
        try await authorize(.readFeed(slug))
        guard let contents = try await store.feedContents(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return contents
    }

    /// The feed's countdowns, soonest first.
    public func countdowns(inFeed slug: String) async throws -> [Countdown] {
        try await authorize(.readFeed(slug))
        return try await store.countdowns(inFeed: slug)
    }

    public func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try await authorize(.readFeed(slug))
        return try await store.feedTokens(feed: slug)
    }

    /// The feed's sources and how their last fetch went, by location.
    public func sources(feed slug: String) async throws -> [SourceStatus] {
        try await authorize(.readFeed(slug))
        return try await store.sources(feed: slug)
    }

    /// Every feed's sources and how their last fetch went (what health and the fetcher show).
    public func sources() async throws -> [SourceStatus] {
        try await authorize(.administer)
        return try await store.sources()
    }

    /// Every subscription the fetcher keeps, by feed and location.
    public func subscriptions() async throws -> [SourceSubscription] {
        try await authorize(.administer)
        return try await store.subscriptions()
    }

    /// The sources the feed keeps fetching, by location.
    public func subscriptions(feed slug: String) async throws -> [SourceSubscription] {
        try await authorize(.readFeed(slug))
        return try await store.subscriptions(feed: slug)
    }

    public func setting(_ key: SettingKey) async throws -> String? {
        try await authorize(.administer)
        return try await store.setting(key)
    }

    /// The bytes behind a `tminus-image:` reference. No permission: an image
    /// is addressed by the SHA-256 of its bytes, and served to whoever has
    /// the reference (public feeds show them).
    public func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        try await store.image(reference)
    }

    /// `feed`'s working days: its weekend, and the events of the feed its `holidays:` names.
    public func workingDays(of feed: Feed, now: Date) async throws -> WorkingDays {
        try await authorize(.readFeed(feed.slug))
        return try await store.workingDays(of: feed, now: now, maxOccurrences: limits.maxOccurrences)
    }
}
