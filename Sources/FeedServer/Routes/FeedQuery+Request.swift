import Catalog
import Countdowns
@preconcurrency import Crypto
import Hummingbird
import ICalendar

extension FeedQuery {
    /// Validates and normalises `/feeds/{slug}.json`'s query: an unknown `tz`,
    /// `unit`, `sort` or `lang` is a 400; `limit` (default 100) is clamped to
    /// 1,000 and to the feed's size; `category` is lower-cased; a `cursor` must
    /// be one this server wrote, for these parameters, and for the feed's
    /// current revision (409 after a change: start again from the first page). JSON ignores `Accept-Language`: its words
    /// follow `?lang=` or the feed's language, whatever client asks.
    package init(_ request: Request, _ compiled: CompiledFeed, cursorKey: SymmetricKey) throws {
        try self.init(request, feed: compiled.feed, countdownCount: compiled.series.count)
        cursor = try FeedCursor(request, compiled, fingerprint: fingerprint, key: cursorKey)
    }

    /// The same without a cursor (which only a compilation checks): a first
    /// page, answered before the feed is compiled (`FirstPage`).
    package init(_ request: Request, feed: Feed, countdownCount: Int) throws {
        let query = request.uri.queryParameters
        let zone = try ViewerZone.fromQuery(query.get("tz"), default: feed.zone)
        var unit: DisplayUnit?
        if let raw = query.get("unit") {
            guard let parsed = DisplayUnit(rawValue: raw) else {
                throw HTTPError(.badRequest, message: "unit must be one of \(DisplayUnit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            unit = parsed
        }
        var limit = FeedQuery.defaultLimit
        if let raw = query.get("limit") {
            guard let parsed = Int(raw), parsed > 0 else { throw HTTPError(.badRequest, message: "limit must be a positive integer (at most \(FeedQuery.maxLimit))") }
            limit = min(parsed, FeedQuery.maxLimit)
        }
        var sort = feed.sort
        if let raw = query.get("sort") {
            guard let parsed = FeedSnapshot.Sort(rawValue: raw) else { throw HTTPError(.badRequest, message: "sort must be remaining or title") }
            sort = parsed
        }
        self.init(zone: zone, unit: unit, limit: max(1, min(limit, countdownCount)), category: query.get("category").map { $0.lowercased() }, sort: sort,
                  language: try ViewerLanguage.resolve(request, feed: feed, negotiating: false))
    }
}

extension FeedCursor {
    /// The request's `?cursor=`, checked against the feed and the parameters it
    /// was made for; nil when there is none. Its offset is within the feed:
    /// a cursor past the end (which no walk writes) is refused like a forged one.
    package init?(_ request: Request, _ compiled: CompiledFeed, fingerprint: UInt32, key: SymmetricKey) throws {
        guard let raw = request.uri.queryParameters.get("cursor") else { return nil }
        guard let cursor = FeedCursor(text: String(raw), key: key), cursor.offset <= compiled.series.count else {
            throw HTTPError(.badRequest, message: "cursor is not one this server wrote: start from the first page, without cursor")
        }
        guard cursor.revision == compiled.revision, cursor.holidaysRevision == compiled.holidaysRevision else {
            throw HTTPError(.conflict, message: "the feed changed since this cursor was made: start again from the first page, without cursor")
        }
        guard cursor.fingerprint == fingerprint else {
            throw HTTPError(.badRequest, message: "this cursor was made for other parameters: keep tz, unit, category, sort and lang as they were on the first page")
        }
        self = cursor
    }
}
