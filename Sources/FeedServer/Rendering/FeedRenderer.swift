import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// Store → Countdowns → ICalendar writer → bytes, for each kind of output, through
/// the render cache. Time-dependent outputs carry the day (countdown calendar) or
/// minute (JSON, HTML, SVG) in their cache key and in Last-Modified.
struct FeedRenderer: Sendable {
    let store: CountdownStore
    let cache: RenderCache
    let clock: @Sendable () -> Date
    let baseURL: String
    let gzip: Bool

    static let calendarType = "text/calendar; charset=utf-8"

    /// "Now" rounded down to the minute: JSON, pages and cards change at most once a minute.
    private var minute: (key: Int, start: Date) {
        let key = Int(clock().timeIntervalSince1970 / 60)
        return (key, Date(timeIntervalSince1970: Double(key * 60)))
    }

    private func calculator(at now: Date, _ zone: Zone) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: now, zone: zone, maxOccurrences: store.limits.maxOccurrences)
    }

    func cacheControl(_ feed: Feed, maxAge: Int) -> String { (feed.isPublic ? "public" : "private") + ", max-age=\(maxAge)" }

    /// The exported calendar: the countdowns' own events, repeats as RRULE.
    func exportedCalendar(_ stored: StoredFeed, pathPrefix: String, download: Bool = false) throws -> Representation {
        let key = RenderCache.Key(slot: "ics|\(stored.feed.slug)|\(pathPrefix)|\(download)", version: "\(stored.revision)")
        return try cache.value(for: key) {
            let calendar = CalendarExport.calendar(feed: stored.feed, countdowns: try store.countdowns(inFeed: stored.feed.slug),
                                                   imageURL: { reference in self.imageURL(reference) })
            return Representation(bytes: CalendarWriter().bytes(calendar), contentType: Self.calendarType, lastModified: stored.updatedAt,
                                  cacheControl: cacheControl(stored.feed, maxAge: 300),
                                  contentDisposition: "\(download ? "attachment" : "inline"); filename=\"\(stored.feed.slug).ics\"", gzip: gzip)
        }
    }

    /// The countdown calendar, re-rendered when the day changes in the feed's zone.
    func countdownCalendar(_ stored: StoredFeed) throws -> Representation {
        let zone = Zone.named(stored.feed.timeZone) ?? .utc
        let now = clock()
        let today = zone.local(of: now).date
        let key = RenderCache.Key(slot: "countdown|\(stored.feed.slug)|", version: "\(stored.revision)|\(today.iso)")
        return try cache.value(for: key) {
            let calendar = CountdownCalendar(feed: stored.feed, today: today, zone: zone, maxOccurrences: store.limits.maxOccurrences)
                .calendar(for: try store.countdowns(inFeed: stored.feed.slug))
            let dayStart = zone.instant(of: LocalDateTime(date: today))
            return Representation(bytes: CalendarWriter().bytes(calendar), contentType: Self.calendarType,
                                  lastModified: max(stored.updatedAt, dayStart), cacheControl: cacheControl(stored.feed, maxAge: 900),
                                  contentDisposition: "inline; filename=\"\(stored.feed.slug)-countdown.ics\"", gzip: gzip)
        }
    }

    struct JSONQuery: Sendable, Hashable {
        var zone: Zone
        var unit: DisplayUnit?
        var limit: Int?
        var category: String?
        var sort: FeedSnapshot.Sort
    }

    func json(_ stored: StoredFeed, query: JSONQuery) throws -> Representation {
        let (minute, minuteStart) = self.minute
        let slot = "json|\(stored.feed.slug)|\(query.zone.identifier)|\(query.unit?.rawValue ?? "")|\(query.limit ?? 0)|\(query.category ?? "")|\(query.sort.rawValue)"
        return try cache.value(for: .init(slot: slot, version: "\(stored.revision)|\(minute)")) {
            var countdowns = try store.countdowns(inFeed: stored.feed.slug)
            if let category = query.category?.lowercased() { countdowns = countdowns.filter { $0.categories.contains { $0.lowercased() == category } } }
            var snapshot = FeedSnapshot(feed: stored.feed, countdowns: countdowns, calculator: calculator(at: minuteStart, query.zone),
                                        unit: query.unit, sort: query.sort,
                                        imageURL: { self.imageURL($0) })
            if let limit = query.limit { snapshot.countdowns = Array(snapshot.countdowns.prefix(limit)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Representation(bytes: Array(try encoder.encode(snapshot)), contentType: "application/json; charset=utf-8",
                                  lastModified: max(stored.updatedAt, minuteStart), cacheControl: cacheControl(stored.feed, maxAge: 60), gzip: gzip)
        }
    }

    func page(_ stored: StoredFeed, zone: Zone, pathPrefix: String) throws -> Representation {
        let (minute, minuteStart) = self.minute
        let key = RenderCache.Key(slot: "html|\(stored.feed.slug)|\(pathPrefix)|\(zone.identifier)", version: "\(stored.revision)|\(minute)")
        return try cache.value(for: key) {
            let rows = FeedSnapshot.rows(try store.countdowns(inFeed: stored.feed.slug), calculator: calculator(at: minuteStart, zone))
            let html = FeedPage.render(feed: stored.feed, rows: rows, links: FeedPage.links(baseURL: baseURL, path: pathPrefix),
                                       cardPath: { "\(pathPrefix)/\($0.id ?? 0).svg" }, imageURL: { self.imageURL($0) })
            return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                                  lastModified: max(stored.updatedAt, minuteStart), cacheControl: cacheControl(stored.feed, maxAge: 60))
        }
    }

    struct CountdownNotFound: Error {}

    /// The countdown is only read from the store when the cached card is stale.
    func card(_ stored: StoredFeed, id: Int64, zone: Zone) throws -> Representation? {
        let (minute, minuteStart) = self.minute
        let key = RenderCache.Key(slot: "svg|\(stored.feed.slug)|\(id)|\(zone.identifier)", version: "\(stored.revision)|\(minute)")
        do {
            return try cache.value(for: key) {
                guard let (countdown, slug) = try? store.countdown(id: id), slug == stored.feed.slug else { throw CountdownNotFound() }
                let svg = SVGCard.render(CardFace(countdown: countdown, remaining: calculator(at: minuteStart, zone).remaining(for: countdown)))
                return Representation(bytes: Array(svg.utf8), contentType: "image/svg+xml; charset=utf-8",
                                      lastModified: max(stored.updatedAt, minuteStart), cacheControl: cacheControl(stored.feed, maxAge: 300))
            }
        } catch is CountdownNotFound {
            return nil
        }
    }

    /// Uploaded blobs are served from /images/<sha256>; URIs stay as they are.
    func imageURL(_ reference: String) -> String? {
        guard reference.hasPrefix(CountdownStore.imageScheme) else { return reference }
        return baseURL + "/images/" + reference.dropFirst(CountdownStore.imageScheme.count)
    }
}
