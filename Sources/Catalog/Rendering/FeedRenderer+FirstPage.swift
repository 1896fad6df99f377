import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

extension FeedRenderer {
    /// A first page read by place that is not kept: the rows did not settle it
    /// (the caller compiles), or it is an empty page of a category to answer once.
    private enum FirstPageUnsettled: Error {
        case unsettled
        case notKept(Representation)
    }

    /// `/feeds/{slug}.json`'s first page of a feed that is not compiled, from its first rows by place
    /// (`FirstPageRead`, issue #41), under the compiled page's key, with its bytes. Nil: the caller compiles.
    package func firstJSON(_ stored: StoredFeed, identity: CompiledFeed.Identity, query: FeedQuery) async throws -> Representation? {
        guard query.cursor == nil, query.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.json(identity, minute: minute, query: query)
        let asked = FirstPageRead.Query(zone: query.zone, unit: query.unit, language: query.language, category: query.category, limit: query.limit)
        do {
            // Once, however many ask meanwhile (`RenderCache.value`): 64 first requests each read and compiled the rows before.
            return try await cache.value(for: key) { [self] in
                guard let first = try await FirstPageRead.read(stored, revision: identity.revision, redaction: identity.redaction, query: asked,
                                                               at: minuteStart, maxOccurrences: settings.maxOccurrences, store: store) else {
                    throw FirstPageUnsettled.unsettled
                }
                let page = jsonPage(first.feed, updatedAt: first.updatedAt, rows: first.rows, calculator: first.calculator, tasks: first.tasks,
                                    total: first.total, next: Self.cursor(after: first, identity, minute: minute, fingerprint: query.fingerprint))
                // A category the feed lacks is answered empty and not kept, as a compiled feed does.
                if first.total == 0, query.category != nil { throw FirstPageUnsettled.notKept(page) }
                return page
            }
        } catch let unsettled as FirstPageUnsettled {
            if case .notKept(let page) = unsettled { return page }
            return nil
        }
    }

    /// `/feeds/{slug}`'s first page (the HTML list) of a feed that is not compiled, read as `firstJSON` is.
    package func firstPage(_ stored: StoredFeed, identity: CompiledFeed.Identity, zone: Zone, path: String, language: Language) async throws -> Representation? {
        guard stored.feed.sort == .remaining else { return nil }
        let (minute, minuteStart) = self.minute
        let key = RenderKey.page(identity, minute: minute, zone: zone, path: path, language: language, offset: 0)
        let asked = FirstPageRead.Query(zone: zone, unit: nil, language: language, category: nil, limit: Self.pageSize)
        do {
            return try await cache.value(for: key) { [self] in
                guard let first = try await FirstPageRead.read(stored, revision: identity.revision, redaction: identity.redaction, query: asked,
                                                               at: minuteStart, maxOccurrences: settings.maxOccurrences, store: store) else {
                    throw FirstPageUnsettled.unsettled
                }
                let next = Self.cursor(after: first, identity, minute: minute,
                                       fingerprint: FeedQuery.fingerprint(zone: zone, sort: .remaining, language: language))
                return htmlPage(first.feed, updatedAt: first.updatedAt, rows: first.rows, zone: zone, path: path, language: language,
                                minuteStart: minuteStart, offset: 0, total: first.total, next: next)
            }
        } catch is FirstPageUnsettled {
            return nil
        }
    }

    /// The cursor of the rows after a first page read by place; nil when it holds them all.
    private static func cursor(after first: FirstPageRead, _ identity: CompiledFeed.Identity, minute: Int, fingerprint: UInt32) -> FeedCursor? {
        guard first.rows.count < first.total else { return nil }
        return FeedCursor(revision: identity.revision, holidaysRevision: identity.holidaysRevision, minute: minute, offset: first.rows.count,
                          fingerprint: fingerprint)
    }
}
