import Countdowns
import Foundation
import ICalendar
import Testing
@testable import CountdownStore
import Services

/// People's rows and use cases on every store: a person deleted takes their
/// memberships and tokens along, and their own feeds are handed over or
/// deleted; the last owner of a space cannot go.
struct PeopleTests {
    @Test(arguments: StoreBackend.available) func aDeletedPersonsFeedsAreHandedOverOrDeleted(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        var people: [String: PersonAccess] = [:]
        for login in ["anna", "ben", "carl"] {
            let person = try await service.addPerson(login: login, password: "a long enough password", cost: 4)
            people[login] = PersonAccess(id: try person.savedID(), login: login, isAdmin: false)
        }
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.setMember(space: "family", login: "ben", role: .editor, replacing: false)
        let ben = service.acting(as: .person(people["ben"]!))
        try await ben.createFeed(Feed(slug: "bens", isPublic: false))
        let party = try await ben.add(Countdown(uid: "party@people.test", title: "Party", target: .utc(LocalDateTime(year: 2027, month: 5, day: 1))),
                                      toFeed: "bens")
        try await service.acting(as: .person(people["carl"]!)).createFeed(Feed(slug: "carls", isPublic: false))
        _ = try await service.createPersonToken(login: "ben", label: "phone", readOnly: false)

        // Anna is the family's only owner: she cannot go until someone else is one.
        await #expect(throws: StoreError.invalid("'family' would have no owner left: make another member an owner first")) {
            try await service.deletePerson(login: "anna", handTo: nil)
        }
        await #expect(throws: StoreError.personNotFound("dora")) { try await service.deletePerson(login: "ben", handTo: "dora") }

