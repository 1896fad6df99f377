import SQLiteStore
import Foundation
import GRDB
import Testing
@testable import CountdownStore

/// Issue #24, 7: a database from a newer version is refused with a clear
/// message instead of being opened (and written with an older schema's idea
/// of its tables).
struct SchemaVersionTests {
    @Test func aDatabaseFromANewerVersionIsRefusedAndLeftAlone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-newer-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteCountdownStore(path: path)
        try await store.close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        try queue.close()
        #expect {
            _ = try SQLiteCountdownStore(path: path)
        } throws: { error in
            guard case StoreError.newerSchema(let database, let migration) = error else { return false }
            return database == path && migration == "v99: from the future"
                && "\(error)".contains("was made by a newer tminus") && "\(error)".contains("restore a backup made by this version")
        }
        let check = try DatabaseQueue(path: path)
        let applied = try await check.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        try check.close()
        #expect(applied.contains("v99: from the future") && applied.count == StoreMigrations.migrator.migrations.count + 1, "nothing was migrated")
    }
}
