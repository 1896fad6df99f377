import Foundation
import GRDB

/// A `persistEntry` row: one expiring value of the key/value store that the web
/// app keeps its sessions in. Only the key's SHA-256 is stored, so that a copy
/// of the database (a backup, a stolen file) opens no session.
struct PersistEntryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "persistEntry"
    var keyHash: String
    var value: Data
    var expiresAt: Date?

    enum Columns {
        static let keyHash = Column(CodingKeys.keyHash), value = Column(CodingKeys.value), expiresAt = Column(CodingKeys.expiresAt)
    }
}

extension SQLiteCountdownStore {
    /// The live value under `key`, or nil when there is none or it has expired.
    public func persistedValue(for key: String) async throws -> PersistedValue? {
        let now = clock()
        return try await read { db in
            guard let record = try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == Secret.hash(key)).fetchOne(db) else { return nil }
            if let expiry = record.expiresAt, expiry <= now { return nil }
            return PersistedValue(bytes: record.value, expiresAt: record.expiresAt)
        }
    }

    /// Stores `bytes` under `key`. `expiresIn` nil keeps an existing entry's
    /// expiry (what Hummingbird's `PersistDriver.set` promises); `onlyIfAbsent`
    /// refuses to replace a live entry and returns false instead.
    @discardableResult
    public func setPersistedValue(_ bytes: Data, for key: String, expiresIn: TimeInterval?, onlyIfAbsent: Bool) async throws -> Bool {
        let now = clock()
        let hash = Secret.hash(key)
        return try await write { db in
            let existing = try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == hash).fetchOne(db)
            let live = existing.map { $0.expiresAt.map { $0 > now } ?? true } ?? false
            if onlyIfAbsent && live { return false }
            let expiry = expiresIn.map { now.addingTimeInterval($0) } ?? (live ? existing?.expiresAt : nil)
            try PersistEntryRecord(keyHash: hash, value: bytes, expiresAt: expiry).save(db)
            return true
        }
    }

    /// What the table holds as keys: hashes only (for audits and tests).
    public func persistedKeyHashes() async throws -> [String] {
        try await read { db in try String.fetchAll(db, sql: "SELECT keyHash FROM persistEntry ORDER BY keyHash") }
    }

    public func removePersistedValue(for key: String) async throws {
        try await write { db in _ = try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == Secret.hash(key)).deleteAll(db) }
    }

    /// Deletes every entry whose time has passed; returns how many went.
    @discardableResult
    public func removeExpiredPersistedValues() async throws -> Int {
        let now = clock()
        return try await write { db in try PersistEntryRecord.filter(PersistEntryRecord.Columns.expiresAt <= now).deleteAll(db) }
    }
}
