import Countdowns
import Foundation

/// A feed's settings as its row keeps them: one JSON document
/// (`FeedSettingsDocument`, the same keys as `feeds/*.yaml` and the admin
/// API), so that a new setting needs no column, no migration and no change to
/// either store. Stored as text; decoded only when the feed is read as a
/// feed, not when a poll reads revisions.
public struct FeedSettingsColumn: RawRepresentable, Codable, Sendable, Hashable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Every setting of `feed` but its category colours, keys sorted (equal settings, equal text).
    public init(_ feed: Feed) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        rawValue = (try? encoder.encode(FeedSettingsDocument(stored: feed))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The feed these settings describe: the defaults, with each stored
    /// setting applied by its rule (`FeedSettingsDocument.applyStored`).
    public func feed(slug: String) -> Feed {
        var feed = Feed(slug: slug)
        (try? JSONDecoder().decode(FeedSettingsDocument.self, from: Data(rawValue.utf8)))?.applyStored(to: &feed)
        return feed
    }
}
