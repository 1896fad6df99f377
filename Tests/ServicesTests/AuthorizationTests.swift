import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services
import Synchronization
import Testing

/// Issue #36: every use case runs as a principal and asks `Authorization`
/// first; a refusal changes nothing and tells no one. After a commit the
/// service publishes what changed, so that no caller refreshes by hand.
struct AuthorizationTests {
    final class Recorder: StoreEvents {
        let events = Mutex<[StoreEvent]>([])
        func published(_ event: StoreEvent) async { events.withLock { $0.append(event) } }
        var all: [StoreEvent] { events.withLock { $0 } }
    }

    static func countdown(_ title: String) -> Countdown {
        Countdown(uid: "\(title.lowercased())@authorization.test", title: title,
                  target: .utc(LocalDateTime(year: 2027, month: 3, day: 1, hour: 9)))
    }

    @Test func aFeedTokenReadsItsOwnFeedAndChangesNothing() async throws {
        let store = InMemoryCountdownStore()
        let recorder = Recorder()
        let owner = CountdownService(store: store, events: recorder).acting(as: .adminToken)
        _ = try await owner.createFeed(Feed(slug: "family"))
        let before = recorder.all
        let reader = owner.acting(as: .feedToken(feed: "family", visibility: .full))
        await #expect(throws: Authorization.Refused.self) { try await reader.add(Self.countdown("Sneaky"), toFeed: "family") }
        await #expect(throws: Authorization.Refused.self) { try await reader.createFeed(Feed(slug: "other")) }
        await #expect(throws: Authorization.Refused.self) { try await reader.createFeedToken(feed: "family", label: "more", visibility: .full) }
        await #expect(throws: Authorization.Refused.self) { try await reader.issueSetupLink() }
        #expect(try await store.countdowns(inFeed: "family").isEmpty, "nothing was added")
        #expect(try await store.feed(slug: "other") == nil)
        #expect(recorder.all == before, "a refusal tells no one")

        #expect(Authorization.allows(.feedToken(feed: "family", visibility: .full), .readFeed("family")))
        #expect(!Authorization.allows(.feedToken(feed: "family", visibility: .full), .readFeed("bills")), "only its own feed")
        #expect(!Authorization.allows(.feedToken(feed: "family", visibility: .busy), .readFeed("family")), "a busy token never reads in full")
        for principal in [Principal.commandLine, .adminToken, .system] {
            #expect(Authorization.allows(principal, .manageFeeds) && Authorization.allows(principal, .editCountdown(1)))
        }
        #expect(!Authorization.allows(.anonymous, .readFeed("family")) && !Authorization.allows(.anonymous, .createFeed(space: nil)),
                "a page before sign-in may do nothing")
        let refusal = Authorization.Refused(principal: .feedToken(feed: "family", visibility: .titles), permission: .editFeed("family"))
        #expect(refusal.description == "a titles token of feed 'family' may not change feed 'family'; nothing was changed")
    }

    @Test func aCommittedUseCaseTellsWhatChanged() async throws {
        let store = InMemoryCountdownStore()
        let recorder = Recorder()
        let service = CountdownService(store: store, events: recorder).acting(as: .adminToken)
        _ = try await service.createFeed(Feed(slug: "school"))
        let added = try await service.add(Self.countdown("Exam"), toFeed: "school")
        #expect(recorder.all == [.committed, .committed])
        let calendar = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:trip@authorization.test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Trip\r\nDTSTART;VALUE=DATE:20270401\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        _ = try await service.importAndSubscribe(calendar, intoFeed: "school", options: ImportOptions(source: "https://example.org/school.ics", sync: true),
                                                 location: "https://example.org/school.ics")
        #expect(recorder.all.suffix(2) == [.committed, .subscriptionsChanged(feed: "school")])
        #expect(try await service.setSubscriptionRules(feed: "school", location: "https://example.org/school.ics", rules: "exclude:\n  categories: [x]\n"))
        #expect(recorder.all.last == .rulesChanged(feed: "school", location: "https://example.org/school.ics"))
        #expect(try await !service.setSubscriptionRules(feed: "school", location: "https://example.org/other.ics", rules: nil))
        #expect(recorder.all.last == .committed, "no rules changed, so no fetch is asked for")
        try await service.delete(id: try added.savedID())
        #expect(recorder.all.last == .committed)
    }
}
