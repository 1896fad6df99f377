import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

extension FeedRenderer {
    /// The feed changed while its rows were read: no calendar is kept, the caller compiles.
    private struct ChangedWhileRead: Error {}

    /// `/feeds/{slug}/countdown.ics` of a large feed that is not compiled,
    /// made from its rows in batches (`BatchedCountdownCalendar`, issue #41),
    /// under the compiled calendar's key, with its bytes: made once a day.
    /// Nil when the feed changed while it was read: the caller compiles.
    package func batchedCountdownCalendar(_ stored: StoredFeed, identity: CompiledFeed.Identity, language asked: Language?) async throws -> Representation? {
        let shown = identity.redaction.apply(to: stored.feed)
        let zone = shown.zone
        let now = clock()
        let today = LinkTuning().today(at: now, fallback: zone)
        let language = asked ?? shown.language ?? .english
        let key = RenderKey.countdownCalendar(identity, day: today, language: language, tuning: LinkTuning())
        // Once, however many ask meanwhile: 64 clients of a 10k feed each made it (a second of work apiece on two cores), none within
        // wrk's two seconds, and every other output of the server waited behind them (bench/serving.py).
        do {
            return try await cache.value(for: key) { [self] in
                guard let (feed, result) = try await BatchedCountdownCalendar.make(
                    slug: stored.feed.slug, revision: identity.revision, redaction: identity.redaction, today: today, zone: zone, language: language,
                    at: now, maxOccurrences: settings.maxOccurrences, store: store) else { throw ChangedWhileRead() }
                var seen = feed
                seen.feed = identity.redaction.apply(to: feed.feed)
                return countdownCalendar(result, of: seen, shown: seen.feed, today: today, zone: zone)
            }
        } catch is ChangedWhileRead {
            return nil
        }
    }
}
