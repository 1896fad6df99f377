import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

extension FeedRenderer {
    /// `/feeds/{slug}.json`'s first page of a feed that is not compiled, from its first rows by place
    /// (`FirstPageRead`, issue #41), under the compiled page's key, with its bytes. Nil: the caller compiles.
    package func firstJSON(_ stored: StoredFeed, identity: CompiledFeed.Identity, query: FeedQuery, store: any CountdownStore) async throws -> Representation? {
        guard query.cursor == nil, query.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.json(identity, minute: minute, query: query)
        if let cached = cache.cached(key) { return cached }
        let asked = FirstPageRead.Query(zone: query.zone, unit: query.unit, language: query.language, category: query.category, limit: query.limit)
        guard let first = try await FirstPageRead.read(stored, revision: identity.revision, redaction: identity.redaction, query: asked,
                                                       at: minuteStart, maxOccurrences: settings.maxOccurrences, store: store) else { return nil }
        let page = jsonPage(first.feed, updatedAt: first.updatedAt, rows: first.rows, calculator: first.calculator, tasks: first.tasks,
                            total: first.total, next: Self.cursor(after: first, identity, minute: minute, fingerprint: query.fingerprint))
        // A category the feed lacks is answered empty and not kept, as a compiled feed does.
        if first.total > 0 || query.category == nil { cache.keep(key, page) }
        return page
    }

    /// `/feeds/{slug}`'s first page (the HTML list) of a feed that is not compiled, read as `firstJSON` is.
    package func firstPage(_ stored: StoredFeed, identity: CompiledFeed.Identity, zone: Zone, path: String, language: Language,
                           store: any CountdownStore) async throws -> Representation? {
        guard stored.feed.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.page(identity, minute: minute, zone: zone, path: path, language: language, offset: 0)
        if let cached = cache.cached(key) { return cached }
        let asked = FirstPageRead.Query(zone: zone, unit: nil, language: language, category: nil, limit: Self.pageSize)
        guard let first = try await FirstPageRead.read(stored, revision: identity.revision, redaction: identity.redaction, query: asked,
                                                       at: minuteStart, maxOccurrences: settings.maxOccurrences, store: store) else { return nil }
        let next = Self.cursor(after: first, identity, minute: minute, fingerprint: FeedQuery.fingerprint(zone: zone, sort: .remaining, language: language))
        let page = htmlPage(first.feed, updatedAt: first.updatedAt, rows: first.rows, zone: zone, path: path, language: language,
                            minuteStart: minuteStart, offset: 0, total: first.total, next: next)
        cache.keep(key, page)
        return page
    }

    /// The cursor of the rows after a first page read by place; nil when it holds them all.
    private static func cursor(after first: FirstPageRead, _ identity: CompiledFeed.Identity, minute: Int, fingerprint: UInt32) -> FeedCursor? {
        guard first.rows.count < first.total else { return nil }
        return FeedCursor(revision: identity.revision, holidaysRevision: identity.holidaysRevision, minute: minute, offset: first.rows.count,
                          fingerprint: fingerprint)
    }
}
