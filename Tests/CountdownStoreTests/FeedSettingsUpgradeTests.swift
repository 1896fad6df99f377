import Countdowns
import Foundation
import GRDB
import ICalendar
import PostgresStore
import SQLiteStore
import Testing
@testable import CountdownStore

/// Schema v12 keeps a feed's settings as one document (`FeedSettingsColumn`)
/// instead of a column each, and the countdown mode typed inside it instead
/// of as "milestones:30,7,1". A feed with every setting changed from its
/// default, written as v11 wrote it, reads back the same after the upgrade, on
/// SQLite and on PostgreSQL.
///
/// Found on the way: the first read after an upgrade failed with "column not
/// found: settings", since the reader connection that checked the schema's
/// version before migrating kept the old table's columns cached. The store now
/// checks on the writer and drops its readers after migrating.
struct FeedSettingsUpgradeTests {
    static let v11 = "v11: source rules"
    static var celebrations: String {
        String(decoding: try! JSONEncoder().encode(Celebrations(halfBirthdays: true, dayCounts: [100, 1000])), as: UTF8.self)
    }
    /// Friday and Saturday (Sunday = 1 … Saturday = 64).
    static let weekend = 32 | 64

    static let expected = Feed(slug: "exams", name: "Exams", description: "Finals week", timeZone: "Europe/Budapest", color: "#FF8800",
                               isPublic: false, countdownMode: .milestones([30, 7, 1]), includeAlarms: true,
                               refreshInterval: ICalDuration(seconds: 3600), categoryColors: ["Maths": "#00AA00"], countdownMaxEvents: 500,
                               celebrations: Celebrations(halfBirthdays: true, dayCounts: [100, 1000]), purgeURL: "https://cdn.example.org/purge",
                               weekend: Weekend(rawValue: weekend), holidays: "public-holidays", language: Language.named("de"), sort: .title)

    @Test(arguments: StoreBackend.available.filter { $0 != .memory }) func everySettingOfAV11FeedSurvivesTheUpgrade(_ backend: StoreBackend) async throws {
        let insert = """
            INSERT INTO feed (slug, name, description, timeZone, color, isPublic, countdownMode, includeAlarms, refreshInterval, createdAt,
                              updatedAt, revision, countdownMaxEvents, celebrations, purgeURL, weekend, holidays, language, sort)
            VALUES ('exams', 'Exams', 'Finals week', 'Europe/Budapest', '#FF8800', FALSE, 'milestones:30,7,1', TRUE, 'PT1H',
                    '2026-01-01 00:00:00', '2026-01-01 00:00:00', 4, 500, '\(Self.celebrations)', 'https://cdn.example.org/purge',
                    \(Self.weekend), 'public-holidays', 'de', 'title')
            """
        let colour = "INSERT INTO category (feedId, name, color) SELECT id, 'Maths', '#00AA00' FROM feed WHERE slug = 'exams'"
        let store = try await OlderStore.upgraded(backend, from: Self.v11, rows: [insert, colour])
        let stored = try #require(try await store.feed(slug: "exams"))
        #expect(stored.feed == Self.expected)
        #expect(stored.revision == 4, "stamps and revision stay: clients see no change")
        #expect(try await store.appliedMigrations().contains("v12: feed settings document"))
        let document = try #require(try await store.read { try await $0.feedRow(slug: "exams") }?.settings.rawValue)
        #expect(document.contains(#""countdown":{"maxEvents":500,"milestones":[30,7,1],"mode":"milestones"}"#), "the mode is typed: \(document)")
        try await store.close()
    }
}
