import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

/// An agenda as a reader sees it: the days, the zone they are in, and how
/// many readable feeds a large server left out of it.
package struct FeedAgenda: Sendable {
    package var agenda: Agenda
    package var zone: Zone
    package var from: CivilDate
    /// Readable feeds not in it (`FeedCatalog.summedFeeds`).
    package var left: Int
}

extension FeedCatalog {
    /// What the app's timeline and `GET /api/agenda` show: `dayCount` days
    /// from today of every feed `reader`'s principal may read, or of the one
    /// `slug` names (`feedNotFound` when it may not read it, as for a feed
    /// that does not exist), in `zone`, else the zone most of those feeds use.
    ///
    /// Which feeds is Services' decision (`CountdownService.readable`, the
    /// permission writes use); the occurrences come from the compiled feeds'
    /// series, prepared once, so an agenda parses nothing that is in memory.
    package func agenda(for reader: CountdownService, feed slug: String? = nil, dayCount: Int, zone requested: Zone?,
                        now: Date) async throws -> FeedAgenda {
        var feeds = try await reader.readable(storedFeeds)
        if let slug {
            feeds = feeds.filter { $0.feed.slug == slug }
            guard !feeds.isEmpty else { throw StoreError.feedNotFound(slug) }
        }
        let zone = requested ?? Self.commonZone(of: feeds)
        let (compiled, left) = await feedsToSum(of: feeds)
        let series = compiled.map {
            Agenda.FeedSeries(slug: $0.slug, name: $0.feed.name, color: $0.feed.color, categoryColors: $0.feed.categoryColors, series: $0.series)
        }
        let today = zone.local(of: now).date
        return FeedAgenda(agenda: Agenda(feeds: series, from: today, dayCount: dayCount, zone: zone, now: now), zone: zone, from: today, left: left)
    }

    /// The zone most of `feeds` use (ties: the first by name), else UTC.
    package static func commonZone(of feeds: [StoredFeed]) -> Zone {
        let common = Dictionary(grouping: feeds, by: \.feed.timeZone).max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
        return common.flatMap(Zone.named) ?? .utc
    }
}
