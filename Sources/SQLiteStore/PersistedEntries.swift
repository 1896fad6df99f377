import CountdownStore
import Foundation
import GRDB

/// A `persistEntry` row: one expiring value of the key/value store that the web
/// app keeps its sessions in. Only the key's SHA-256 is stored, so that a copy
/// of the database (a backup, a stolen file) opens no session.
package struct PersistEntryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    package static let databaseTableName = "persistEntry"
    package var keyHash: String
    package var value: Data
    package var expiresAt: Date?

    package enum Columns {
        package static let keyHash = Column(CodingKeys.keyHash), value = Column(CodingKeys.value), expiresAt = Column(CodingKeys.expiresAt)
    }
}

extension SQLiteCountdownStore {
    /// The live value under `key`, or nil when there is none or it has expired.
    public func persistedValue(for key: String) async throws -> PersistedValue? {
        let now = clock()
        return try await read { db in
            guard let record = try PersistEntryRecord.filter(PersistEntryRecord.Columns.keyHash == Secret.hash(key)).fetchOne(db) else { return nil }
            let value = PersistedValue(bytes: record.value, expiresAt: record.expiresAt)
            return value.isLive(at: now) ? value : nil
        }
    }

    /// What the table holds as keys: hashes only (for audits and tests).
    public func persistedKeyHashes() async throws -> [String] {
        try await read { db in try String.fetchAll(db, sql: "SELECT keyHash FROM persistEntry ORDER BY keyHash") }
    }
}
