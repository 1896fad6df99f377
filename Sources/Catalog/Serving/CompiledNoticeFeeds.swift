import Countdowns
import Foundation
import Notices

/// The notice watcher's view of the compiled feeds: a feed in the catalog,
/// its countdowns and its days left as the renderer counts them for the pages.
package struct CompiledNoticeFeeds: NoticeFeeds {
    package let catalog: FeedCatalog
    package let renderer: FeedRenderer

    package init(catalog: FeedCatalog, renderer: FeedRenderer) {
        self.catalog = catalog
        self.renderer = renderer
    }

    package func watched(slug: String) async -> WatchedFeed? {
        guard catalog.stored(slug: slug) != nil, let compiled = await catalog.feed(slug: slug) else { return nil }
        let renderer = renderer
        return WatchedFeed(feed: compiled.feed, revision: compiled.revision,
                           entries: {
                               compiled.countdowns.map { countdown in
                                   WatchedFeed.Entry(item: .init(id: countdown.id, uid: countdown.uid, title: countdown.title), sequence: countdown.sequence)
                               }
                           },
                           snapshots: { now in renderer.snapshots(compiled, at: now) })
    }
}
