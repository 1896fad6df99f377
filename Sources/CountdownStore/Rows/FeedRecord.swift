import Countdowns
import Foundation

/// A `feed` row, the same in every store: the feed's identity, its settings
/// as one document, and the stamps of its last change. Its Codable
/// conformance is the mapping to columns: SQLite reads and writes it through
/// GRDB (`FeedRecord+GRDB`), PostgreSQL through `RowCoding` and `StoreTable`.
public struct FeedRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var slug: String
    /// Every setting but the category colours (schema v12; before, a column each).
    public var settings: FeedSettingsColumn
    public var createdAt: Date
    /// The last change to the feed or any of its countdowns (never moves back).
    public var updatedAt: Date
    /// Rises with every change: what tells every server to compile the feed again.
    public var revision: Int64 = 0
    /// Whose feed it is (schema v13): a person's, a space's, or (both nil) the
    /// operator's, as every feed was before people: feed files' feeds, and
    /// those made by the owner or the admin token.
    public var personId: Int64?
    public var spaceId: Int64?

    public init(_ feed: Feed, now: Date) {
        slug = feed.slug
        settings = FeedSettingsColumn(feed)
        createdAt = now
        updatedAt = now
    }

    /// A row as a store read it.
    public init(id: Int64?, slug: String, settings: FeedSettingsColumn, createdAt: Date, updatedAt: Date, revision: Int64, personId: Int64?, spaceId: Int64?) {
        self.id = id
        self.slug = slug
        self.settings = settings
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.revision = revision
        self.personId = personId
        self.spaceId = spaceId
    }

    /// Takes `feed`'s settings (not its slug, stamps or revision).
    public mutating func apply(_ feed: Feed) {
        settings = FeedSettingsColumn(feed)
    }

    public func feed(categoryColors: [String: String]) -> Feed {
        var feed = settings.feed(slug: slug)
        feed.categoryColors = categoryColors
        return feed
    }
}

extension StoredFeed {
    /// A stored row as callers see it: every store builds it the same way.
    public init(_ record: FeedRecord, tally: FeedTally) throws(StoreError) {
        self.init(id: try record.savedID(), feed: record.feed(categoryColors: tally.categoryColors), countdownCount: tally.countdownCount,
                  updatedAt: record.updatedAt, revision: record.revision, personId: record.personId, spaceId: record.spaceId)
    }
}
