import SQLiteStore
import Countdowns
import Foundation
import NIOCore
import GRDB
import ICalendar
import Testing
@testable import CountdownStore
import Services

/// Issue #24, 7: a database made at every schema version (`Fixtures/schemas/vN.sqlite`,
/// v1 to today's) opens in today's build, is migrated, and still holds every
/// feed, countdown, token, image, setting and session, serving the same
/// calendars as a database made today with the same data.
///
/// The fixtures are committed, so that a shipped migration edited later (which
/// a test built from today's code would not notice) breaks this test. They were
/// made by `writeFixtures` below (run with TMINUS_WRITE_SCHEMA_FIXTURES=1): the
/// reference data written by today's store, then copied, column by column,
/// into a database migrated only up to that version.
@Suite(.serialized) struct UpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schemas")
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_338_000) }
    static let calendar = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//upgrade//EN\r\nBEGIN:VEVENT\r\nUID:anna@upgrade\r
        DTSTAMP:20260101T000000Z\r\nSUMMARY:Anna turns {n}\r\nDTSTART;VALUE=DATE:19960228\r\nRRULE:FREQ=YEARLY\r\nCATEGORIES:Birthday\r
        END:VEVENT\r\nBEGIN:VEVENT\r\nUID:exam@upgrade\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Maths final\r
        DTSTART;TZID=Europe/Budapest:20270612T090000\r\nDTEND;TZID=Europe/Budapest:20270612T120000\r\nEND:VEVENT\r\nBEGIN:VTODO\r
        UID:essay@upgrade\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Hand in the essay\r\nDUE;VALUE=DATE:20270301\r\nPRIORITY:1\r\nEND:VTODO\r
        END:VCALENDAR\r\n
        """
    static let ownerHash = "$2b$12$upgradefixturehashupgradefixturehashupgradefixtureha"
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 24))

    /// The reference data, written by today's store.
    static func makeReference(at path: String) async throws {
        let store = try SQLiteCountdownStore(path: path, clock: clock)
        _ = try await store.service.importCalendar(Array(calendar.utf8), intoFeed: "family", options: ImportOptions(createFeed: true))
        _ = try await store.service.createFeedToken(feed: "family", label: "grandma", visibility: .full)
        // An image on its own, as an upload that no countdown shows any more leaves it.
        let image = try ImageUpload(png, mimeType: "image/png", limits: StoreLimits())
        try await store.transaction { tx in _ = try await tx.save(ImageRecord(sha256: image.digest, mimeType: image.mimeType, bytes: image.bytes, createdAt: tx.now)) }
        // The owner's password: a setting until v14, the administrator `owner`'s from v15 on (who owns the feed).
        try await store.transaction { tx in
            let owner = try await tx.save(PersonRecord(login: "owner", displayName: "Owner", passwordHash: ownerHash, isAdmin: true, createdAt: tx.now))
            var feed = try #require(try await tx.feedRow(slug: "family", lock: true))
            feed.personId = owner.id
            _ = try await tx.save(feed)
        }
        let revision = try #require(try await store.feed(slug: "family")).revision
        try await store.keptExports.keepExport(KeptExport(revision: revision, variant: "upgrade", bytes: KeptExport.Bytes(body: ByteBuffer(string: "BEGIN:VCALENDAR"), etag: "\"e\"")),
                                   slug: "family", view: .none)
        try await store.service.setPersistedValue(Data("{\"signedInAt\":0}".utf8), for: "session:upgrade", expiresIn: nil, onlyIfAbsent: false)
        // A subscribed address with a sealed login (v10).
        try await store.transaction { tx in
            let feed = try #require(try await tx.feedRow(slug: "family", lock: false))
            var source = SourceRecord(feedId: try feed.savedID(), location: "https://cloud.example.org/family.ics")
            source.subscribed = true
            source.login = "v1.sealed-upgrade-fixture"
            // Its rules (v11), and the digest of those its last import went through.
            source.rules = "change:\n  prefix: 'Cloud: '\n"
            source.importedWith = "rules-digest-fixture"
            source.lastFetchedAt = tx.now
            source.lastSuccessAt = tx.now
            _ = try await tx.save(source)
        }
        try await store.close()
    }

    static var versions: [String] { StoreMigrations.migrator.migrations }

    static func fixture(_ index: Int) -> String { folder.appendingPathComponent("v\(index + 1).sqlite").path }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TMINUS_WRITE_SCHEMA_FIXTURES"] == "1", "writes the fixtures only when asked"))
    func writeFixtures() async throws {
        let reference = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-reference-\(UUID().uuidString).sqlite").path
        try await Self.makeReference(at: reference)
        let source = try DatabaseQueue(path: reference)
        for (index, version) in Self.versions.enumerated() {
            let path = Self.fixture(index)
            // A shipped version's fixture is never made again: it must stay what that version wrote.
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            // Tables are copied in the schema's order, which is not the order their references need.
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let target = try DatabaseQueue(path: path, configuration: configuration)
            try StoreMigrations.migrator.migrate(target, upTo: version)
            try await target.write { db in
                // The change stamp's one row is the migration's (v18 on).
                let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('grdb_migrations', 'changeStamp')"
                for table in try String.fetchAll(db, sql: tables) {
                    let columns = try db.columns(in: table).map(\.name)
                    let rows = try source.read { try Row.fetchAll($0, sql: "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(table)\"") }
                    for row in rows {
                        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                        // OR REPLACE: a migration may have written a setting the reference holds too (v21's).
                        try db.execute(sql: "INSERT OR REPLACE INTO \"\(table)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(placeholders))",
                                       arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
                    }
                }
            }
            try target.close()
        }
        try source.close()
    }

    @Test(arguments: 0..<21)
    func aDatabaseOfEachVersionOpensMigratedWithEverythingInIt(_ index: Int) async throws {
        let fixture = Self.fixture(index)
        try #require(FileManager.default.fileExists(atPath: fixture), "missing fixture \(fixture)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let old = work.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: fixture, toPath: old)
        let reference = work.appendingPathComponent("reference.sqlite").path
        try await Self.makeReference(at: reference)

        let upgraded = try SQLiteCountdownStore(path: old, clock: Self.clock)
        let today = try SQLiteCountdownStore(path: reference, clock: Self.clock)
        #expect(try await upgraded.appliedMigrations() == Self.versions, "migrated to today's schema")
        let feeds = try await upgraded.feeds()
        #expect(feeds.map(\.feed.slug) == ["family"] && feeds.first?.countdownCount == 3)
        let countdowns = try await upgraded.countdowns(inFeed: "family")
        #expect(countdowns.map(\.title).sorted() == ["Anna turns {n}", "Hand in the essay", "Maths final"])
        if index >= 1 {
            // The owner's password (a setting from v2 to v14) is the first administrator's, who owns the feed.
            let owner = try #require(try await upgraded.read { try await $0.personRows(.login("owner")).first }, "v\(index + 1): the owner became a person")
            #expect(owner.passwordHash == Self.ownerHash && owner.isAdmin, "the same password, and an administrator")
            #expect(try await upgraded.read { try await $0.feedRow(slug: "family", lock: false)?.personId } == owner.id, "owning the feed")
            #expect(try await upgraded.read { try await $0.value(for: .setting(.setupTokenHash)) } == nil)
        }
        if index >= 1 { #expect(try await upgraded.activeTokens().count == 1, "the feed token (v2 on)") }
        let familyId = try #require(feeds.first?.id)
        let log = try await upgraded.read { try await $0.changeRows(ChangeQuery(feedIds: [familyId], limit: 10, newestFirst: false)) }
        #expect(log.count == (index >= 18 ? 3 : 0), "the import's three additions (v19 on); older databases start with an empty log")
        if index >= 4 { #expect(try await upgraded.persistedValue(for: "session:upgrade", now: Self.clock()) != nil, "the session (v5 on)") }
        if index >= 8 { #expect(try await upgraded.keptExport(slug: "family", view: .none)?.variant == "upgrade", "the kept export (v9 on)") }
        if index >= 9 { #expect(try await upgraded.subscriptions().first?.login == "v1.sealed-upgrade-fixture", "the sealed login (v10 on)") }
        if index >= 10 { #expect(try await upgraded.subscriptions().first?.rules == "change:\n  prefix: 'Cloud: '\n", "the source's rules (v11 on)") }
        if index >= 10 {
            #expect(try await upgraded.source(feed: "family", location: "https://cloud.example.org/family.ics")?.importedWith == "rules-digest-fixture",
                    "the digest of the rules its last import went through (v11 on)")
        }
        // Rows kept before v21 have no place in their feed's list until the place round (issue #41); then today's.
        #expect(try await upgraded.read { try await $0.rowsToPlace(dueBy: 0, limit: 10) }.count == (index >= 20 ? 0 : 3))
        _ = try await upgraded.service.placeCountdowns()
        let places = { (store: SQLiteCountdownStore) in
            try await store.read { reader in try await reader.countdownRows(.feed(try #require(reader.feedRow(slug: "family")?.id), uid: nil)) }
                .map { "\($0.uid) \($0.place.map { "\($0)" } ?? "unplaced")" }
        }
        // (A v21 database keeps the places it was written with: how a place is found may change, a place stays a bound.)
        if index < 20 { #expect(try await places(upgraded) == places(today), "v\(index + 1): placed as a database made today") }
        let image = try await upgraded.image(StoredImage.scheme + SHA256Hex.of(Self.png))
        #expect(image?.bytes == Self.png)
        // Served byte for byte as a database made today serves it.
        let feed = try #require(feeds.first?.feed)
        let referenceFeed = try #require(try await today.feed(slug: "family")?.feed)
        let exported = CalendarWriter().bytes(CalendarExport.calendar(feed: feed, countdowns: countdowns))
        let expected = CalendarWriter().bytes(CalendarExport.calendar(feed: referenceFeed, countdowns: try await today.countdowns(inFeed: "family")))
        #expect(exported == expected, "v\(index + 1): the export changed")
        try await upgraded.close()
        try await today.close()
    }
}
