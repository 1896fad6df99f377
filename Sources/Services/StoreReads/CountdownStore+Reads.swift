import Countdowns
import CountdownStore
import Foundation

/// What callers read, as they see it (feeds with their counts, countdowns
/// parsed, tokens and sources under their feed's slug), built once over the
/// scoped reads for every store.
extension CountdownStore {
    /// Every feed, ordered by slug.
    package func feeds() async throws -> [StoredFeed] {
        try await read { reader in try await reader.storedFeeds(try await reader.feedRows(nil, lock: false)) }
    }

    package func feed(slug: String) async throws -> StoredFeed? {
        try await read { reader in try await reader.feedRow(slug: slug).asyncMap { try await reader.storedFeed($0) } }
    }

    /// See `StoreReader.changeStamp`.
    package func changeStamp() async throws -> Int64? {
        try await read { try await $0.changeStamp() }
    }

    /// Every feed's slug and revision: read whenever a change may have happened.
    package func feedVersions() async throws -> [FeedVersion] {
        try await read { reader in try await reader.feedRows(nil, lock: false).map { FeedVersion(slug: $0.slug, revision: $0.revision, owner: StorageOwner($0)) } }
    }

    /// One countdown and the slug of its feed.
    package func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String) {
        try await read { reader in
            let row = try await reader.requireCountdown(id)
            guard let feed = try await reader.feedRow(id: row.feedId) else { throw StoreError.countdownNotFound(id) }
            return (try await reader.countdown(row), feed.slug)
        }
    }

    /// A feed and all its countdowns as of its revision, the feed as it is
    /// exported (its refresh interval worked out when it sets none). Countdowns in `known`
    /// whose row has not changed (same sequence, stamps and source) are reused
    /// instead of parsed again; the others are parsed on a thread of their own.
    /// The feed row is read first, so what comes with it is never older than
    /// its revision says (a change committed meanwhile is compiled again when
    /// its revision is seen).
    package func feedContents(slug: String, reusing known: [Int64: Countdown] = [:]) async throws -> (feed: StoredFeed, countdowns: [Countdown])? {
        guard let (feed, rows, sources) = try await read({ reader -> (StoredFeed, [CountdownRecord], [Int64: String])? in
            guard let row = try await reader.feedRow(slug: slug) else { return nil }
            let feedId = try row.savedID()
            let feed = try await reader.exportable(try await reader.storedFeed(row))
            let rows = try await reader.countdownRows(.feed(feedId, uid: nil))
            let sources = try await reader.sourceRows(feedId: feedId, lock: false).reduce(into: [Int64: String]()) { $0[$1.id ?? 0] = $1.location }
            return (feed, rows, sources)
        }) else { return nil }
        let countdowns = try await Offload.run {
            let shared = SharedValues()
            return try rows.map { row in
                let source = row.sourceId.flatMap { sources[$0] }
                let id = try row.savedID()
                if let old = known[id], RowStamp(id: id, sequence: row.sequence, created: row.createdAt, lastModified: row.lastModified, source: source).matches(old) {
                    return old
                }
                var countdown = try row.countdown(source: source)
                shared.share(&countdown)
                return countdown
            }
        }
        var stored = feed
        stored.countdownCount = countdowns.count
        return (stored, countdowns)
    }

    /// The feed's countdowns, ordered by first date then title. Never loads image bytes.
    package func countdowns(inFeed slug: String) async throws -> [Countdown] {
        guard let contents = try await feedContents(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return contents.countdowns
    }

    /// Every token that is not revoked, to answer `/t/{token}/…` from memory.
    package func activeTokens() async throws -> [ActiveToken] {
        try await read { reader in
            let slugs = try await reader.feedRows(nil, lock: false).reduce(into: [Int64: String]()) { $0[$1.id ?? 0] = $1.slug }
            return try await reader.tokenRows(feedId: nil).compactMap { row in
                guard row.revokedAt == nil, let id = row.id, let slug = slugs[row.feedId] else { return nil }
                return ActiveToken(id: id, hash: row.tokenHash, slug: slug, visibility: row.visibility)
            }
        }
    }

    package func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try await read { reader in
            let feed = try await reader.requireFeed(slug)
            return try await reader.tokenRows(feedId: try feed.savedID()).map { try $0.token(feed: slug) }
        }
    }

    package func setting(_ key: SettingKey) async throws -> String? {
        try await read { reader in try await reader.setting(key) }
    }

    /// The bytes behind a `tminus-image:` reference.
    package func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        guard let digest = StoredImage.digest(in: reference) else { return nil }
        return try await read { reader in try await reader.image(digest: digest) }.map { ($0.bytes, $0.mimeType) }
    }

    /// The live value under `key`, or nil when there is none or it has expired.
    package func persistedValue(for key: String, now: Date) async throws -> PersistedValue? {
        try await read { reader in try await reader.value(for: .entry(keyHash: Secret.hash(key))) }.flatMap { $0.isLive(at: now) ? $0 : nil }
    }

    /// Every source with how its last fetch went, by feed and location.
    package func sources() async throws -> [SourceStatus] {
        try await sourcesWithFeeds().map(Self.status)
    }

    /// The sources the feeds keep fetching, by feed and location.
    package func subscriptions() async throws -> [SourceSubscription] {
        try await sourcesWithFeeds().filter(\.source.subscribed).map(Self.subscription)
    }

    /// One feed's sources, by location.
    package func sources(feed slug: String) async throws -> [SourceStatus] {
        try await sourcesWithFeeds(slug).map(Self.status)
    }

    /// The sources one feed keeps fetching, by location.
    package func subscriptions(feed slug: String) async throws -> [SourceSubscription] {
        try await sourcesWithFeeds(slug).filter(\.source.subscribed).map(Self.subscription)
    }

    /// The feed's source at `location`; nil when there is none, or no such feed.
    package func source(feed slug: String, location: String) async throws -> SourceStatus? {
        guard try await feed(slug: slug) != nil else { return nil }
        return try await sources(feed: slug).first { $0.location == location }
    }

    /// The source rows of one feed (`slug`) or of all, under their feed's slug, by slug and location.
    private func sourcesWithFeeds(_ slug: String? = nil) async throws -> [(feed: String, source: SourceRecord)] {
        try await read { reader in
            if let slug {
                guard let feed = try await reader.feedRow(slug: slug) else { throw StoreError.feedNotFound(slug) }
                return try await reader.sourceRows(feedId: try feed.savedID(), lock: false).map { (slug, $0) }
            }
            let slugs = try await reader.feedRows(nil, lock: false).reduce(into: [Int64: String]()) { $0[$1.id ?? 0] = $1.slug }
            return try await reader.sourceRows(feedId: nil, lock: false).compactMap { row in slugs[row.feedId].map { ($0, row) } }
                .sorted { ($0.feed, $0.source.location) < ($1.feed, $1.source.location) }
        }
    }

    private static func status(_ slug: String, _ source: SourceRecord) -> SourceStatus {
        SourceStatus(feed: slug, location: source.location, etag: source.etag, lastModifiedHeader: source.lastModifiedHeader,
                     lastFetchedAt: source.lastFetchedAt, lastSuccessAt: source.lastSuccessAt, lastError: source.lastError,
                     importedWith: source.importedWith)
    }

    private static func subscription(_ slug: String, _ source: SourceRecord) -> SourceSubscription {
        SourceSubscription(feed: slug, location: source.location, login: source.login, rules: source.rules)
    }

    /// The schema migrations applied, oldest first.
    package func appliedMigrations() async throws -> [String] { try await check(.full).migrations ?? [] }

    /// `feed`'s working days as the server counts them: its weekend, and the
    /// events of the feed its `holidays:` names (none when that feed is gone).
    package func workingDays(of feed: Feed, now: Date, maxOccurrences: Int) async throws -> WorkingDays {
        guard let slug = feed.holidays, let holidays = try await self.feed(slug: slug) else { return WorkingDays(weekend: feed.weekend) }
        let zone = holidays.feed.zone
        let series = try await countdowns(inFeed: slug).map {
            CountdownSeries($0, preparedAt: now, floatingZone: zone, maxOccurrences: maxOccurrences)
        }
        return WorkingDays(weekend: feed.weekend, holidays: series, today: feed.zone.local(of: now).date, zone: zone)
    }

    /// The exported calendar kept for `slug`'s `view`, bytes included.
    package func keptExport(slug: String, view: Redaction) async throws -> KeptExport? {
        try await keptExports.keptExport(slug: slug, view: view, bodyUpTo: .max)
    }
}

extension Optional {
    package func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
