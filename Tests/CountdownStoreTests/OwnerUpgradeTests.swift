import Countdowns
import Foundation
import GRDB
import PostgresStore
import SQLiteStore
import Testing
@testable import CountdownStore

/// Schema v15 (issue #37): the web app's one owner password, a setting until
/// v14, becomes the administrator `owner`'s, with the same hash, owning every
/// feed nobody owned; a feed of a space or of another person stays theirs.
/// On SQLite and on PostgreSQL (the SQLite fixtures of every version check
/// the same, in `UpgradeTests`).
struct OwnerUpgradeTests {
    static let v14 = "v14: who made and changed each countdown"
    static let hash = "$2b$12$ownerupgradehashownerupgradehashownerupgradehashowne"

    static let statements = [
        "INSERT INTO setting (key, value) VALUES ('ownerPasswordHash', '\(hash)'), ('sessionEpoch', 'old-epoch')",
        "INSERT INTO person (login, displayName, passwordHash, isAdmin, createdAt) VALUES ('ben', 'Ben', NULL, FALSE, '2026-01-01 00:00:00')",
        "INSERT INTO space (slug, name, createdAt) VALUES ('exams', 'Exams', '2026-01-01 00:00:00')",
        "INSERT INTO feed (slug, createdAt, updatedAt, revision, settings) VALUES ('family', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 3, '{}')",
        """
        INSERT INTO feed (slug, createdAt, updatedAt, revision, settings, personId)
        SELECT 'bens', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1, '{}', id FROM person WHERE login = 'ben'
        """,
        """
        INSERT INTO feed (slug, createdAt, updatedAt, revision, settings, spaceId)
        SELECT 'school', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1, '{}', id FROM space WHERE slug = 'exams'
        """,
    ]

    @Test(arguments: StoreBackend.available.filter { $0 != .memory }) func theOwnerBecomesTheFirstAdministratorOwningTheFeedsNobodyOwned(_ backend: StoreBackend) async throws {
        let store = try await OlderStore.upgraded(backend, from: Self.v14, rows: Self.statements)
        let owner = try #require(try await store.read { try await $0.personRows(.login("owner")).first })
        #expect(owner.passwordHash == Self.hash && owner.isAdmin && owner.displayName == "Owner" && owner.sessionEpoch == nil)
        let feeds = try await store.read { try await $0.feedRows(nil, lock: false) }
        let ben = try #require(try await store.read { try await $0.personRows(.login("ben")).first })
        #expect(feeds.first { $0.slug == "family" }?.personId == owner.id, "the owner's now")
        #expect(feeds.first { $0.slug == "bens" }?.personId == ben.id, "still Ben's")
        #expect(feeds.first { $0.slug == "school" }?.personId == nil && feeds.first { $0.slug == "school" }?.spaceId != nil, "still the space's")
        #expect(feeds.first { $0.slug == "family" }?.revision == 3, "ownership changes no output: the revision stays")
        #expect(try await store.read { try await $0.value(for: .setting(.setupTokenHash)) } == nil)
        let snapshot = try await store.snapshot()
        // v21 notes that a database without countdowns has nothing to repair; nothing else is left.
        let settings = (snapshot.tables["setting"] ?? []).filter { $0.first != .text(SettingKey.keptCountdownsRepaired.rawValue) }
        #expect(settings.isEmpty, "the owner's password and the sessions' epoch left the settings: \(settings)")
        try await store.close()
    }
}
