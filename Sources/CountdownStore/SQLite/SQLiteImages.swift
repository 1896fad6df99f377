import Foundation
import GRDB

extension SQLiteCountdownStore {
    /// Stores image bytes (deduplicated) and returns the reference to put in `Presentation.image`.
    public func storeImage(_ bytes: Data, mimeType: String) async throws -> String {
        let digest = try StoredImage.check(bytes, mimeType: mimeType, limits: limits)
        let now = clock()
        try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO image (sha256, mimeType, bytes, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [digest, mimeType, bytes, now])
        }
        return StoredImage.scheme + digest
    }

    /// The bytes behind a `tminus-image:` reference.
    public func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        guard let digest = StoredImage.digest(in: reference) else { return nil }
        return try await read { db in
            try ImageRecord.filter(Column("sha256") == digest).fetchOne(db).map { ($0.bytes, $0.mimeType) }
        }
    }

}
