import CountdownStore
import Foundation

/// Bringing the published catalog up to the store (`PublishedFeeds`): after
/// a change here, on each poll, on a PostgreSQL notice.
extension FeedCatalog {
    /// Brings the catalog up to the store: reads the rows of feeds whose
    /// revision changed, drops deleted ones, reloads tokens. Compiles nothing.
    /// `force` reads every row again and drops every compilation (after
    /// `feeds/` was reloaded).
    package func refresh(force: Bool = false) async {
        await refreshes.run { await self.refreshNow(force: force) }
    }

    func refreshNow(force: Bool) async {
        do {
            // Read before the rows: a change committed meanwhile moves it again, and the next poll looks.
            let stamp = try await store.changeStamp()
            let (known, previousTokens, previousIndex, generation, wasRead, previousStamp) = published.withLock {
                ($0.feeds, $0.tokens, $0.index, $0.generation, $0.isRead, $0.stamp)
            }
            // Nothing was written since the last look (the usual poll): one row read, not every feed's.
            if !force, wasRead, let stamp, stamp == previousStamp { return }
            let versions = try await store.feedVersions()
            let tokens = try await store.activeTokens()
            let tokenMap = Dictionary(tokens.map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
            let live = Set(versions.map(\.slug))
            // A feed moved to a space keeps its revision: its row is read again all the same, since who may read it changed.
            let moved = versions.filter { version in known[version.slug].map { $0.revision != version.revision || $0.owner != version.owner } ?? true }
                .map(\.slug)
            let removed = known.keys.filter { !live.contains($0) }
            // Nothing moved (the usual poll, once a second): publish nothing (issue #27).
            if !force, wasRead, tokenMap == previousTokens, moved.isEmpty, removed.isEmpty {
                published.withLock { $0.stamp = stamp }
                return
            }
            var feeds = known
            for slug in removed { feeds[slug] = nil }
            if force || !wasRead || moved.count > 64 {
                feeds = Dictionary(try await store.feeds().map { ($0.feed.slug, $0) }, uniquingKeysWith: { first, _ in first })
            } else {
                for slug in moved { feeds[slug] = try await store.feed(slug: slug) }
            }
            let needed = PublishedFeeds.redactions(feeds: feeds, tokens: tokens)
            let feedsMoved = force || !moved.isEmpty || !removed.isEmpty
            published.withLock {
                $0 = PublishedFeeds(feeds: feeds, heads: feeds.mapValues(PublishedFeeds.Head.init), needed: needed, tokens: tokenMap, index: feedsMoved ? [:] : previousIndex,
                               generation: generation + 1, isRead: true, stamp: stamp)
            }
            compiled.withLock { state in
                state.feeds.removeAll { force || feeds[$0.slug] == nil }
            }
            exports.forget(keeping: Set(feeds.keys))
            for slug in moved { if let old = known[slug], let new = feeds[slug], old.revision != new.revision { changed(new) } }
        } catch {
            logger.error("cannot read feeds from the store; serving what was compiled before", metadata: ["error": "\(error)"])
        }
    }
}
