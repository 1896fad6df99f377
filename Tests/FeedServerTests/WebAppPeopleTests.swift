import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Services
import Testing
@testable import FeedServer

/// Issue #37: the web app signs people in, each sees and changes what their
/// standing allows, and an administrator's "disable" ends their sessions at once.
struct WebAppPeopleTests {
    static let password = "correct horse battery"

    @Test func eachPersonSeesTheirOwnFeedsAndMakesFeedsOfTheirOwn() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.store.service
            let anna = try await service.addPerson(login: "anna", displayName: "Anna", password: Self.password, isAdmin: true, cost: 4)
            let ben = try await service.addPerson(login: "ben", displayName: "Ben", password: Self.password, cost: 4)
            _ = try await service.acting(as: .person(PersonAccess(id: try #require(anna.id), login: "anna", isAdmin: true))).createFeed(Feed(slug: "annas"))
            var browser = Browser(client: client)
            try await browser.signIn(Self.password, as: "ben")
            let feeds = try await browser.get("/app")
            #expect(feeds.status == .ok && feeds.text.contains("Signed in as Ben"))
            #expect(!feeds.text.contains("/app/feeds/annas") && !feeds.text.contains("/app/feeds/family"), "neither Anna's nor the operator's feeds")
            #expect(try await browser.get("/app/feeds/annas").status == .notFound, "another's feed is not there for him")
            #expect(try await browser.post("/app/feeds", ["name": "Bens exams", "timeZone": "UTC"]).status == .seeOther)
            let made = try await parts.store.read { try await $0.feedRows(nil, lock: false) }.filter { $0.personId == ben.id }
            #expect(made.count == 1, "the feed he made is his: \(made.map(\.slug))")
            let slug = try #require(made.first?.slug)
            #expect(try await browser.get("/app").text.contains("/app/feeds/\(slug)"))

            var admin = Browser(client: client)
            try await admin.signIn(Self.password, as: "anna")
            let all = try await admin.get("/app")
            #expect(all.text.contains("/app/feeds/annas") && all.text.contains("/app/feeds/family") && all.text.contains("/app/feeds/\(slug)"),
                    "an administrator sees every feed")
        }
    }

    @Test func disablingAPersonEndsTheirSessionsAtOnce() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.store.service
            try await service.addPerson(login: "ben", password: Self.password, cost: 4)
            var phone = Browser(client: client), laptop = Browser(client: client)
            try await phone.signIn(Self.password, as: "ben")
            try await laptop.signIn(Self.password, as: "ben")
            #expect(try await phone.get("/app").status == .ok)
            try await service.setDisabled(login: "ben", true)
            #expect(try await phone.get("/app").headers[.location] == "/app/signin", "the next request finds the session ended")
            #expect(try await laptop.post("/app/feeds", ["name": "Sneaky", "timeZone": "UTC"]).status == .forbidden, "its form was of the ended session")
            #expect(try await parts.store.feeds().isEmpty, "a form posted after the disable changes nothing")
            _ = try await phone.get("/app/signin")
            let refused = try await phone.post("/app/signin", ["login": "ben", "password": Self.password])
            #expect(refused.status == .unauthorized && refused.text.contains("not right"), "and he cannot sign in again")
            try await service.setDisabled(login: "ben", false)
            try await phone.signIn(Self.password, as: "ben")
            #expect(try await phone.get("/app").status == .ok)
        }
    }

    @Test func anUnknownLoginAndAWrongPasswordGetTheSameAnswer() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", password: Self.password, cost: 4)
            var browser = Browser(client: client)
            _ = try await browser.get("/app/signin")
            let unknown = try await browser.post("/app/signin", ["login": "nobody", "password": Self.password])
            let wrong = try await browser.post("/app/signin", ["login": "ben", "password": "not his password"])
            #expect(unknown.status == .unauthorized && wrong.status == .unauthorized)
            #expect(unknown.text.contains("That login name or password is not right.") && wrong.text.contains("That login name or password is not right."))
            #expect(unknown.text.contains("value=\"nobody\""), "the login is kept in the form")
            try await browser.signIn(Self.password, as: " Ben ")
            #expect(try await browser.get("/app").status == .ok, "a login is matched without case or surrounding spaces")
        }
    }
}
