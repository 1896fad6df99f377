import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import Hummingbird
import ICalendar
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing
import TminusServer

/// Issue #62: a member who sees busy time only, in the app as over CalDAV:
/// the space's page lists its feeds as busy times, the busy page shows when
/// the events are and nothing of what they are, and the rest of the space
/// (its feeds' pages, activity, board) is not theirs to read.
struct WebAppBusyMemberTests {
    static let password = "correct horse battery"

    @Test func aBusyMemberSeesWhenTheSpacesEventsAreAndNothingOfWhatTheyAre() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.store.service
            try await service.addPerson(login: "anna", displayName: "Anna", password: Self.password, cost: 4)
            try await service.addPerson(login: "dora", displayName: "Dora", password: Self.password, cost: 4)
            try await service.createSpace(slug: "family", name: "Family", owner: "anna")
            try await service.setMember(space: "family", login: "dora", role: .busy, replacing: false)
            try await service.createFeed(Feed(slug: "family", name: "Family plans", isPublic: false), inSpace: "family")
            // Tomorrow 17:00–19:00 UTC, whatever day the test runs.
            let tomorrow = Zone.utc.local(of: parts.dependencies.parts.clock()).date.adding(days: 1)
            var dinner = Countdown(uid: "dinner@family", title: "Dinner at Grandma's",
                                   target: .utc(LocalDateTime(date: tomorrow, hour: 17)))
            dinner.end = .utc(LocalDateTime(date: tomorrow, hour: 19))
            _ = try await service.add(dinner, toFeed: "family")
            await catalogPoll(parts.dependencies).tick(1)

            var dora = Browser(client: client)
            try await dora.signIn(Self.password, as: "dora")
            let space = try await dora.get("/app/spaces/family")
            #expect(space.status == .ok && space.text.contains("/app/feeds/family/busy") && space.text.contains("busy times"), "\(space.text)")
            #expect(!space.text.contains("/app/spaces/family/activity"), "no activity: it names what changed")
            let busy = try await dora.get("/app/feeds/family/busy")
            #expect(busy.status == .ok && busy.text.contains("17:00–19:00") && busy.text.contains(tomorrow.iso), "\(busy.text)")
            #expect(!busy.text.contains("Grandma"), "no title")
            for page in ["/app/feeds/family", "/app/spaces/family/activity", "/app/spaces/family/board", "/feeds/family"] {
                let refused = try await dora.get(page)
                #expect([.forbidden, .notFound].contains(refused.status) && !refused.text.contains("Grandma"), "\(page): \(refused.status)")
            }
            #expect(!(try await dora.get("/app/timeline").text.contains("Grandma")), "nor in her timeline")

            // Anna, who reads it, may look at its busy times too; someone outside the space may not.
            var anna = Browser(client: client)
            try await anna.signIn(Self.password, as: "anna")
            #expect(try await anna.get("/app/feeds/family/busy").text.contains("17:00–19:00"))
            #expect(try await anna.get("/app/spaces/family").text.contains("/app/spaces/family/activity"))
            try await service.removeMember(space: "family", login: "dora")
            await catalogPoll(parts.dependencies).tick(1)
            #expect(try await dora.get("/app/feeds/family/busy").status == .notFound, "not a member: not there")
        }
    }
}
