import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

/// The primitives on PostgreSQL: statements on the one pooled connection that
/// holds the transaction. Rows a use case reads before it writes them are
/// locked (`FOR UPDATE`), so two replicas writing one feed take turns; every
/// change to a feed's revision sends `NOTIFY`, delivered only if the
/// transaction commits.
struct PostgresTransaction: StoreTransaction {
    let store: PostgresCountdownStore
    let connection: PostgresConnection
    let now: Date
    var limits: StoreLimits { store.limits }
    private var logger: Logger { store.logger }

    // MARK: feeds

    func feedRow(slug: String, lock: Bool) async throws -> FeedRecord? {
        try await store.feedRecord(connection, slug: slug, lock: lock)
    }

    func insertFeed(_ row: FeedRecord) async throws -> FeedRecord {
        let inserted = try await store.insert(row, connection)
        try await store.notify(connection, slug: inserted.slug, revision: inserted.revision)
        return inserted
    }

    func updateFeed(_ row: FeedRecord) async throws {
        try await store.update(row, connection)
    }

    func deleteFeed(slug: String) async throws -> Bool {
        let deleted = try await connection.query("DELETE FROM feed WHERE slug = \(slug) RETURNING revision", logger: logger).collect(Int64.self)
        guard let revision = deleted.first else { return false }
        try await store.notify(connection, slug: slug, revision: revision + 1)
        return true
    }

    func storedFeed(_ row: FeedRecord) async throws -> StoredFeed {
        try await store.stored(row, connection)
    }

    func saveCategoryColors(feedId: Int64, colors: [String: String]) async throws {
        try await store.saveCategoryColors(connection, feedId: feedId, colors: colors)
    }

    func bumpRevision(feedId: Int64) async throws {
        try await store.touch(connection, feedId: feedId, now: now)
    }

    // MARK: countdowns

