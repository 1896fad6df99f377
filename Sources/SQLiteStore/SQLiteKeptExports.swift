import Countdowns
import CountdownStore
import Foundation
import GRDB
import GRDBSQLite
import NIOCore

/// The exported calendars a server kept (`KeptExport`, table `feedExport`,
/// v9), in the store's file, on its connections.
public struct SQLiteKeptExports: KeptExports {
    let store: SQLiteCountdownStore

    public func keptExport(slug: String, view: Redaction, bodyUpTo maxBytes: Int) async throws -> KeptExport? {
        // On this thread when a quick reader is free: a few pages, read for a request of a feed not in memory.
        // Any failure there (busy, a connection that would not open) is left to the pool's read, which reports it if it persists.
        if let answered = try? store.quickReaders.read({ db in try Self.keptExport(db, slug: slug, view: view, bodyUpTo: maxBytes) }) { return answered }
        return try await store.readDatabase { db in try Self.keptExport(db, slug: slug, view: view, bodyUpTo: maxBytes) }
    }

    private static func keptExport(_ db: Database, slug: String, view: Redaction, bodyUpTo maxBytes: Int) throws -> KeptExport? {
        // A cached statement: this runs on almost every calendar request of a
        // server whose feeds do not fit in memory, and parsing it took longer than the read.
        let statement = try db.cachedStatement(sql: """
            SELECT feedExport.view, feedExport.revision, feedExport.variant, length(feedExport.body) AS length, feedExport.etag,
                   CASE WHEN length(feedExport.body) <= ?1 THEN feedExport.body END AS body,
                   CASE WHEN length(feedExport.body) <= ?1 THEN feedExport.gzipped END AS gzipped, feedExport.gzippedEtag
            FROM feedExport JOIN feed ON feed.id = feedExport.feedId WHERE feed.slug = ?2 AND feedExport.view IN (?3, ?4)
            """)
        // Bound, stepped and read through SQLite's own calls: GRDB's arguments, row cursor and value decoding were
        // 40% of this read's own time on a miss (perf, issue #41), for eight columns of two rows.
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, Int64(clamping: maxBytes))
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)   // SQLITE_TRANSIENT: SQLite copies the text
        sqlite3_bind_text(raw, 2, slug, -1, transient)
        sqlite3_bind_text(raw, 3, view.rawValue, -1, transient)
        sqlite3_bind_text(raw, 4, Redaction.none.rawValue, -1, transient)
        var own: KeptExport?, full: KeptExport?
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: statement.sql)
            }
            guard let rowView = text(raw, column: 0).flatMap(Redaction.init(rawValue:)), rowView == view || rowView == .none else { continue }
            let length: Int? = sqlite3_column_type(raw, 3) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(raw, 3))
            let export = KeptExport(revision: sqlite3_column_int64(raw, 1), variant: text(raw, column: 2) ?? "", bytes: length.map { length in
                KeptExport.Bytes(body: buffer(statement, column: 5) ?? ByteBuffer(), length: length, etag: text(raw, column: 4) ?? "",
                                 gzipped: buffer(statement, column: 6), gzippedEtag: text(raw, column: 7))
            })
            if rowView == view, own == nil { own = export }
            if rowView == .none, full == nil { full = export }
        }
        return KeptExport.resolved(view: own, full: full)
    }

    /// A text column of the current row; nil for NULL.
    private static func text(_ statement: OpaquePointer?, column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A blob column of the statement's current row, copied once, from SQLite's memory into the buffer a response sends; nil for NULL.
    private static func buffer(_ statement: Statement, column: Int32) -> ByteBuffer? {
        let raw = statement.sqliteStatement
        guard sqlite3_column_type(raw, column) != SQLITE_NULL else { return nil }
        let bytes = sqlite3_column_blob(raw, column)   // then its length: SQLite's order, the pointer stays valid
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let bytes else { return ByteBuffer() }
        return ByteBuffer.exactly(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func keptExportChunk(slug: String, view: Redaction, revision: Int64, variant: String, offset: Int, length: Int) async throws -> ByteBuffer? {
        try await store.readDatabase { db in
            // The row holding the bytes: the view's own, or, for a view written as the same, the full view's of the same revision and
            // variant. Only their lengths are read here (SQLite's length() of a blob reads no overflow page): substr() of the body
            // loaded all 56 MB of a 100,000-countdown export for each 1 MB chunk, twice over (issue #41).
            let statement = try db.cachedStatement(sql: """
                SELECT CASE WHEN own.body IS NOT NULL THEN own.rowid ELSE whole.rowid END AS holder,
                       CASE WHEN own.body IS NOT NULL THEN length(own.body) ELSE length(whole.body) END AS length
                FROM feedExport own JOIN feed ON feed.id = own.feedId
                LEFT JOIN feedExport whole ON own.body IS NULL AND whole.feedId = own.feedId AND whole.view = 'none'
                    AND whole.revision = own.revision AND whole.variant = own.variant
                WHERE feed.slug = ? AND own.view = ? AND own.revision = ? AND own.variant = ? AND (own.body IS NOT NULL OR whole.body IS NOT NULL)
                """)
            guard let row = try Row.fetchOne(statement, arguments: [slug, view, revision, variant]) else { return nil }
            let holder: Int64 = row["holder"], total: Int = row["length"]
            let start = min(max(0, offset), total)
            let count = min(max(0, length), total - start)
            guard count > 0 else { return ByteBuffer() }
            // Only the pages of this chunk, through SQLite's incremental blob I/O, in this read's snapshot.
            var blob: OpaquePointer?
            var code = sqlite3_blob_open(db.sqliteConnection, "main", "feedExport", "body", holder, 0, &blob)
            defer { sqlite3_blob_close(blob) }
            var chunk = ByteBuffer()
            if code == SQLITE_OK {
                chunk.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
                    code = sqlite3_blob_read(blob, target.baseAddress, Int32(clamping: count), Int32(clamping: start))
                    return code == SQLITE_OK ? count : 0
                }
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading a kept export") }
            return chunk
        }
    }

    public func keepExport(_ export: KeptExport, slug: String, view: Redaction) async throws {
        try await store.write { db in
            // Only for the feed's current revision: a slow writer never
            // replaces a newer revision's bytes with older ones.
            try db.execute(sql: """
                INSERT INTO feedExport (feedId, view, revision, variant, body, etag, gzipped, gzippedEtag)
                SELECT id, ?, ?, ?, ?, ?, ?, ? FROM feed WHERE slug = ? AND revision = ?
                ON CONFLICT (feedId, view) DO UPDATE SET revision = excluded.revision, variant = excluded.variant, body = excluded.body,
                    etag = excluded.etag, gzipped = excluded.gzipped, gzippedEtag = excluded.gzippedEtag
                WHERE excluded.revision > feedExport.revision OR (excluded.revision = feedExport.revision AND excluded.variant <> feedExport.variant)
                """, arguments: [view, export.revision, export.variant, export.bytes.map { Data($0.body.readableBytesView) }, export.bytes?.etag,
                                 export.bytes?.gzipped.map { Data($0.readableBytesView) }, export.bytes?.gzippedEtag, slug, export.revision])
        }
        if (export.bytes?.length ?? 0) >= Self.largeWriteBytes { await releaseWriterCache() }
    }

    /// Inserts the row with a body of zeros as long as the parts, then writes
    /// them into it one after the other (SQLite's incremental blob I/O): the
    /// body is never joined, nor copied into a statement. The zeros are not
    /// made in memory either: the body is the row's last column (v22), and
    /// the row is inserted, not updated (an upsert's `excluded.body` made them).
    public func keepExport(parts: [[UInt8]], etag: String, revision: Int64, variant: String, slug: String, view: Redaction) async throws {
        let length = parts.reduce(0) { $0 + $1.count }
        guard length <= Int(Int32.max) else { throw StoreError.invalid("an export of \(length) bytes is past what SQLite keeps in one value") }
        try await store.write { db in
            // Only for the feed's current revision, and only over another revision or variant (as `keepExport(_:slug:view:)`).
            guard let feedId = try Int64.fetchOne(db, sql: "SELECT id FROM feed WHERE slug = ? AND revision = ?", arguments: [slug, revision]) else { return }
            let kept = try Row.fetchOne(db, sql: "SELECT revision, variant FROM feedExport WHERE feedId = ? AND view = ?", arguments: [feedId, view])
            if let kept, kept["revision"] as Int64 > revision || (kept["revision"] as Int64 == revision && kept["variant"] as String == variant) { return }
            try db.execute(sql: "DELETE FROM feedExport WHERE feedId = ? AND view = ?", arguments: [feedId, view])
            try db.execute(sql: """
                INSERT INTO feedExport (feedId, view, revision, variant, etag, gzipped, gzippedEtag, body) VALUES (?, ?, ?, ?, ?, NULL, NULL, zeroblob(?))
                """, arguments: [feedId, view, revision, variant, etag, length])
            var blob: OpaquePointer?
            var code = sqlite3_blob_open(db.sqliteConnection, "main", "feedExport", "body", db.lastInsertedRowID, 1, &blob)
            defer { sqlite3_blob_close(blob) }
            var offset: Int32 = 0
            for part in parts where code == SQLITE_OK && !part.isEmpty {
                code = part.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32(part.count), offset) }
                offset += Int32(part.count)
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "writing a kept export") }
        }
        if length >= Self.largeWriteBytes { await releaseWriterCache() }
    }

    /// From this size a kept export's write is followed by `releaseWriterCache`.
    static let largeWriteBytes = 1 << 20

    /// Frees the writer's page cache once a large export is written: its pages
    /// filled the cache (2 MB, heaptrack on a 10k feed) and are never read
    /// through the writer again. SQLite's call, not GRDB's `releaseMemory`,
    /// which also drops the cached statements. In its turn, between
    /// transactions: a transaction's own pages are pinned until it ends.
    private func releaseWriterCache() async {
        _ = try? await store.turns.run { try await store.pool.writeWithoutTransaction { db in sqlite3_db_release_memory(db.sqliteConnection) } }
    }
}
