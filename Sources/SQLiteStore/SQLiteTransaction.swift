import Countdowns
import CountdownStore
import Foundation
import GRDB

/// The primitives on SQLite: each one is a short access to the writer
/// connection, inside the transaction `SQLiteCountdownStore.transaction` began
/// there (its turn keeps every other write off the connection until COMMIT or
/// ROLLBACK). Statements are cached and prepared once per connection.
package struct SQLiteTransaction: StoreTransaction {
    package let pool: DatabasePool
    package let now: Date
    package let limits: StoreLimits

    /// One access to the writer, within the open transaction.
    private func on<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction(body)
    }

    // MARK: feeds

    package func feedRow(slug: String, lock: Bool) async throws -> FeedRecord? {
        try await on { db in try FeedRecord.filter(FeedRecord.Columns.slug == slug).fetchOne(db) }
    }

    package func insertFeed(_ row: FeedRecord) async throws -> FeedRecord {
        try await on { db in
            var row = row
            try row.insert(db)
            return row
        }
    }

    package func updateFeed(_ row: FeedRecord) async throws {
        try await on { db in try row.update(db) }
    }

    package func deleteFeed(slug: String) async throws -> Bool {
        try await on { db in try FeedRecord.filter(FeedRecord.Columns.slug == slug).deleteAll(db) > 0 }
    }

    package func storedFeed(_ row: FeedRecord) async throws -> StoredFeed {
        try await on { db in try StoredFeed.read(row, db) }
    }

    package func saveCategoryColors(feedId: Int64, colors: [String: String]) async throws {
        try await on { db in try CategoryRecord.saveColors(db, feedId: feedId, colors: colors) }
    }

    package func bumpRevision(feedId: Int64) async throws {
        try await on { [now] db in try FeedRecord.touch(db, feedId: feedId, now: now) }
    }

    // MARK: countdowns

    package func countdownRow(id: Int64, lock: Bool) async throws -> CountdownRecord? {
        try await on { db in try CountdownRecord.fetchOne(db, key: id) }
    }

    package func sourceLocation(id: Int64) async throws -> String? {
        try await on { db in try String.fetchOne(db, sql: "SELECT location FROM source WHERE id = ?", arguments: [id]) }
    }

    package func countdownStates(feedId: Int64) async throws -> [String: CountdownState] {
        try await on { db in
            var states: [String: CountdownState] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, uid, content, sequence, lastModified, sourceId FROM countdown WHERE feedId = ?",
                                           arguments: [feedId])
            while let row = try rows.next() {
                states[row[1]] = CountdownState(id: row[0], content: row[2], sequence: row[3], lastModified: row[4], sourceId: row[5])
            }
            return states
        }
    }

    package func hasUID(_ uid: String, feedId: Int64) async throws -> Bool {
        try await on { db in
            try CountdownRecord.filter(CountdownRecord.Columns.feedId == feedId && CountdownRecord.Columns.uid == uid).fetchCount(db) > 0
        }
    }

    package func insertCountdowns(_ rows: [CountdownRecord]) async throws -> [Int64] {
        try await on { db in
            try rows.map { row in
                var row = row
                try row.insertPrepared(db)
                return try row.savedID()
            }
        }
    }

    package func updateCountdowns(_ rows: [CountdownRecord]) async throws {
        try await on { db in
            for row in rows {
                try db.cachedStatement(sql: """
                    UPDATE countdown SET feedId = ?, sourceId = ?, uid = ?, title = ?, kind = ?, status = ?, startsOn = ?,
                        sequence = ?, lastModified = ?, content = ? WHERE id = ?
                    """).execute(arguments: [row.feedId, row.sourceId, row.uid, row.title, row.kind, row.status, row.startsOn,
                                             row.sequence, row.lastModified, row.content, row.id])
            }
        }
    }

    package func deleteCountdowns(ids: [Int64]) async throws {
        try await on { db in
            for id in ids { try db.cachedStatement(sql: "DELETE FROM countdown WHERE id = ?").execute(arguments: [id]) }
        }
    }

    package func linkCategories(_ links: [CategoryLinks], feedId: Int64, replacing: Bool) async throws {
        try await on { db in
            var linker = CategoryRecord.Linker(feedId: feedId)
            for link in links { try linker.link(db, countdownId: link.countdownId, names: link.names, replacing: replacing) }
        }
    }

    package func categoryNames(countdownId: Int64) async throws -> [String] {
        try await on { db in
            try String.fetchAll(db, sql: """
                SELECT category.name FROM countdownCategory JOIN category ON category.id = countdownCategory.categoryId
                WHERE countdownCategory.countdownId = ? ORDER BY category.name
                """, arguments: [countdownId])
        }
    }

    // MARK: images

    package func putImage(digest: String, mimeType: String, bytes: Data) async throws {
        try await on { [now] db in
            try db.execute(sql: "INSERT OR IGNORE INTO image (sha256, mimeType, bytes, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [digest, mimeType, bytes, now])
        }
    }

    package func sourceId(feedId: Int64, location: String) async throws -> Int64 {
        try await on { db in try SourceRecord.findOrCreate(db, feedId: feedId, location: location).savedID() }
    }

    package func existingSourceId(feedId: Int64, location: String) async throws -> Int64? {
        try await on { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE feedId = ? AND location = ?", arguments: [feedId, location])
        }
    }

    package func recordFetch(sourceId: Int64, etag: String?, lastModified: String?, error: String?, importedWith: String?) async throws {
        try await on { [now] db in
            if let error {
                try db.execute(sql: "UPDATE source SET lastFetchedAt = ?, lastError = ?, leaseUntil = NULL WHERE id = ?",
                               arguments: [now, error, sourceId])
            } else {
                try db.execute(sql: """
                    UPDATE source SET lastFetchedAt = ?, lastSuccessAt = ?, lastError = NULL, leaseUntil = NULL,
                    etag = COALESCE(?, etag), lastModifiedHeader = COALESCE(?, lastModifiedHeader), importedWith = COALESCE(?, importedWith)
                    WHERE id = ?
                    """, arguments: [now, now, etag, lastModified, importedWith, sourceId])
            }
        }
    }

    package func leaseSource(id: Int64, until: Date) async throws -> Bool {
        try await on { [now] db in
            try db.execute(sql: "UPDATE source SET leaseUntil = ? WHERE id = ? AND (leaseUntil IS NULL OR leaseUntil <= ?)",
                           arguments: [until, id, now])
            return db.changesCount > 0
        }
    }

    package func setSubscribed(sourceId: Int64, _ subscribed: Bool, login: String?) async throws {
        try await on { db in
            try db.execute(sql: "UPDATE source SET subscribed = ?, login = ? WHERE id = ?", arguments: [subscribed, login, sourceId])
        }
    }

    package func setSourceRules(sourceId: Int64, rules: String?) async throws -> Bool {
        try await on { db in
            try db.execute(sql: "UPDATE source SET rules = ?, etag = NULL, lastModifiedHeader = NULL WHERE id = ? AND subscribed",
                           arguments: [rules, sourceId])
            return db.changesCount > 0
        }
    }

    package func markSourceImported(id: Int64) async throws {
        try await on { [now] db in
            try db.execute(sql: "UPDATE source SET lastFetchedAt = ?, lastSuccessAt = ?, lastError = NULL WHERE id = ?", arguments: [now, now, id])
        }
    }

    package func insertToken(feedId: Int64, label: String, hash: String, visibility: Visibility) async throws -> Int64 {
        try await on { [now] db in
            try db.execute(sql: "INSERT INTO feedToken (feedId, label, tokenHash, createdAt, visibility) VALUES (?, ?, ?, ?, ?)",
                           arguments: [feedId, label, hash, now, visibility])
            return db.lastInsertedRowID
        }
    }

    package func revokeToken(id: Int64, feedId: Int64) async throws -> Bool {
        try await on { [now] db in
            try db.execute(sql: "UPDATE feedToken SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND feedId = ?", arguments: [now, id, feedId])
            return db.changesCount > 0
        }
    }

    package func recordTokenUse(_ uses: [Int64: Date]) async throws {
        try await on { db in
            for (id, date) in uses {
                try db.execute(sql: "UPDATE feedToken SET lastUsedAt = MAX(COALESCE(lastUsedAt, 0), ?) WHERE id = ?", arguments: [date, id])
            }
        }
    }

    package func setting(_ key: SettingKey) async throws -> String? {
        try await on { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue]) }
    }

    package func setSetting(_ key: SettingKey, to value: String?) async throws {
        try await on { db in
            if let value {
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key.rawValue, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
            }
        }
    }

    // MARK: expiring entries

    package func persistEntry(keyHash: String) async throws -> PersistedValue? {
        try await on { db in
            try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == keyHash).fetchOne(db)
                .map { PersistedValue(bytes: $0.value, expiresAt: $0.expiresAt) }
        }
    }

    package func putPersistEntry(keyHash: String, _ value: PersistedValue) async throws {
        try await on { db in try PersistEntryRecord(keyHash: keyHash, value: value.bytes, expiresAt: value.expiresAt).save(db) }
    }

    package func deletePersistEntry(keyHash: String) async throws {
        try await on { db in _ = try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == keyHash).deleteAll(db) }
    }

    package func deleteExpiredPersistEntries() async throws -> Int {
        try await on { [now] db in try PersistEntryRecord.filter(PersistEntryRecord.Columns.expiresAt <= now).deleteAll(db) }
    }
}
