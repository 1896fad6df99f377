import SQLiteStore
import Countdowns
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

/// Issue #40: commands that only read (`list`, `export`) open the file
/// read-only, so that nothing they do can change it; a file whose schema is
/// behind is upgraded first only when it may be written.
struct ReadOnlyOpeningTests {
    @Test func aStoreOpenedReadOnlyReadsAndRefusesEveryWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-readonly-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer = try SQLiteCountdownStore(path: path)
        try await writer.transaction { tx in _ = try await tx.save(FeedRecord(Feed(slug: "kept"), now: Date())) }
        try await writer.close()

        let reader = try SQLiteCountdownStore(path: path, readOnly: true)
        #expect(try await reader.feeds().map(\.feed.slug) == ["kept"])
        await #expect { try await reader.transaction { tx in _ = try await tx.save(FeedRecord(Feed(slug: "new"), now: Date())) } } throws: { error in
            guard case StoreError.unusable(let why) = error else { return false }
            return why.contains(path) && why.contains("read-only")
        }
        try await reader.close()
        let again = try SQLiteCountdownStore(path: path, readOnly: true)
        #expect(try await again.feeds().map(\.feed.slug) == ["kept"], "the refused write left nothing")
        try await again.close()
    }

    /// A database of the first schema (a fixture of `UpgradeTests`), listed
    /// read-only: the file may be written, so it is upgraded first, then read.
    @Test func anOlderWritableDatabaseIsUpgradedBeforeItIsReadReadOnly() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-older-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try FileManager.default.copyItem(atPath: UpgradeTests.fixture(0), toPath: path)
        let reader = try SQLiteCountdownStore(path: path, readOnly: true)
        #expect(try await reader.feeds().map(\.feed.slug) == ["family"])
        #expect(try await reader.appliedMigrations() == UpgradeTests.versions, "migrated to today's schema")
        try await reader.close()
    }
}
