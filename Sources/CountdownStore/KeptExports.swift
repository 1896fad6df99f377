import Countdowns
import NIOCore

/// Exported calendars a server rendered, kept in the store's database
/// (`KeptExport`, issue #25): a cache of renders, not data, and the read
/// model's, not the countdowns'. Apart from `CountdownStore` because nothing
/// of it is a row a use case reads or writes: `tminus copy` leaves it out, a
/// reader trusts it only for the revision and variant it was written for,
/// and its reads are the hottest path of a server whose compiled feeds do
/// not all fit in memory (SQLite reads it through SQLite's own calls).
public protocol KeptExports: Sendable {
    /// The exported calendar kept for `slug`'s `view`, whatever its revision
    /// (the caller checks it), with the bytes resolved; nil when none is kept.
    /// The bytes come only when at most `bodyUpTo` long; a longer one comes
    /// as a summary, validators and length (one too large to hold, sent with
    /// `keptExportChunk`).
    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport?
    /// Up to `length` bytes of the body kept for `slug`'s `view` from `offset`,
    /// or nil when what is kept is no longer of `revision` and `variant` (a
    /// change replaced it while it was being sent).
    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer?
    /// Keeps `export` for `slug`'s `view`, replacing the row of another
    /// revision or variant. Does nothing unless the feed is at `export`'s
    /// revision (a slow writer never replaces newer bytes).
    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws
    /// The same for a body written in parts (a large export written a batch
    /// at a time, `BatchedExport`): joined, they are the body. A store that
    /// can writes them one after the other, never holding the body joined
    /// (SQLite: 56 MB bound to a statement were copied twice more).
    func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws
}

extension KeptExports {
    /// Joins the parts and keeps them as one body: for a store whose driver
    /// takes a value whole (PostgreSQL's `bytea`, the one in memory).
    public func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws {
        var body = ByteBuffer()
        body.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { body.writeBytes(part) }
        try await keepExport(KeptExport(revision: revision, variant: variant, bytes: KeptExport.Bytes(body: body, etag: etag)), slug: slug, view: view)
    }
}
