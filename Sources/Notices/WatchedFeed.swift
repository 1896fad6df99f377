import Countdowns
import Foundation

/// A feed as the notice watcher sees it: what the server serves now, read
/// through a port (`NoticeFeeds`) so that this target needs no HTTP server.
package struct WatchedFeed: Sendable {
    /// One countdown as far as notices tell it apart: a new SEQUENCE or title is a change.
    package struct Entry: Sendable, Equatable {
        package var item: Notice.Item
        package var sequence: Int

        package init(item: Notice.Item, sequence: Int) {
            self.item = item
            self.sequence = sequence
        }
    }

    package var feed: Feed
    package var revision: Int64
    /// Every countdown's entry: a pass over the feed, taken only when its revision moved.
    package var entries: @Sendable () -> [Entry]
    /// Each countdown's days left as at an instant, in the feed's zone and language.
    package var snapshots: @Sendable (Date) -> [CountdownSnapshot]

    package init(feed: Feed, revision: Int64, entries: @escaping @Sendable () -> [Entry], snapshots: @escaping @Sendable (Date) -> [CountdownSnapshot]) {
        self.feed = feed
        self.revision = revision
        self.entries = entries
        self.snapshots = snapshots
    }
}

/// Where the watcher reads the feeds it tells about: the server's compiled feeds.
package protocol NoticeFeeds: Sendable {
    /// The feed as served now, or nil when it is not served (any more).
    func watched(slug: String) async -> WatchedFeed?
}
