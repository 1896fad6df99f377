import Countdowns
import ICalendar

/// Everything a clock-dependent representation depends on, as typed values:
/// the feed's revision, the day (countdown calendar) or minute (JSON, pages,
/// cards), and the validated, normalised query. Two requests that must get the
/// same bytes get equal keys; nothing user-controlled enters a key unchecked.
package enum RenderKey: Hashable, Sendable {
    case countdownCalendar(CompiledFeed.Identity, day: CivilDate, language: Language, tuning: LinkTuning)
    /// The exported calendar shaped by its link (`?category=…&to=+90d`); the day only when the link has a window.
    case tunedExport(CompiledFeed.Identity, day: CivilDate?, spelling: OtherCalendarDates, tuning: LinkTuning)
    /// The exported calendar with repeats in other calendars as their RSCALE rule and dates (`?rscale=rule`).
    case exportedWithRule(CompiledFeed.Identity, window: ClosedRange<CivilDate>)
    case json(CompiledFeed.Identity, minute: Int, query: FeedQuery)
    case page(CompiledFeed.Identity, minute: Int, zone: Zone, path: String, language: Language, offset: Int)
    case card(CompiledFeed.Identity, minute: Int, id: Int64, zone: Zone, language: Language)
    /// An exported calendar read from the store (`KeptExport`) for a feed not
    /// compiled in memory. The year is that of the window repeats in other
    /// calendars are spelled out for; the rest of the export's variant is the
    /// server's own, the same for every key.
    case keptExport(slug: String, redaction: Redaction, revision: Int64, year: Int)
    /// An uploaded image: its name is its content's hash, so it never changes.
    case image(sha: String)
}

/// The validated parameters of `/feeds/{slug}.json`. `limit` is clamped to the
/// feed's size and `category` is one the feed has, so a key space an outsider
/// can grow is bounded by the feed itself.
package struct FeedQuery: Hashable, Sendable {
    /// Countdowns a page holds unless `?limit=` says otherwise, and the most it may hold.
    package static let defaultLimit = 100
    package static let maxLimit = 1_000

    package var zone: Zone
    package var unit: DisplayUnit?
    package var limit: Int
    package var category: String?
    package var sort: FeedSnapshot.Sort
    package var language: Language
    /// Where this page starts; nil for the first page.
    package var cursor: FeedCursor?

    package init(zone: Zone, unit: DisplayUnit? = nil, limit: Int = FeedQuery.defaultLimit, category: String? = nil, sort: FeedSnapshot.Sort,
                 language: Language, cursor: FeedCursor? = nil) {
        (self.zone, self.unit, self.limit, self.category, self.sort, self.language, self.cursor) = (zone, unit, limit, category, sort, language, cursor)
    }

    /// What a cursor is bound to: the parameters that order and filter the list.
    package var fingerprint: UInt32 { Self.fingerprint(zone: zone, unit: unit, category: category, sort: sort, language: language) }

    /// The same for the feed's page, which has no unit or category of its own.
    package static func fingerprint(zone: Zone, unit: DisplayUnit? = nil, category: String? = nil, sort: FeedSnapshot.Sort, language: Language) -> UInt32 {
        FeedCursor.fingerprint([zone.identifier, unit?.rawValue ?? "", category ?? "", sort.rawValue, language.code])
    }
}
