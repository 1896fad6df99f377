import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// The published catalog: every feed's row and the live tokens, as the store
/// had them at the last refresh, with what a read checks first (`Head`) and
/// the index pages rendered from them. A value: `FeedCatalog` keeps it behind
/// one lock and replaces it whole when a refresh finds a change, so a request
/// reads one consistent catalog.
package struct PublishedFeeds: Sendable {
    /// Every feed's row, by slug.
    package var feeds: [String: StoredFeed] = [:]
    /// What a read checks a compilation against, small enough to copy on
    /// the hot path (a `StoredFeed` copy retains every string of its settings).
    package var heads: [String: Head] = [:]
    /// The redacted views each feed may be read as: `.classified` for a
    /// public feed, and `.titles` or `.busy` where a token has that visibility.
    package var needed: [String: Set<Redaction>] = [:]
    /// Hash of a token's secret → the token and the feed it opens.
    package var tokens: [String: ActiveToken] = [:]
    /// `/` in each language asked for (by code), rendered with the feeds it
    /// lists: empty after a change until first asked for (`index(in:)`), so
    /// that a change costs no render of every feed.
    package var index: [String: Representation] = [:]
    /// Moves with every published change of the feeds, so that an index
    /// rendered from older feeds is not kept.
    package var generation = 0
    /// False until the store's catalog was first read (`/healthz` says "starting").
    package var isRead = false
    /// The store's change stamp this was read at (nil: the store keeps none).
    package var stamp: Int64?

    package struct Head: Sendable {
        package var revision: Int64
        package var holidays: String?
        /// Where the feed's year turns: which kept export a read takes, known without its `StoredFeed`.
        package var zone: Zone
        /// Whether anyone may read it (`Authorization.view`), known without its `StoredFeed`.
        package var isPublic: Bool

        package init(_ stored: StoredFeed) {
            revision = stored.revision
            isPublic = stored.feed.isPublic
            holidays = stored.feed.holidays
            zone = stored.feed.zone
        }
    }

    /// Which redacted views each feed needs: the public one for a public feed,
    /// and one per visibility its live tokens have.
    package static func redactions(feeds: [String: StoredFeed], tokens: [ActiveToken]) -> [String: Set<Redaction>] {
        var needed: [String: Set<Redaction>] = [:]
        for (slug, stored) in feeds where stored.feed.isPublic { needed[slug, default: []].insert(.classified) }
        for token in tokens where feeds[token.slug] != nil { needed[token.slug, default: []].insert(Redaction(link: token.visibility)) }
        for slug in needed.keys { needed[slug]?.remove(.none) }
        return needed
    }
}