        try await service.deletePerson(login: "ben", handTo: "anna")
        let (benId, annaId) = (people["ben"]!.id, people["anna"]!.id)
        try await temp.store.read { reader async throws in
            #expect(try await reader.personRows(.login("ben")).isEmpty)
            #expect(try await reader.memberRows(spaceId: nil, personId: benId).isEmpty, "memberships go with them")
            #expect(try await reader.personTokenRows(.person(benId)).isEmpty, "tokens too")
            #expect(try await reader.feedRow(slug: "bens")?.personId == annaId, "handed over")
            let row = try await reader.countdownRow(id: try party.savedID(), lock: false)
            #expect(row?.createdBy == "ben (former member)" && row?.changedBy == "ben (former member)", "his name stays on the history")
        }
        try await service.deletePerson(login: "carl", handTo: nil)
        #expect(try await temp.store.feed(slug: "carls") == nil, "deleted with them")
        #expect(try await service.people().map(\.login) == ["anna"])
    }

    /// Invitations and reset links are one-time, last a week, and keep only
    /// their secret's hash; a space owner may invite into their space only.
    @Test(arguments: StoreBackend.available) func oneTimeLinksWorkOnceForAWeek(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))

        let (secret, link) = try await asAnna.createInvitation(space: "family", role: nil)
        #expect(link.purpose == .invitation(space: "family", role: .viewer) && link.madeBy == "anna", "a viewer unless said")
        await #expect(throws: Authorization.Refused.self, "an account in no space is an administrator's to offer") {
            try await asAnna.createInvitation(space: nil, role: nil)
        }
        await #expect(throws: Authorization.Refused.self) { try await asAnna.createResetLink(login: "anna") }
        if backend != .memory {
            let snapshot = try await temp.store.snapshot()
            #expect(!String(describing: snapshot.tables["persistEntry"] ?? []).contains(secret), "only the hash is kept")
        }

        let ben = try await service.acceptInvitation(secret, login: "ben", displayName: "Ben", password: "bens long password", cost: 4)
        #expect(try await service.space(slug: "family").members.map(\.role) == [.owner, .viewer])
        await #expect(throws: StoreError.invalid("this invitation has been used or has expired")) {
            try await service.acceptInvitation(secret, login: "carl", displayName: nil, password: "carls long password", cost: 4)
        }
        #expect(try await service.people().map(\.login) == ["anna", "ben"], "a used invitation made nobody")

        let (reset, _) = try await service.createResetLink(login: "ben")
        temp.clock.advance(OneTimeLink.lifetime + 1)
        #expect(try await service.oneTimeLink(reset) == nil, "expired after a week")
        await #expect(throws: StoreError.invalid("this reset link has been used or has expired")) {
            try await service.resetPassword(reset, to: "a brand new password", cost: 4)
        }
        let (fresh, _) = try await service.createResetLink(login: "ben")
        let signedIn = try await service.resetPassword(fresh, to: "a brand new password", cost: 4)
        #expect(signedIn.access.id == ben.access.id && signedIn.sessionEpoch != nil && signedIn.sessionEpoch != ben.sessionEpoch,
                "every older session of his ends")
        #expect(try await service.signIn(login: "ben", password: "a brand new password") != nil)
    }

    /// A space's activity lists who added and changed what, newest first; its
    /// board ranks members by tasks completed in the period, and leaves off
    /// a member who asked.
    @Test(arguments: StoreBackend.available) func activityAndBoardReadTheHistory(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        var as_: [String: CountdownService] = [:]
        for login in ["anna", "ben", "carl"] {
            let person = try await service.addPerson(login: login, displayName: login.capitalized, password: "a long enough password", cost: 4)
            as_[login] = service.acting(as: .person(PersonAccess(id: try person.savedID(), login: login, isAdmin: false)))
        }
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        for login in ["ben", "carl"] { try await service.setMember(space: "family", login: login, role: .editor, replacing: false) }
        let anna = try #require(as_["anna"]), ben = try #require(as_["ben"]), carl = try #require(as_["carl"])
        try await anna.createFeed(Feed(slug: "chores"), inSpace: "family")
        func task(_ title: String) -> Countdown {
            Countdown(uid: "\(title.lowercased())@board.test", title: title, target: .utc(LocalDateTime(year: 2027, month: 1, day: 1)), kind: .task)
        }
        let dishes = try await anna.add(task("Dishes"), toFeed: "chores")
        temp.clock.advance(60)
        let bins = try await ben.add(task("Bins"), toFeed: "chores")
        let lawn = try await ben.add(task("Lawn"), toFeed: "chores")
        temp.clock.advance(60)
        _ = try await ben.setDone(id: try bins.savedID(), true)
        _ = try await ben.setDone(id: try lawn.savedID(), true)
        _ = try await carl.setDone(id: try dishes.savedID(), true)

        let activity = try await ben.activity(space: "family")
        #expect(activity.first?.kind == .changed && activity.contains { $0.kind == .added && $0.who == "anna" && $0.title == "Dishes" } == false,
                "Dishes was changed since: its line is the change")
        #expect(activity.map(\.who).sorted() == ["ben", "ben", "carl"] && activity.allSatisfy { $0.feed == "chores" })
        let board = try await anna.board(space: "family", period: .week)
        #expect(board.map { "\($0.login):\($0.completed)" } == ["ben:2", "carl:1", "anna:0"])
        try await carl.setOnBoard(space: "family", false)
        #expect(try await anna.board(space: "family", period: .week).map(\.login) == ["ben", "anna"], "Carl asked to be left off")
        try await service.setMember(space: "family", login: "carl", role: .viewer, replacing: true)
        #expect(try await anna.board(space: "family", period: .week).map(\.login) == ["ben", "anna"], "a new role keeps his choice")
        temp.clock.advance(400 * 86_400)
        #expect(try await anna.board(space: "family", period: .year).allSatisfy { $0.completed == 0 }, "a year later the year's board is empty")
        let outsider = try await service.addPerson(login: "dora", password: "a long enough password", cost: 4)
        await #expect(throws: StoreError.self) {
            try await service.acting(as: .person(PersonAccess(id: try outsider.savedID(), login: "dora", isAdmin: false))).board(space: "family", period: .week)
        }
    }
}
