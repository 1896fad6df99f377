import Countdowns
import Foundation
import NIOCore

extension CountdownStore {
    /// Joins the parts and keeps them as one body: for a store whose driver
    /// takes a value whole (PostgreSQL's `bytea`, the one in memory).
    public func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws {
        var body = ByteBuffer()
        body.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { body.writeBytes(part) }
        try await keepExport(KeptExport(revision: revision, variant: variant, bytes: KeptExport.Bytes(body: body, etag: etag)), slug: slug, view: view)
    }
}
