import Countdowns
import Foundation

/// Where countdowns live. Two implementations: `SQLiteCountdownStore`, one file
/// on one machine (the default, nothing to run beside it), and
/// `PostgresCountdownStore` in the PostgresStore target, shared by several
/// replicas. The server, the CLI and the web app see only this protocol, and
/// one test suite runs against both.
///
/// Every method is async: PostgreSQL answers over the network, and SQLite's
/// work runs on GRDB's own queues, so neither ever blocks a thread of Swift's
/// cooperative pool. Every write is one transaction: a refused or failed call
/// leaves the store as it was, and a change to a feed or any of its countdowns
/// raises that feed's `revision` in the same transaction.
public protocol CountdownStore: AnyObject, Sendable {
    var limits: StoreLimits { get }
    /// Where the store is, for logs and health: a file path, or a `postgres://`
    /// URL without its password.
    var location: String { get }

    // MARK: feeds

    /// Every feed, ordered by slug.
    func feeds() async throws -> [StoredFeed]
    func feed(slug: String) async throws -> StoredFeed?
    /// Refused when the slug is taken.
    @discardableResult func createFeed(_ feed: Feed) async throws -> StoredFeed
    /// Creates the feed or updates its definition (what `feeds/` files do on load).
    @discardableResult func saveFeed(_ feed: Feed) async throws -> StoredFeed
    /// Deletes a feed and everything in it.
    func deleteFeed(slug: String) async throws

    // MARK: countdowns

    /// One countdown and the slug of its feed.
    func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String)
    /// Adds a countdown by hand: sequence 0, created and modified now.
    @discardableResult func add(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown
    /// Saves an edited countdown; SEQUENCE and LAST-MODIFIED rise only when something changed.
    @discardableResult func update(_ countdown: Countdown) async throws -> Countdown
    func delete(id: Int64) async throws
    /// Moves a countdown to another feed with its UID; SEQUENCE rises, both feeds change revision.
    @discardableResult func move(id: Int64, toFeed slug: String) async throws -> Countdown
    /// Puts back a deleted countdown with its UID and a SEQUENCE above the one it had.
    @discardableResult func restore(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown

    /// Writes what an import read (see `importCalendar`), in one transaction.
    func apply(_ batch: ImportBatch, intoFeed slug: String, options: ImportOptions,
               progress: (@Sendable (Int, Int) -> Void)?) async throws -> ImportReport

    // MARK: what a serving catalog reads

    /// Every feed's slug and revision: cheap, read whenever a change may have happened.
    func feedVersions() async throws -> [FeedVersion]
    /// A feed and all its countdowns as of one revision. Countdowns in `known`
    /// whose row has not changed are reused instead of parsed again.
    func feedContents(slug: String, reusing known: [Int64: Countdown]) async throws -> (feed: StoredFeed, countdowns: [Countdown])?
    /// Every token that is not revoked.
    func activeTokens() async throws -> [ActiveToken]
    /// Saves when tokens were last used (gathered in memory by the caller).
    func recordTokenUse(_ uses: [Int64: Date]) async throws

    // MARK: feed tokens and settings

    /// Creates a token for a feed, showing it as `visibility` says; returns it
    /// once (only its hash is kept).
    func createFeedToken(feed slug: String, label: String, visibility: Visibility) async throws -> (token: String, info: FeedToken)
    func feedTokens(feed slug: String) async throws -> [FeedToken]
    func revokeFeedToken(feed slug: String, id: Int64) async throws
    func setting(_ key: String) async throws -> String?
    func setSetting(_ key: String, _ value: String) async throws
    func removeSetting(_ key: String) async throws

    // MARK: images

    /// Stores checked image bytes (deduplicated by hash); returns the `tminus-image:` reference.
    func storeImage(_ bytes: Data, mimeType: String) async throws -> String
    /// The bytes behind a `tminus-image:` reference.
    func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)?

    // MARK: expiring entries (the web app's sessions)

    func persistedValue(for key: String) async throws -> PersistedValue?
    /// `expiresIn` nil keeps a live entry's expiry; `onlyIfAbsent` refuses to replace a live entry (returns false).
    @discardableResult func setPersistedValue(_ bytes: Data, for key: String, expiresIn: TimeInterval?, onlyIfAbsent: Bool) async throws -> Bool
    func persistedKeyHashes() async throws -> [String]
    func removePersistedValue(for key: String) async throws
    @discardableResult func removeExpiredPersistedValues() async throws -> Int

    // MARK: sources

    func sources() async throws -> [SourceStatus]
    /// Records a fetch: validators on success (200 or 304), the error otherwise;
    /// ends the caller's lease.
    func recordFetch(feed slug: String, location: String, etag: String?, lastModified: String?, error: String?) async throws
    /// Takes the right to fetch a URL source for `duration`, unless another
    /// process (a replica) holds it: true when the caller may fetch now.
    /// `recordFetch` gives it back. So that replicas never fetch one source at once.
    func leaseRefresh(feed slug: String, location: String, for duration: TimeInterval) async throws -> Bool
    func subscribe(feed slug: String, location: String) async throws
    func unsubscribe(feed slug: String, location: String) async throws
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
    func close() async throws
}
