import CountdownStore
import Synchronization

/// What the permission check reads on every request, kept between changes:
/// API tokens by hash, people by id, each person's memberships, each feed's
/// owner and each space's id. Without it a person's request costs two or
/// three store reads before its answer (a token, then a feed and a
/// membership); with it, a dictionary lookup under a lock.
///
/// Everything is forgotten when this process commits a transaction
/// (`CountdownService.transaction`), so a change made here (a member
/// removed, a person disabled, a token revoked) holds for the very next
/// request. Another process (the command line on the same SQLite file, a
/// replica on PostgreSQL) is seen within a second: the server's poll
/// forgets everything when the store's change stamp moved, and every second
/// on a store without one (`CatalogPollService`).
///
/// A read that began before a change is not kept after it: each fill carries
/// the generation it read under, and a `forget()` in between bumps it.
public final class AccessCache: Sendable {
    /// Who owns a feed: what a person's standing toward it depends on.
    struct FeedOwner: Sendable, Equatable {
        var personId: Int64?
        var spaceId: Int64?
    }

    struct Tables: Sendable {
        var generation: UInt64 = 0
        /// nil: no such token (a guess is remembered as one, up to `capacity`).
        var tokens: [String: PersonTokenRecord?] = [:]
        var people: [Int64: PersonRecord?] = [:]
        var memberships: [Int64: [Int64: SpaceRole]] = [:]
        var feeds: [String: FeedOwner?] = [:]
        var spaces: [String: Int64?] = [:]
    }

    private let tables = Mutex(Tables())
    /// The store's change stamp when last looked at (`forget(unlessStoreIsAt:)`).
    private let seenStamp = Mutex<Int64?>(nil)
    /// Entries a table keeps before it starts again (forged tokens cannot grow it without end).
    let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// Drops everything: the next request of each kind reads the store.
    public func forget() {
        tables.withLock { tables in
            let generation = tables.generation &+ 1
            tables = Tables()
            tables.generation = generation
        }
    }

    /// Drops everything unless the store's change stamp is the one seen last
    /// time: what another process wrote. A store without a stamp (nil) may
    /// have changed, so everything goes.
    public func forget(unlessStoreIsAt stamp: Int64?) {
        let moved = seenStamp.withLock { seen in
            defer { seen = stamp }
            return stamp == nil || seen != stamp
        }
        if moved { forget() }
    }

    /// `table[key]`, read by `read` (and kept) when not known yet.
    func value<Key: Hashable & Sendable, Value: Sendable>(_ table: WritableKeyPath<Tables, [Key: Value]> & Sendable, _ key: Key,
                                                          read: () async throws -> Value) async throws -> Value {
        let (known, generation) = tables.withLock { ($0[keyPath: table][key], $0.generation) }
        if let known { return known }
        let value = try await read()
        tables.withLock { tables in
            guard tables.generation == generation else { return }
            if tables[keyPath: table].count >= capacity { tables[keyPath: table].removeAll(keepingCapacity: true) }
            tables[keyPath: table][key] = value
        }
        return value
    }

    /// Replaces a kept token (its last use was written), unless a change came between.
    func update(token: PersonTokenRecord) {
        tables.withLock { tables in
            if tables.tokens[token.tokenHash] != nil { tables.tokens[token.tokenHash] = token }
        }
    }
}
