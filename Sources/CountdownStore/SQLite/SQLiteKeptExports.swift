import Countdowns
import Foundation
import GRDB

/// The exported calendars a server kept (`KeptExport`, table `feedExport`, v9).
extension SQLiteCountdownStore {
    public func keptExport(slug: String, view: Redaction) async throws -> KeptExport? {
        try await read { db in
            // A cached statement: this runs on almost every calendar request of a
            // server whose feeds do not fit in memory, and parsing it took longer than the read.
            let statement = try db.cachedStatement(sql: """
                SELECT feedExport.view, feedExport.revision, feedExport.variant, feedExport.body, feedExport.etag, feedExport.gzipped,
                       feedExport.gzippedEtag
                FROM feedExport JOIN feed ON feed.id = feedExport.feedId WHERE feed.slug = ? AND feedExport.view IN (?, ?)
                """)
            let rows = try Row.fetchAll(statement, arguments: [slug, view, Redaction.none])
            let kept = Dictionary(rows.map { row in (row["view"] as Redaction, Self.keptExport(row)) }, uniquingKeysWith: { first, _ in first })
            return KeptExport.resolved(view: kept[view], full: kept[Redaction.none])
        }
    }

    public func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        try await write { db in
            // Only for the feed's current revision: a slow writer never
            // replaces a newer revision's bytes with older ones.
            try db.execute(sql: """
                INSERT INTO feedExport (feedId, view, revision, variant, body, etag, gzipped, gzippedEtag)
                SELECT id, ?, ?, ?, ?, ?, ?, ? FROM feed WHERE slug = ? AND revision = ?
                ON CONFLICT (feedId, view) DO UPDATE SET revision = excluded.revision, variant = excluded.variant, body = excluded.body,
                    etag = excluded.etag, gzipped = excluded.gzipped, gzippedEtag = excluded.gzippedEtag
                WHERE excluded.revision > feedExport.revision OR (excluded.revision = feedExport.revision AND excluded.variant <> feedExport.variant)
                """, arguments: [view, export.revision, export.variant, export.bytes?.body, export.bytes?.etag, export.bytes?.gzipped,
                                 export.bytes?.gzippedEtag, slug, export.revision])
        }
    }

    private static func keptExport(_ row: Row) -> KeptExport {
        let bytes = (row["body"] as Data?).map { body in
            KeptExport.Bytes(body: body, etag: row["etag"] ?? "", gzipped: row["gzipped"], gzippedEtag: row["gzippedEtag"])
        }
        return KeptExport(revision: row["revision"], variant: row["variant"], bytes: bytes)
    }
}
