import Countdowns
import CountdownStore
import Foundation
import NIOCore
import PostgresNIO

/// The exported calendars a server kept (`KeptExport`, table `feedExport`, v9),
/// shared by every replica: one replica's render answers the others' misses.
struct PostgresKeptExports: KeptExports {
    let store: PostgresCountdownStore

    func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        let max = Int64(clamping: maxBytes)
        return try await store.onConnection { connection in
            var kept: [Redaction: KeptExport] = [:]
            let rows = try await connection.query("""
                SELECT feedExport.view, feedExport.revision, feedExport.variant, CASE WHEN octet_length(feedExport.body) <= \(max) THEN feedExport.body END,
                       octet_length(feedExport.body), feedExport.etag, CASE WHEN octet_length(feedExport.body) <= \(max) THEN feedExport.gzipped END,
                       feedExport.gzippedEtag
                FROM feedExport JOIN feed ON feed.id = feedExport.feedId WHERE feed.slug = \(slug) AND feedExport.view IN (\(view), \(Redaction.none))
                """, logger: store.logger).decode((Redaction, Int64, String, ByteBuffer?, Int32?, String?, ByteBuffer?, String?).self)
            for try await (rowView, revision, variant, body, length, etag, gzipped, gzippedEtag) in rows {
                // Copied out of the row: a decoded bytea is a slice of the message, which it would keep alive in the render cache.
                let bytes = length.map { KeptExport.Bytes(body: body.map(ByteBuffer.exactly) ?? ByteBuffer(), length: Int($0), etag: etag ?? "",
                                                           gzipped: gzipped.map(ByteBuffer.exactly), gzippedEtag: gzippedEtag) }
                kept[rowView] = KeptExport(revision: revision, variant: variant, bytes: bytes)
            }
            return KeptExport.resolved(view: kept[view], full: kept[Redaction.none])
        }
    }

    func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer? {
        try await store.onConnection { connection in
            let rows = try await connection.query("""
                SELECT substring(COALESCE(own.body, whole.body) FROM \(Int32(clamping: offset + 1)) FOR \(Int32(clamping: length))) FROM feedExport own JOIN feed ON feed.id = own.feedId
                LEFT JOIN feedExport whole ON own.body IS NULL AND whole.feedId = own.feedId AND whole.view = 'none'
                    AND whole.revision = own.revision AND whole.variant = own.variant
                WHERE feed.slug = \(slug) AND own.view = \(view) AND own.revision = \(revision) AND own.variant = \(variant)
                    AND COALESCE(own.body, whole.body) IS NOT NULL
                """, logger: store.logger).decode(ByteBuffer.self)
            for try await chunk in rows { return chunk }
            return nil
        }
    }

    func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        let bytes = export.bytes
        _ = try await store.onConnection { connection in
            // Only for the feed's current revision: a slow replica never
            // replaces a newer revision's bytes with older ones.
            try await connection.query("""
                INSERT INTO feedExport (feedId, view, revision, variant, body, etag, gzipped, gzippedEtag)
                SELECT id, \(view), \(export.revision), \(export.variant), \(bytes?.body), \(bytes?.etag), \(bytes?.gzipped), \(bytes?.gzippedEtag)
                FROM feed WHERE slug = \(slug) AND revision = \(export.revision)
                ON CONFLICT (feedId, view) DO UPDATE SET revision = excluded.revision, variant = excluded.variant, body = excluded.body,
                    etag = excluded.etag, gzipped = excluded.gzipped, gzippedEtag = excluded.gzippedEtag
                WHERE excluded.revision > feedExport.revision OR (excluded.revision = feedExport.revision AND excluded.variant <> feedExport.variant)
                """, logger: store.logger)
        }
    }
}
