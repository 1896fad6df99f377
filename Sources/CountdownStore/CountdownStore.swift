import Countdowns
import Foundation

/// Where countdowns live. Two implementations: `SQLiteCountdownStore`, one file
/// on one machine (the default, nothing to run beside it), and
/// `PostgresCountdownStore` in the PostgresStore target, shared by several
/// replicas. The service layer, the server, the CLI and the web app see only
/// this protocol, and one test suite runs against both.
///
/// Feeds, countdowns, images, imports and tokens are written only through
/// `transaction`, whose primitives (`StoreTransaction`) the use cases of
/// `CountdownService` combine; the other writes here are single statements
/// still waiting to become primitives (issue #22).
///
/// Every method is async: PostgreSQL answers over the network, and SQLite's
/// work runs on GRDB's own queues, so neither ever blocks a thread of Swift's
/// cooperative pool. Every write is one transaction: a refused or failed call
/// leaves the store as it was.
public protocol CountdownStore: AnyObject, Sendable {
    var limits: StoreLimits { get }
    /// Where the store is, for logs and health: a file path, or a `postgres://`
    /// URL without its password.
    var location: String { get }

    /// Runs a use case's writes in one transaction: it commits when `body`
    /// returns, and rolls back, changing nothing, when `body` throws. Every
    /// write of the service layer goes through here.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T

    // MARK: feeds

    /// Every feed, ordered by slug.
    func feeds() async throws -> [StoredFeed]
    func feed(slug: String) async throws -> StoredFeed?

    // MARK: countdowns

    /// One countdown and the slug of its feed.
    func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String)

    // MARK: what a serving catalog reads

    /// Every feed's slug and revision: cheap, read whenever a change may have happened.
    func feedVersions() async throws -> [FeedVersion]
    /// A feed and all its countdowns as of one revision. Countdowns in `known`
    /// whose row has not changed are reused instead of parsed again.
    func feedContents(slug: String, reusing known: [Int64: Countdown]) async throws -> (feed: StoredFeed, countdowns: [Countdown])?
    /// Every token that is not revoked.
    func activeTokens() async throws -> [ActiveToken]

    // MARK: exported calendars kept (a cache of renders, not data)

    /// The exported calendar kept for `slug`'s `view`, whatever its revision
    /// (the caller checks it), with the bytes resolved; nil when none is kept.
    /// The bytes come only when at most `bodyUpTo` long; a longer one comes
    /// as a summary, validators and length (one too large to hold, sent with
    /// `keptExportChunk`).
    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport?
    /// Up to `length` bytes of the body kept for `slug`'s `view` from `offset`,
    /// or nil when what is kept is no longer of `revision` and `variant` (a
    /// change replaced it while it was being sent).
    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> Data?
    /// Keeps `export` for `slug`'s `view`, replacing the row of another
    /// revision or variant. Does nothing unless the feed is at `export`'s
    /// revision (a slow writer never replaces newer bytes).
    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws

    // MARK: feed tokens and settings

    func feedTokens(feed slug: String) async throws -> [FeedToken]
    func setting(_ key: SettingKey) async throws -> String?

    // MARK: images

    /// The bytes behind a `tminus-image:` reference.
    func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)?

    // MARK: expiring entries (the web app's sessions)

    func persistedValue(for key: String) async throws -> PersistedValue?
    func persistedKeyHashes() async throws -> [String]

    // MARK: sources

    func sources() async throws -> [SourceStatus]
    func subscriptions() async throws -> [SourceSubscription]

    // MARK: copying a whole store

    /// Every row of every table, read in one snapshot.
    func snapshot() async throws -> StoreSnapshot
    /// Writes a snapshot into this store in one transaction; refused unless the
    /// store holds no feed yet (a copy never merges into existing data).
    func restore(_ snapshot: StoreSnapshot) async throws
    /// The schema migrations applied, oldest first.
    func appliedMigrations() async throws -> [String]

    // MARK: health

    /// A cheap check that the store answers and is sound: "ok" when it is.
    func quickCheck() async throws -> String
    /// Why what is written now would be lost, found without a query, or nil:
    /// a SQLite file deleted or replaced under the running server still
    /// answers every query from its open descriptor, and is gone at restart.
    var storageProblem: String? { get }
    /// How the store tells of changes other processes make, when it can
    /// (PostgreSQL); nil when the server must poll (`feedVersions`).
    var changeNotices: (any FeedChangeNotices)? { get }
    func close() async throws
}
