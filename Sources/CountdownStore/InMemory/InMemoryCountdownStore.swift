import Countdowns
import Foundation
import Synchronization

/// Countdowns in memory: the same primitives and reads as the databases, over
/// plain values, for fast tests of everything above the store (the service,
/// the routes, the web app in `.router` mode) and for dry runs that must write
/// nothing. Nothing survives the process.
///
/// A transaction works on a copy of the tables and, when its use case returns,
/// the copy becomes the store; transactions take turns (`WriteTurns`), as
/// SQLite's do. Copying is cheap for the few hundred rows tests hold; this
/// store is not meant for a real server's data.
public final class InMemoryCountdownStore: CountdownStore {
    public let limits: StoreLimits
    public var location: String { "memory" }
    package let clock: @Sendable () -> Date
    package let tables = Mutex(InMemoryTables())
    package let turns = WriteTurns()
    /// Kept exports by feed id and view, beside the tables: a transaction
    /// replaces the tables with its copy, and must not drop a render kept meanwhile.
    /// Ids are never reused, so a deleted feed's rows are never read again.
    package let exports = Mutex<[Int64: [Redaction: KeptExport]]>([:])

    public init(limits: StoreLimits = StoreLimits(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.clock = clock
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await turns.run {
            let transaction = InMemoryTransaction(tables.withLock { $0 }, now: clock(), limits: limits)
            let result = try await body(transaction)
            let committed = transaction.tables.withLock { $0 }
            tables.withLock { $0 = committed }
            return result
        }
    }

    private func read<T>(_ body: (InMemoryTables) throws -> T) rethrows -> T {
        let current = tables.withLock { $0 }
        return try body(current)
    }

    // MARK: feeds and countdowns

    public func feeds() async throws -> [StoredFeed] {
        try read { tables in try tables.feeds.values.sorted { $0.slug < $1.slug }.map(tables.stored) }
    }

    public func feed(slug: String) async throws -> StoredFeed? {
        try read { tables in try tables.feed(slug: slug).map(tables.stored) }
    }

    public func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String) {
        try read { tables in
            guard let row = tables.countdowns[id], let feed = tables.feeds[row.feedId] else { throw StoreError.countdownNotFound(id) }
            return (try tables.countdown(row), feed.slug)
        }
    }

    // MARK: what a serving catalog reads

    public func feedVersions() async throws -> [FeedVersion] {
        read { tables in tables.feeds.values.sorted { $0.slug < $1.slug }.map { FeedVersion(slug: $0.slug, revision: $0.revision) } }
    }

    public func feedContents(slug: String, reusing known: [Int64: Countdown]) async throws -> (feed: StoredFeed, countdowns: [Countdown])? {
        try read { tables in
            guard let feed = tables.feed(slug: slug) else { return nil }
            let rows = tables.countdowns.values.filter { $0.feedId == feed.id }
                .sorted { ($0.startsOn, $0.title, $0.id ?? 0) < ($1.startsOn, $1.title, $1.id ?? 0) }
            let countdowns = try rows.map { row in
                let source = row.sourceId.flatMap { tables.sources[$0]?.location }
                let id = try row.savedID()
                let stamp = RowStamp(id: id, sequence: row.sequence, created: row.createdAt, lastModified: row.lastModified, source: source)
                if let old = known[id], stamp.matches(old) { return old }
                return try row.countdown(source: source)
            }
            return (try tables.stored(feed), countdowns)
        }
    }

    public func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        guard let id = read({ $0.feed(slug: slug)?.id }) else { return nil }
        let kept = exports.withLock { $0[id] ?? [:] }
        guard var resolved = KeptExport.resolved(view: kept[view], full: kept[Redaction.none]) else { return nil }
        if let length = resolved.bytes?.length, length > maxBytes {
            resolved.bytes?.body = Data()
            resolved.bytes?.gzipped = nil
        }
        return resolved
    }

    public func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> Data? {
        guard let kept = try await keptExport(slug: slug, view: view), kept.revision == revision, kept.variant == variant,
              let body = kept.bytes?.body else { return nil }
        return body.subdata(in: min(offset, body.count)..<min(offset + length, body.count))
    }

    public func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        guard let feed = read({ $0.feed(slug: slug) }), let id = feed.id, feed.revision == export.revision else { return }
        exports.withLock { exports in
            if let kept = exports[id]?[view], kept.revision > export.revision || kept == export { return }
            exports[id, default: [:]][view] = export
        }
    }

    public func activeTokens() async throws -> [ActiveToken] {
        read { tables in
            tables.tokens.values.filter { $0.info.revokedAt == nil }.sorted { $0.info.id < $1.info.id }.compactMap { token in
                tables.feeds[token.feedId].map { ActiveToken(id: token.info.id, hash: token.hash, slug: $0.slug, visibility: token.info.visibility) }
            }
        }
    }

    // MARK: tokens, settings, images, sessions, sources

    public func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try read { tables in
            guard let feed = tables.feed(slug: slug) else { throw StoreError.feedNotFound(slug) }
            return tables.tokens.values.filter { $0.feedId == feed.id }.map(\.info).sorted { $0.id < $1.id }
        }
    }

    public func setting(_ key: SettingKey) async throws -> String? { read { $0.settings[key.rawValue] } }

    public func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        guard let digest = StoredImage.digest(in: reference) else { return nil }
        return read { $0.images[digest].map { ($0.bytes, $0.mimeType) } }
    }

    public func persistedValue(for key: String) async throws -> PersistedValue? {
        let now = clock()
        return read { tables in
            tables.entries[Secret.hash(key)].flatMap { $0.isLive(at: now) ? $0 : nil }
        }
    }

    public func persistedKeyHashes() async throws -> [String] { read { $0.entries.keys.sorted() } }

    public func sources() async throws -> [SourceStatus] {
        read { tables in
            tables.sources.values.compactMap { source -> SourceStatus? in
                tables.feeds[source.feedId].map {
                    SourceStatus(feed: $0.slug, location: source.location, etag: source.etag, lastModifiedHeader: source.lastModifiedHeader,
                                 lastFetchedAt: source.lastFetchedAt, lastSuccessAt: source.lastSuccessAt, lastError: source.lastError,
                                 importedWith: source.importedWith)
                }
            }.sorted { ($0.feed, $0.location) < ($1.feed, $1.location) }
        }
    }

    public func subscriptions() async throws -> [SourceSubscription] {
        read { tables in
            tables.sources.values.filter(\.subscribed).compactMap { source in
                tables.feeds[source.feedId].map { SourceSubscription(feed: $0.slug, location: source.location, login: source.login, rules: source.rules) }
            }.sorted { ($0.feed, $0.location) < ($1.feed, $1.location) }
        }
    }

    // MARK: copying, health

    /// A copy reads every table of a database; an in-memory store is never the
    /// source or the target of `tminus copy`, `backup` or `restore`.
    public func snapshot() async throws -> StoreSnapshot {
        throw StoreError.invalid("an in-memory store cannot be copied: copy from a SQLite file or PostgreSQL")
    }

    public func restore(_ snapshot: StoreSnapshot) async throws {
        throw StoreError.invalid("an in-memory store cannot be copied into: copy into a SQLite file or PostgreSQL")
    }

    /// No schema: the tables are Swift values.
    public func appliedMigrations() async throws -> [String] { [] }
    public func quickCheck() async throws -> String { "ok" }
    public var storageProblem: String? { nil }
    /// Only this process writes it.
    public var changeNotices: (any FeedChangeNotices)? { nil }
    public func close() async throws {}
}
