import Countdowns
import Foundation

/// The row-level reads every store offers, inside `CountdownStore.read` and
/// inside a transaction (which sees its own writes). Each read is scoped to
/// what a use case needs: one feed's rows, one source's, by key; none is a
/// generic query. Rows come ordered, the same in every store (byte order of
/// text, as SQLite compares it), so that every store serves the same bytes.
public protocol StoreReader: Sendable {
    /// The feed row `key` names, or every feed by slug (`nil`). `lock` holds
    /// the rows until the end of a transaction where the store needs that
    /// (PostgreSQL's `FOR UPDATE`: two replicas writing one feed take turns;
    /// SQLite's writer is already alone); a read ignores it.
    func feedRows(_ key: FeedKey?, lock: Bool) async throws -> [FeedRecord]
    /// The countdown count and category colours of one feed, or of every
    /// feed (`nil`), by feed id; a feed with neither may be missing.
    func feedTallies(feedId: Int64?) async throws -> [Int64: FeedTally]

    /// The countdown rows `query` selects, in its order.
    func countdownRows(_ query: CountdownQuery) async throws -> [CountdownRecord]

    /// The first rows of a feed's list by their place bounds, with its counts
    /// (`PlacedQuery`): a feed's first page without reading every row (issue #41).
    func placedRows(_ query: PlacedQuery) async throws -> PlacedRows
    /// Rows of any feed whose place is unknown or may tighten by `dueBy`
    /// (seconds since 1970; `PlaceBound.checkAt`): unknown ones first, then by
    /// `checkAt`, at most `limit`. The server's place round reads them.
    func rowsToPlace(dueBy: Int64, limit: Int) async throws -> [CountdownRecord]

    /// The sources of one feed, or of every feed (`nil`), by feed and location.
    func sourceRows(feedId: Int64?, lock: Bool) async throws -> [SourceRecord]
    /// The tokens of one feed, or of every feed (`nil`), revoked ones too, by id.
    func tokenRows(feedId: Int64?) async throws -> [TokenRecord]

    /// A setting's text (as UTF-8 bytes, without expiry) or an entry, expired
    /// or not; nil when none is kept.
    func value(for key: StoreKey) async throws -> PersistedValue?
    /// An image by the SHA-256 of its bytes.
    func image(digest: String) async throws -> ImageRecord?

    // MARK: people and spaces (issue #37)

    /// The person `key` names, or every person by login (`nil`).
    func personRows(_ key: PersonKey?) async throws -> [PersonRecord]
    /// The space `key` names, or every space by slug (`nil`).
    func spaceRows(_ key: SpaceKey?) async throws -> [SpaceRecord]
    /// Memberships of one space, of one person, or both (one row at most), by space and person.
    func memberRows(spaceId: Int64?, personId: Int64?) async throws -> [MemberRecord]
    /// Person tokens by the hash of their secret, or a person's, by id.
    func personTokenRows(_ key: PersonTokenKey) async throws -> [PersonTokenRecord]

    /// Object names calendar apps chose in a feed (`DavNameRecord`), by UID.
    func davNameRows(feedId: Int64, _ key: DavNameKey) async throws -> [DavNameRecord]
    /// Objects kept as calendar apps wrote them (`DavObjectRecord`), by UID.
    func davObjectRows(_ query: DavObjectQuery) async throws -> [DavObjectRecord]
    /// A person's own parts of a shared calendar's objects (`PersonalObjectRecord`), by id.
    func personalObjectRows(_ query: PersonalObjectQuery) async throws -> [PersonalObjectRecord]

    /// What an owner's feeds hold together, as a storage quota counts it.
    func usage(of owner: StorageOwner) async throws -> StorageUsage

    /// The changes `query` selects (`ChangeRecord`), by id.
    func changeRows(_ query: ChangeQuery) async throws -> [ChangeRecord]

    /// A number that moves whenever a feed (a countdown's change moves its
    /// feed's revision), a feed token, a person, a space, a membership or a
    /// person token changes, by this process or another: one row's read
    /// tells a poll that nothing did (a token's last use does not count).
    /// nil where the store keeps none (PostgreSQL, whose replicas hear
    /// NOTIFY instead): then a caller compares everything.
    func changeStamp() async throws -> Int64?
}
