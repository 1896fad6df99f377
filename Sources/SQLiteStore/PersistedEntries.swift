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
