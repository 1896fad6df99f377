import CountdownStore
import Foundation
import GRDB

extension SQLiteCountdownStore {
    /// The bytes behind a `tminus-image:` reference.
    public func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        guard let digest = StoredImage.digest(in: reference) else { return nil }
        return try await read { db in
            try ImageRecord.filter(Column("sha256") == digest).fetchOne(db).map { ($0.bytes, $0.mimeType) }
        }
    }

}
