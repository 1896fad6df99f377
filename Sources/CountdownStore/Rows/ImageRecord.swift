import Foundation

/// An `image` row: uploaded bytes (checked on the way in, `ImageUpload`),
/// addressed by their SHA-256, so that a second upload of the same picture
/// is the row already kept.
public struct ImageRecord: Codable, Equatable, Sendable {
    public var id: Int64?
    public var sha256: String
    public var mimeType: String
    public var bytes: Data
    public var createdAt: Date

    public init(id: Int64? = nil, sha256: String, mimeType: String, bytes: Data, createdAt: Date) {
        self.id = id
        self.sha256 = sha256
        self.mimeType = mimeType
        self.bytes = bytes
        self.createdAt = createdAt
    }
}

extension ImageRecord: TableRow { public static let table = StoreTable.named("image") }
