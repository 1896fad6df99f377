import CountdownStore
import Foundation
import GRDB

/// An `image` row: uploaded bytes, addressed by their SHA-256.
package struct ImageRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    package static let databaseTableName = "image"
    package var id: Int64?
    package var sha256: String
    package var mimeType: String
    package var bytes: Data
    package var createdAt: Date

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
