import Countdowns
import Foundation

extension CountdownStore {
    /// The feed's countdowns, ordered by first date then title. Never loads image bytes.
    public func countdowns(inFeed slug: String) async throws -> [Countdown] {
        guard let contents = try await feedContents(slug: slug, reusing: [:]) else { throw StoreError.feedNotFound(slug) }
        return contents.countdowns
    }

    public func source(feed slug: String, location: String) async throws -> SourceStatus? {
        try await sources().first { $0.feed == slug && $0.location == location }
    }
}

extension CountdownStore {
    /// A feed and all its countdowns, every row parsed.
    public func feedContents(slug: String) async throws -> (feed: StoredFeed, countdowns: [Countdown])? {
        try await feedContents(slug: slug, reusing: [:])
    }
}

extension CountdownStore {
    /// `feed`'s working days as the server counts them: its weekend, and the
    /// events of the feed its `holidays:` names (none when that feed is gone).
    public func workingDays(of feed: Feed, now: Date) async throws -> WorkingDays {
        guard let slug = feed.holidays, let holidays = try await self.feed(slug: slug) else { return WorkingDays(weekend: feed.weekend) }
        let zone = holidays.feed.zone
        let series = try await countdowns(inFeed: slug).map {
            CountdownSeries($0, preparedAt: now, floatingZone: zone, maxOccurrences: limits.maxOccurrences)
        }
        return WorkingDays(weekend: feed.weekend, holidays: series, today: feed.zone.local(of: now).date, zone: zone)
    }
}

extension CountdownStore {
    /// The exported calendar kept for `slug`'s `view`, bytes included.
    public func keptExport(slug: String, view: Redaction) async throws -> KeptExport? {
        try await keptExport(slug: slug, view: view, bodyUpTo: .max)
    }
}
