import Countdowns
import Foundation
import Services
import Testing
@testable import CountdownStore

/// Countdowns kept before issue #39 held what a calendar said (a rule libical
/// cannot read, an end before its start). The upgrade rewrites each as it is
/// understood, once, on every store; the store's text is then read as it is.
struct KeptCountdownRepairTests {
    /// A row as tminus 0.11 kept it: the calendar's bytes, a misspelt UNTIL included.
    static let legacy = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus//tminus//EN\r
        CALSCALE:GREGORIAN\r
        BEGIN:VEVENT\r
        UID:choir@example.com\r
        DTSTAMP:19700101T000000Z\r
        SEQUENCE:0\r
        SUMMARY:Choir\r
        DTSTART:20261201T180000Z\r
        DTEND:20261201T170000Z\r
        RRULE:FREQ=WEEKLY;UNTL=20261223T000000Z\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test(arguments: StoreBackend.available)
    func aKeptCountdownIsRewrittenAsItIsUnderstoodOnce(_ backend: StoreBackend) async throws {
        let temporary = try await TemporaryStore.make(backend)
        let store = temporary.store
        // As a database from before 0.12 is (a new one notes at creation that it has nothing to repair, v21).
        try await store.transaction { tx in try await tx.setValue(nil, for: .setting(.keptCountdownsRepaired)) }
        let feed = try await temporary.service.createFeed(Feed(slug: "choir"))
        let before = try #require(try await store.feed(slug: "choir")).revision
        _ = try await store.transaction { tx in
            try await tx.saveCountdowns([CountdownRecord(id: nil, feedId: feed.id, sourceId: nil, uid: "choir@example.com", title: "Choir", kind: .event,
                                                         status: .active, startsOn: "2026-12-01", sequence: 2, createdAt: Date(timeIntervalSince1970: 1_700_000_000),
                                                         lastModified: Date(timeIntervalSince1970: 1_700_000_000), content: Self.legacy)])
        }
        let kept = try #require(try await store.countdowns(inFeed: "choir").first)
        #expect(kept.repeatRule == .rule("FREQ=WEEKLY;UNTL=20261223T000000Z"), "read as it was kept, without a repair on every read")

        #expect(try await temporary.service.repairKeptCountdowns() == 1)
        let row = try #require(try await store.read { try await $0.countdownRows(.feed(feed.id, uid: nil)) }.first)
        #expect(!row.content.contains("\r\nRRULE:") && row.content.contains("X-TMINUS-WARNING"))
        #expect(row.content.contains("DTSTART:20261201T170000Z") && row.content.contains("DTEND:20261201T180000Z"))
        #expect(row.sequence == 2 && row.createdAt == Date(timeIntervalSince1970: 1_700_000_000), "its stamps stay")
        #expect(row.startsOn == "2026-12-01")
        let repaired = try #require(try await store.countdowns(inFeed: "choir").first)
        #expect(repaired.repeatRule == .none && repaired.warnings.count == 2)
        #expect(try #require(try await store.feed(slug: "choir")).revision > before, "subscribers fetch it again")
        let logged = try await store.read { try await $0.changeRows(ChangeQuery(feedIds: [feed.id], limit: 10, newestFirst: true)) }
        #expect(logged.first?.actor == CountdownService.upgradeActor)
        #expect(try await temporary.service.repairKeptCountdowns() == 0, "once")
        try await store.close()
    }
}
