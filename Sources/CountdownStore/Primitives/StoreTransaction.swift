import Countdowns
import Foundation

/// The row-level primitives one store transaction offers. Every use case
/// (`CountdownService` in the Services target) is written once over these, and
/// each store implements them once: SQLite through GRDB, PostgreSQL through
/// PostgresNIO. Nothing above this protocol knows which store it has.
///
/// A transaction is used by one task, in order; it commits when the closure
/// given to `CountdownStore.transaction` returns and rolls back, changing
/// nothing, when it throws. It holds the store's writer (SQLite's one writer
/// connection, PostgreSQL's row locks) until then, so slow work (fetching a
/// calendar, parsing it) happens before it begins, never inside. Primitives take and return rows, not domain
/// decisions: stamping, UID rules and revisions are the service's.
public protocol StoreTransaction: Sendable {
    /// The store clock's reading when the transaction began: every stamp a
    /// use case writes in one transaction is the same instant.
    var now: Date { get }
    var limits: StoreLimits { get }

    // MARK: feeds

    /// A feed row by slug. `lock` holds it until the end of the transaction
    /// where the store needs that (PostgreSQL's `FOR UPDATE`: two replicas
    /// writing one feed take turns; SQLite's writer is already alone).
    func feedRow(slug: String, lock: Bool) async throws -> FeedRecord?
    /// Inserts a feed row and returns it with its id.
    func insertFeed(_ row: FeedRecord) async throws -> FeedRecord
    /// Writes a feed row's definition (everything but id, slug, stamps and revision).
    func updateFeed(_ row: FeedRecord) async throws
    /// Deletes a feed and, by cascade, everything in it; false when there was none.
    func deleteFeed(slug: String) async throws -> Bool
    /// The feed as callers see it: its row, category colours and countdown count.
    func storedFeed(_ row: FeedRecord) async throws -> StoredFeed
    /// Sets category colours (creating the categories), leaving the others as they are.
    func saveCategoryColors(feedId: Int64, colors: [String: String]) async throws
    /// Raises the feed's revision and moves its `updatedAt` forward, never back:
    /// what tells every server that the feed must be compiled again.
    func bumpRevision(feedId: Int64) async throws

    // MARK: countdowns

    func countdownRow(id: Int64, lock: Bool) async throws -> CountdownRecord?
    /// The location of a source by id.
    func sourceLocation(id: Int64) async throws -> String?
    /// What an import compares against: every row of the feed, by UID.
    func countdownStates(feedId: Int64) async throws -> [String: CountdownState]
    func hasUID(_ uid: String, feedId: Int64) async throws -> Bool
    /// Inserts rows and returns their ids, in order. Batched: an import writes
    /// thousands of rows, and one call per row would cost a round trip each.
    func insertCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64]
    /// Writes rows by id: every column but `id` and `createdAt`.
    func updateCountdowns(_ rows: [CountdownRecord]) async throws
    func deleteCountdowns(ids: [Int64]) async throws
    /// Links each countdown to exactly its category names, creating categories
    /// as needed. `replacing` first removes old links (not needed for new rows).
    func linkCategories(_ links: [CategoryLinks], feedId: Int64, replacing: Bool) async throws
    func categoryNames(countdownId: Int64) async throws -> [String]

    // MARK: images

    /// Keeps checked image bytes under their SHA-256 (a second copy is ignored).
    func putImage(digest: String, mimeType: String, bytes: Data) async throws

    // MARK: sources

    /// The id of the feed's source at `location`, created when new.
    func sourceId(feedId: Int64, location: String) async throws -> Int64
    /// The id of the feed's source at `location`, if there is one.
    func existingSourceId(feedId: Int64, location: String) async throws -> Int64?
    /// A successful fetch and import of a source, now.
    func markSourceImported(id: Int64) async throws
    /// A fetch, now, which gives back the lease: on success (`error` nil) the
    /// validators given replace the old ones; on failure only the error is kept.
    /// `importedWith`, on success, the digest of the rules an import went through (nil keeps the last).
    func recordFetch(sourceId: Int64, etag: String?, lastModified: String?, error: String?, importedWith: String?) async throws
    /// Takes the source's lease until `until`, unless someone holds it now; true when taken.
    func leaseSource(id: Int64, until: Date) async throws -> Bool
    /// Starts or stops fetching the source in the background, with its sealed login (nil: none, and any old one goes).
    func setSubscribed(sourceId: Int64, _ subscribed: Bool, login: String?) async throws
    /// Sets the source's rules (nil: none) and forgets its validators, so the
    /// next fetch brings the whole calendar and the new rules see every event.
    /// Only a subscribed source has rules here: false, and nothing changed, for another.
    func setSourceRules(sourceId: Int64, rules: String?) async throws -> Bool

    // MARK: tokens and settings

    func insertToken(feedId: Int64, label: String, hash: String, visibility: Visibility) async throws -> Int64
    /// Revokes a token of the feed (keeping the first revocation's time); false when the feed has no such token.
    func revokeToken(id: Int64, feedId: Int64) async throws -> Bool
    /// Moves each token's last use forward, never back.
    func recordTokenUse(_ uses: [Int64: Date]) async throws
    /// Sets a setting, or removes it (`nil`).
    func setting(_ key: SettingKey) async throws -> String?
    func setSetting(_ key: SettingKey, to value: String?) async throws

    // MARK: expiring entries (the web app's sessions), by the SHA-256 of their key

    /// The entry, expired or not, locked until the end of the transaction where the store needs it.
    func persistEntry(keyHash: String) async throws -> PersistedValue?
    /// Inserts or replaces the entry.
    func putPersistEntry(keyHash: String, _ value: PersistedValue) async throws
    func deletePersistEntry(keyHash: String) async throws
    /// Deletes every entry that expired at or before `now`; returns how many went.
    func deleteExpiredPersistEntries() async throws -> Int
}
