import Countdowns
import Foundation
import ICalendar

extension CountdownStore {
    /// Imports a calendar into a feed in one transaction: upsert by (feed, UID),
    /// SEQUENCE and LAST-MODIFIED rise only on a real change, and any failure
    /// (strict-mode errors, limits, a crash) leaves the store as it was.
    /// `progress` is called with (done, total) as rows are written.
    ///
    /// Parsing runs on a thread of its own (`Offload`): a 50 MB calendar takes
    /// seconds of CPU, which must not hold one of the cooperative pool's threads.
    public func importCalendar(_ data: some Collection<UInt8> & Sendable, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let limits = self.limits
        let batch = try await Offload.run { try ImportBatch.read(ICalendarParser.decode(data), slug: slug, options: options, limits: limits) }
        return try await apply(batch, intoFeed: slug, options: options, progress: progress)
    }

    /// Imports a file, as `importCalendar(_:…)` does. The file's bytes are let go
    /// once decoded, before the component tree is built, so a 55 MB calendar is
    /// not held twice at the peak.
    public func importCalendar(contentsOf url: URL, intoFeed slug: String, options: ImportOptions = ImportOptions(),
                               progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        let limits = self.limits
        let batch = try await Offload.run {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            if let size, size > limits.maxInputBytes { throw StoreError.tooLarge(bytes: size, limit: limits.maxInputBytes) }
            let decoded: ICalendarParser.Decoded = try {
                let data = try Data(contentsOf: url)
                guard data.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: data.count, limit: limits.maxInputBytes) }
                return ICalendarParser.decode(data)
            }()
            return try ImportBatch.read(decoded, slug: slug, options: options, limits: limits)
        }
        return try await apply(batch, intoFeed: slug, options: options, progress: progress)
    }
}

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
    /// Stores `bytes` under `key`, replacing what is there.
    @discardableResult
    public func setPersistedValue(_ bytes: Data, for key: String, expiresIn: TimeInterval?) async throws -> Bool {
        try await setPersistedValue(bytes, for: key, expiresIn: expiresIn, onlyIfAbsent: false)
    }

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
