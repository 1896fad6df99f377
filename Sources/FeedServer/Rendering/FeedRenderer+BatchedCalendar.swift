import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

extension FeedRenderer {
    /// `/feeds/{slug}/countdown.ics` of a large feed that is not compiled,
    /// made from its rows in batches (`BatchedCountdownCalendar`, issue #41),
    /// under the compiled calendar's key, with its bytes: made once a day.
    /// Nil when the feed changed while it was read: the caller compiles.
    package func batchedCountdownCalendar(_ stored: StoredFeed, identity: CompiledFeed.Identity, language asked: Language?,
                                          store: any CountdownStore) async throws -> Representation? {
        let shown = identity.redaction.apply(to: stored.feed)
        let zone = shown.zone
        let now = clock()
        let today = LinkTuning().today(at: now, fallback: zone)
        let language = asked ?? shown.language ?? .english
        let key = RenderKey.countdownCalendar(identity, day: today, language: language, tuning: LinkTuning())
        if let cached = cache.cached(key) { return cached }
        guard let (feed, result) = try await BatchedCountdownCalendar.make(slug: stored.feed.slug, revision: identity.revision, redaction: identity.redaction,
                                                                           today: today, zone: zone, language: language, at: now,
                                                                           maxOccurrences: settings.maxOccurrences, store: store) else { return nil }
        var seen = feed
        seen.feed = identity.redaction.apply(to: feed.feed)
        let calendar = countdownCalendar(result, of: seen, shown: seen.feed, today: today, zone: zone)
        cache.keep(key, calendar)
        return calendar
    }
}
