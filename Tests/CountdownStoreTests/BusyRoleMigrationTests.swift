import SQLiteStore
import Foundation
import GRDB
import Testing
@testable import CountdownStore

/// Issue #62's busy-only role needed the member table made again (SQLite
/// changes a CHECK no other way): a database of v24 keeps every member and
/// role, takes `busy`, and its change stamp still moves with a membership.
struct BusyRoleMigrationTests {
    @Test func aDatabaseOfV24KeepsItsMembersAndTakesTheBusyRole() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-v24-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        let v24 = try #require(StoreMigrations.migrator.migrations.first { $0.hasPrefix("v24") })
        try StoreMigrations.migrator.migrate(queue, upTo: v24)
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO person (id, login, displayName, createdAt) VALUES (1, 'anna', 'Anna', '2026-01-01'), (2, 'ben', 'Ben', '2026-01-01');
                INSERT INTO space (id, slug, name, createdAt) VALUES (1, 'family', 'Family', '2026-01-01');
                INSERT INTO member (spaceId, personId, role, joinedAt, hiddenFromBoard) VALUES (1, 1, 'owner', '2026-01-01', 0), (1, 2, 'viewer', '2026-02-01', 1);
                """)
            #expect(throws: DatabaseError.self, "v24 takes no busy role") {
                try db.execute(sql: "UPDATE member SET role = 'busy' WHERE personId = 2")
            }
        }
        try queue.close()

        let store = try SQLiteCountdownStore(path: path)
        let members = try await store.read { try await $0.memberRows(spaceId: 1, personId: nil) }
        #expect(members.map(\.role) == [.owner, .viewer] && members.map(\.hiddenFromBoard) == [false, true], "\(members)")
        let before = try #require(try await store.changeStamp())
        try await store.transaction { tx in
            try await tx.setMember(spaceId: 1, personId: 2, to: MemberRecord(spaceId: 1, personId: 2, role: .busy, joinedAt: tx.now))
        }
        #expect(try await store.read { try await $0.memberRows(spaceId: 1, personId: 2) }.map(\.role) == [.busy])
        #expect(try await store.changeStamp() != before, "the change stamp's triggers were made again with the table")
        #expect(try await store.check(.full).problem == nil)
        try await store.close()
    }
}
