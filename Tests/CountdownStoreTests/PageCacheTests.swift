import Countdowns
import CountdownStore
import GRDB
import GRDBSQLite
import NIOCore
import Testing
@testable import SQLiteStore

/// What SQLite's page caches hold in a server (issue #41: memory by the
/// countdown): readers keep 512 KB, and the writer gives back what a large
/// kept export filled its cache with.
struct PageCacheTests {
    @Test func readersKeepASmallPageCacheAndTheWriterSQLitesDefault() async throws {
        let temp = try await TemporaryStore.make(.sqlite)
        let store = try #require(temp.store as? SQLiteCountdownStore)
        #expect(try await store.readDatabase { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == SQLiteCountdownStore.readerCacheKiB)
        #expect(try store.quickReaders.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == SQLiteCountdownStore.readerCacheKiB)
        #expect(try await store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -2000)
    }

    @Test func aLargeKeptExportLeavesNoPagesInTheWritersCache() async throws {
        let temp = try await TemporaryStore.make(.sqlite)
        let store = try #require(temp.store as? SQLiteCountdownStore)
        try await temp.service.createFeed(Feed(slug: "big"))
        let revision = try #require(try await store.feed(slug: "big")).revision
        let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: 3 << 20)
        try await store.keptExports.keepExport(KeptExport(revision: revision, variant: "v1", bytes: KeptExport.Bytes(body: body, etag: "\"a\"")), slug: "big", view: .none)
        // Without the release, the blob's pages stay in the writer's cache, up to its 2 MB (this fails then: checked).
        #expect(try await store.pool.writeWithoutTransaction { db in Self.cacheUsed(db) } < 256 << 10)
        try await store.keptExports.keepExport(parts: [Array(repeating: UInt8(ascii: "y"), count: 3 << 20)], etag: "\"b\"", revision: revision, variant: "v2",
                                   slug: "big", view: .none)
        #expect(try await store.pool.writeWithoutTransaction { db in Self.cacheUsed(db) } < 256 << 10)
        #expect(try await store.keptExports.keptExport(slug: "big", view: .none, bodyUpTo: 0)?.bytes?.length == 3 << 20, "the export is kept all the same")
    }

    /// Bytes the connection's page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    private static func cacheUsed(_ db: Database) -> Int {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }
}