    func countdownRow(id: Int64, lock: Bool) async throws -> CountdownRecord? {
        let rows = try await connection.query("""
            SELECT \(unescaped: PostgresCountdownStore.countdownColumns) FROM countdown WHERE id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger).rows()
        return try rows.first.map(PostgresCountdownStore.countdownRecord)
    }

    func sourceLocation(id: Int64) async throws -> String? {
        try await connection.query("SELECT location FROM source WHERE id = \(id)", logger: logger).collect(String.self).first
    }

    func countdownStates(feedId: Int64) async throws -> [String: CountdownState] {
        var states: [String: CountdownState] = [:]
        for try await (id, uid, content, sequence, lastModified, sourceId) in try await connection.query("""
            SELECT id, uid, content, sequence, lastModified, sourceId FROM countdown WHERE feedId = \(feedId)
            """, logger: logger).decode((Int64, String, String, Int, Date, Int64?).self) {
            states[uid] = CountdownState(id: id, content: content, sequence: sequence, lastModified: lastModified, sourceId: sourceId)
        }
        return states
    }

    func hasUID(_ uid: String, feedId: Int64) async throws -> Bool {
        try await connection.query("SELECT count(*) FROM countdown WHERE feedId = \(feedId) AND uid = \(uid)", logger: logger)
            .collect(Int64.self).first ?? 0 > 0
    }

    func insertCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        for row in rows {
            let inserted = try await connection.query("""
                INSERT INTO countdown (feedId, sourceId, uid, title, kind, status, startsOn, sequence, createdAt, lastModified, content)
                VALUES (\(row.feedId), \(row.sourceId), \(row.uid), \(row.title), \(row.kind), \(row.status), \(row.startsOn),
                        \(row.sequence), \(row.createdAt), \(row.lastModified), \(row.content))
                RETURNING id
                """, logger: logger).collect(Int64.self)
            guard let id = inserted.first else { throw StoreError.invalid("the countdown \(row.uid) was not saved") }
            ids.append(id)
        }
        return ids
    }

    func updateCountdowns(_ rows: [CountdownRecord]) async throws {
        for row in rows {
            try await connection.query("""
                UPDATE countdown SET feedId = \(row.feedId), sourceId = \(row.sourceId), uid = \(row.uid), title = \(row.title),
                    kind = \(row.kind), status = \(row.status), startsOn = \(row.startsOn), sequence = \(row.sequence),
                    lastModified = \(row.lastModified), content = \(row.content)
                WHERE id = \(row.id)
                """, logger: logger)
        }
    }

    func deleteCountdowns(ids: [Int64]) async throws {
        try await connection.query("DELETE FROM countdown WHERE id = ANY(\(ids))", logger: logger)
    }

    func linkCategories(_ links: [CategoryLinks], feedId: Int64, replacing: Bool) async throws {
        for link in links {
            try await store.link(connection, countdownId: link.countdownId, feedId: feedId, names: link.names, replacing: replacing)
        }
    }

    func categoryNames(countdownId: Int64) async throws -> [String] {
        try await connection.query("""
            SELECT category.name FROM countdownCategory JOIN category ON category.id = countdownCategory.categoryId
            WHERE countdownCategory.countdownId = \(countdownId) ORDER BY category.name COLLATE "C"
            """, logger: logger).collect(String.self)
    }

    // MARK: images

    func putImage(digest: String, mimeType: String, bytes: Data) async throws {
        try await connection.query("""
            INSERT INTO image (sha256, mimeType, bytes, createdAt) VALUES (\(digest), \(mimeType), \(bytes), \(now))
            ON CONFLICT (sha256) DO NOTHING
            """, logger: logger)
    }

    func sourceId(feedId: Int64, location: String) async throws -> Int64 {
        try await store.sourceId(connection, feedId: feedId, location: location)
    }

    func existingSourceId(feedId: Int64, location: String) async throws -> Int64? {
        try await connection.query("SELECT id FROM source WHERE feedId = \(feedId) AND location = \(location)", logger: logger)
            .collect(Int64.self).first
    }

    func recordFetch(sourceId: Int64, etag: String?, lastModified: String?, error: String?, importedWith: String?) async throws {
        if let error {
            try await connection.query("UPDATE source SET lastFetchedAt = \(now), lastError = \(error), leaseUntil = NULL WHERE id = \(sourceId)",
                                       logger: logger)
        } else {
            try await connection.query("""
                UPDATE source SET lastFetchedAt = \(now), lastSuccessAt = \(now), lastError = NULL, leaseUntil = NULL,
                    etag = COALESCE(\(etag), etag), lastModifiedHeader = COALESCE(\(lastModified), lastModifiedHeader),
                    importedWith = COALESCE(\(importedWith), importedWith)
                WHERE id = \(sourceId)
                """, logger: logger)
        }
    }

    /// One UPDATE that only succeeds while nobody holds the lease: of two
    /// replicas asking at once, the row lock lets one in, and the other then
    /// sees the lease taken.
    func leaseSource(id: Int64, until: Date) async throws -> Bool {
        try await !connection.query("""
            UPDATE source SET leaseUntil = \(until) WHERE id = \(id) AND (leaseUntil IS NULL OR leaseUntil <= \(now)) RETURNING id
            """, logger: logger).collect(Int64.self).isEmpty
    }

    func setSourceRules(sourceId: Int64, rules: String?) async throws -> Bool {
        try await !connection.query("""
            UPDATE source SET rules = \(rules), etag = NULL, lastModifiedHeader = NULL WHERE id = \(sourceId) AND subscribed RETURNING id
            """, logger: logger).collect(Int64.self).isEmpty
    }

    func setSubscribed(sourceId: Int64, _ subscribed: Bool, login: String?) async throws {
        try await connection.query("UPDATE source SET subscribed = \(subscribed), login = \(login) WHERE id = \(sourceId)", logger: logger)
    }

    func markSourceImported(id: Int64) async throws {
        try await connection.query("UPDATE source SET lastFetchedAt = \(now), lastSuccessAt = \(now), lastError = NULL WHERE id = \(id)",
                                   logger: logger)
    }

    func insertToken(feedId: Int64, label: String, hash: String, visibility: Visibility) async throws -> Int64 {
        let ids = try await connection.query("""
            INSERT INTO feedToken (feedId, label, tokenHash, createdAt, visibility)
            VALUES (\(feedId), \(label), \(hash), \(now), \(visibility))
            RETURNING id
            """, logger: logger).collect(Int64.self)
        guard let id = ids.first else { throw StoreError.invalid("the token was not saved") }
        return id
    }

    func revokeToken(id: Int64, feedId: Int64) async throws -> Bool {
        try await !connection.query("""
            UPDATE feedToken SET revokedAt = COALESCE(revokedAt, \(now)) WHERE id = \(id) AND feedId = \(feedId) RETURNING id
            """, logger: logger).collect(Int64.self).isEmpty
    }

    func recordTokenUse(_ uses: [Int64: Date]) async throws {
        let ids = uses.keys.sorted()
        let dates = ids.map { uses[$0]! }
        try await connection.query("""
            UPDATE feedToken SET lastUsedAt = GREATEST(lastUsedAt, used.at)
            FROM unnest(\(ids)::bigint[], \(dates)::timestamptz[]) AS used(id, at) WHERE feedToken.id = used.id
            """, logger: logger)
    }

    func setting(_ key: SettingKey) async throws -> String? {
        try await connection.query("SELECT value FROM setting WHERE key = \(key.rawValue)", logger: logger).collect(String.self).first
    }

    func setSetting(_ key: SettingKey, to value: String?) async throws {
        if let value {
            try await connection.query("""
                INSERT INTO setting (key, value) VALUES (\(key.rawValue), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, logger: logger)
        } else {
            try await connection.query("DELETE FROM setting WHERE key = \(key.rawValue)", logger: logger)
        }
    }

    // MARK: expiring entries

    func persistEntry(keyHash: String) async throws -> PersistedValue? {
        for try await (bytes, expiry) in try await connection.query(
            "SELECT value, expiresAt FROM persistEntry WHERE keyHash = \(keyHash) FOR UPDATE", logger: logger).decode((Data, Date?).self) {
            return PersistedValue(bytes: bytes, expiresAt: expiry)
        }
        return nil
    }

    func putPersistEntry(keyHash: String, _ value: PersistedValue) async throws {
        try await connection.query("""
            INSERT INTO persistEntry (keyHash, value, expiresAt) VALUES (\(keyHash), \(value.bytes), \(value.expiresAt))
            ON CONFLICT (keyHash) DO UPDATE SET value = excluded.value, expiresAt = excluded.expiresAt
            """, logger: logger)
    }

    func deletePersistEntry(keyHash: String) async throws {
        try await connection.query("DELETE FROM persistEntry WHERE keyHash = \(keyHash)", logger: logger)
    }

    func deleteExpiredPersistEntries() async throws -> Int {
        try await connection.query("DELETE FROM persistEntry WHERE expiresAt <= \(now) RETURNING keyHash", logger: logger).collect(String.self).count
    }
}
