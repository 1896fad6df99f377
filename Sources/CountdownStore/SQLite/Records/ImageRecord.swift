import Foundation
import GRDB

/// An `image` row: uploaded bytes, addressed by their SHA-256.
struct ImageRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "image"
    var id: Int64?
    var sha256: String
    var mimeType: String
    var bytes: Data
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
