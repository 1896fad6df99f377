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
            let row = try await reader.countdownRows(.id(try party.savedID(), lock: false)).first
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

        func lines() async throws -> [String] {
            try await ben.activity(space: "family").map { "\($0.who) \($0.kind) \($0.title) in \($0.feed)" }
        }
        #expect(try await lines() == ["carl changed Dishes in chores", "ben changed Lawn in chores", "ben changed Bins in chores",
                                      "ben added Lawn in chores", "ben added Bins in chores", "anna added Dishes in chores"],
                "every change, newest first, from the log")
        let board = try await anna.board(space: "family", period: .week)
        #expect(board.map { "\($0.login):\($0.completed)" } == ["ben:2", "carl:1", "anna:0"])
        try await carl.setOnBoard(space: "family", false)
        #expect(try await anna.board(space: "family", period: .week).map(\.login) == ["ben", "anna"], "Carl asked to be left off")
        try await service.setMember(space: "family", login: "carl", role: .viewer, replacing: true)
        #expect(try await anna.board(space: "family", period: .week).map(\.login) == ["ben", "anna"], "a new role keeps his choice")
        // A deletion and a move are changes too, and a deleted countdown keeps its lines.
        try await anna.createFeed(Feed(slug: "garden"), inSpace: "family")
        _ = try await ben.move(id: try lawn.savedID(), toFeed: "garden")
        try await ben.delete(id: try bins.savedID())
        #expect(try await lines().prefix(3) == ["ben deleted Bins in chores", "ben movedHere Lawn in garden", "ben movedAway Lawn in chores"])
        #expect(try await ben.activity(space: "family", limit: 2).count == 2)
        temp.clock.advance(400 * 86_400)
        #expect(try await anna.board(space: "family", period: .year).allSatisfy { $0.completed == 0 }, "a year later the year's board is empty")
        let outsider = try await service.addPerson(login: "dora", password: "a long enough password", cost: 4)
        await #expect(throws: StoreError.self) {
            try await service.acting(as: .person(PersonAccess(id: try outsider.savedID(), login: "dora", isAdmin: false))).board(space: "family", period: .week)
        }
        // What his calendar app changed names it too, and keeps it when he is gone.
        guard case .person(var benViaPhone) = ben.principal else { Issue.record("Ben is a person"); return }
        benViaPhone.app = "Ben's phone"
        _ = try await service.acting(as: .person(benViaPhone)).setDone(id: try lawn.savedID(), false)
        #expect(try await anna.activity(space: "family").first?.who == "ben via Ben's phone")
        #expect(try await anna.board(space: "family", period: .year).first { $0.login == "ben" } != nil)
        try await service.deletePerson(login: "ben", handTo: "anna")
        #expect(try await anna.activity(space: "family").prefix(2).map(\.who) == ["Ben (former member) via Ben's phone", "Ben (former member)"],
                "his name stays on the log")
        try await service.deleteFeed(slug: "garden")
        #expect(try await anna.activity(space: "family").allSatisfy { $0.feed == "chores" }, "a deleted feed's log goes with it")
    }

    /// Each use case that writes countdowns files its changes, in the same
    /// transaction: an import's additions, changes and removals included.
    @Test(arguments: StoreBackend.available) func importsFileEveryChangeInTheLog(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        func calendar(_ events: [(uid: String, title: String)]) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//log//EN\r\n" + events.map { event in
                "BEGIN:VEVENT\r\nUID:\(event.uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20270101\r\nSUMMARY:\(event.title)\r\nEND:VEVENT\r\n"
            }.joined() + "END:VCALENDAR\r\n"
        }
        let options = ImportOptions(source: "https://example.org/cal.ics", sync: true, createFeed: true)
        _ = try await service.importCalendar(Data(calendar([("a@log", "One"), ("b@log", "Two")]).utf8), intoFeed: "synced", options: options)
        _ = try await service.importCalendar(Data(calendar([("a@log", "One, moved")]).utf8), intoFeed: "synced", options: options)
        let feedId = try #require(try await temp.store.read { try await $0.feedRow(slug: "synced") }?.id)
        let log = try await temp.store.read { try await $0.changeRows(ChangeQuery(feedIds: [feedId], limit: 10, newestFirst: false)) }
        #expect(log.map { "\($0.kind) \($0.uid) \($0.title)" } == ["added a@log One", "added b@log Two", "changed a@log One, moved", "deleted b@log Two"])
        #expect(log.allSatisfy { $0.actor == "https://example.org/cal.ics" }, "a source's changes name it")
        let after = try #require(log.first?.id)
        #expect(try await temp.store.read { try await $0.changeRows(ChangeQuery(feedIds: [feedId], after: after, limit: 2, newestFirst: false)) }
                    .map(\.uid) == ["b@log", "a@log"], "after the last seen, at most the limit")
    }
}

/// The change log keeps 90 days (issue #38): older changes go, and the
/// newest one gone is remembered, so that a sync token from before it is
/// refused and the calendar app syncs again from the start.
struct ChangeLogTests {
    @Test(arguments: StoreBackend.available) func theLogKeepsNinetyDays(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        try await service.createFeed(Feed(slug: "log"))
        let old = try await service.add(Countdown(uid: "old@log", title: "Old", target: .utc(LocalDateTime(year: 2027, month: 1, day: 1))), toFeed: "log")
        temp.clock.advance(91 * 86_400)
        _ = try await service.add(Countdown(uid: "new@log", title: "New", target: .utc(LocalDateTime(year: 2027, month: 2, day: 1))), toFeed: "log")
        let before = try #require(try await service.calendarChanges(feed: "log", after: 0))
        #expect(before.changes.map(\.uid) == ["old@log", "new@log"])
        let forgotten = try await service.pruneChangeLog()
        #expect(forgotten == before.changes.first?.id)
        #expect(try await service.calendarChanges(feed: "log", after: 0) == nil, "a token from before the floor must sync again")
        let after = try #require(try await service.calendarChanges(feed: "log", after: forgotten))
        #expect(after.changes.map(\.uid) == ["new@log"])
        #expect(try await service.pruneChangeLog() == 0, "nothing more to forget")
        _ = old
    }
}

/// Regression (issue #59, 10): after a reset link, and after a change on "Your account", the old API token
/// still answered 200 and the old app password 207.
struct PasswordChangeRevokesTokensTests {
    @Test(arguments: StoreBackend.available) func aResetRevokesTokensAndAChangeDoesWhenAsked(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        try await service.addPerson(login: "ben", password: "bens long password", cost: 4)
        func live() async throws -> (api: Bool, app: Bool, secrets: (String, String)) {
            let api = try await service.createPersonToken(login: "ben", label: "script", readOnly: false).secret
            let app = try await service.createAppPassword(login: "ben", label: "phone").secret
            return (try await service.person(forToken: api) != nil, try await service.person(login: "ben", appPassword: app) != nil, (api, app))
        }
        func stillWork(_ secrets: (String, String)) async throws -> Bool {
            let api = try await service.person(forToken: secrets.0) != nil
            let app = try await service.person(login: "ben", appPassword: secrets.1) != nil
            #expect(api == app, "both or neither")
            return api && app
        }

        let before = try await live()
        #expect(before.api && before.app)
        let (reset, _) = try await service.createResetLink(login: "ben")
        _ = try await service.resetPassword(reset, to: "a brand new password", cost: 4)
        #expect(try await !stillWork(before.secrets), "a reset ends the API token and the app password")

        let kept = try await live()
        try await service.setPassword(login: "ben", to: "another new password", cost: 4)
        #expect(try await stillWork(kept.secrets), "a change without asking keeps them")
        try await service.setPassword(login: "ben", to: "a third new password", revokingTokens: true, cost: 4)
        #expect(try await !stillWork(kept.secrets), "a change that asks ends them")
    }
}

/// Regression (issue #59, 9): an owner's invitation still made a new owner after that owner was disabled.
struct InvitationStandingTests {
    @Test(arguments: StoreBackend.available) func anInvitationEndsWithItsMakersStanding(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "annas long password", cost: 4)
        let ola = try await service.addPerson(login: "ola", password: "olas long password", cost: 4)
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.setMember(space: "family", login: "ola", role: .owner, replacing: false)
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))
        let asOla = service.acting(as: .person(PersonAccess(id: try ola.savedID(), login: "ola", isAdmin: false)))

        let (byAnna, _) = try await asAnna.createInvitation(space: "family", role: .owner)
        let (byOla, _) = try await asOla.createInvitation(space: "family", role: .editor)
        try await service.setDisabled(login: "anna", true)
        #expect(try await service.oneTimeLink(byAnna) == nil, "a disabled owner's invitation opens nothing")
        await #expect(throws: StoreError.invalid("this invitation has been used or has expired")) {
            try await service.acceptInvitation(byAnna, login: "mallory", displayName: nil, password: "mallorys long password", cost: 4)
        }
        #expect(try await service.people().map(\.login).contains("mallory") == false, "nobody was made")

        try await service.setMember(space: "family", login: "ola", role: .viewer, replacing: true)
        #expect(try await service.oneTimeLink(byOla) == nil, "an owner no longer: their invitation ends")
        try await service.setMember(space: "family", login: "ola", role: .owner, replacing: true)
        let ben = try await service.acceptInvitation(byOla, login: "ben", displayName: nil, password: "bens long password", cost: 4)
        #expect(ben.access.login == "ben", "an owner again: it opens, once")
    }

    /// Regression (issue #59, 9): there was no way to list or revoke open invitations.
    @Test(arguments: StoreBackend.available) func openInvitationsAreListedAndRevokedByThoseWhoMayMakeThem(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "annas long password", cost: 4)
        let ben = try await service.addPerson(login: "ben", password: "bens long password", cost: 4)
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.createSpace(slug: "work", name: "Work", owner: "ben")
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))
        let asBen = service.acting(as: .person(PersonAccess(id: try ben.savedID(), login: "ben", isAdmin: false)))

        let (family, _) = try await asAnna.createInvitation(space: "family", role: .editor)
        let (used, _) = try await asAnna.createInvitation(space: "family", role: .viewer)
        let (work, _) = try await asBen.createInvitation(space: "work", role: nil)
        let (anywhere, _) = try await service.createInvitation(space: nil, role: nil)
        _ = try await service.acceptInvitation(used, login: "carl", displayName: nil, password: "carls long password", cost: 4)

        let annas = try await asAnna.openInvitations(space: "family")
        #expect(annas.map(\.role) == [.editor] && annas.map(\.madeBy) == ["anna"], "a used one is gone from the list")
        #expect(try await service.openInvitations(space: nil).count == 3, "an administrator sees all: two spaces and none")
        #expect(!String(describing: try await service.openInvitations(space: nil)).contains(family), "never the secret")
        await #expect(throws: StoreError.spaceNotFound("work"), "another space's invitations are its owners': one she cannot see is missing") {
            try await asAnna.openInvitations(space: "work")
        }
        await #expect(throws: Authorization.Refused.self, "all of them are an administrator's") { try await asAnna.openInvitations(space: nil) }

        let workID = try #require(try await asBen.openInvitations(space: "work").first?.id)
        await #expect(throws: StoreError.invitationNotFound(workID), "anna cannot revoke ben's, and cannot tell it exists") {
            try await asAnna.revokeInvitation(id: workID)
        }
        #expect(try await service.oneTimeLink(work) != nil, "a refused revoke changed nothing")
        await #expect(throws: StoreError.invitationNotFound("../../etc")) { try await asAnna.revokeInvitation(id: "../../etc") }

        let revoked = try await asAnna.revokeInvitation(id: try #require(annas.first?.id))
        #expect(revoked.space == "family")
        #expect(try await service.oneTimeLink(family) == nil, "a revoked link opens nothing")
        await #expect(throws: StoreError.invalid("this invitation has been used or has expired")) {
            try await service.acceptInvitation(family, login: "dora", displayName: nil, password: "doras long password", cost: 4)
        }
        #expect(try await asAnna.openInvitations(space: "family").isEmpty)

        try await service.setDisabled(login: "ben", true)
        #expect(try await service.openInvitations(space: nil).count == 1, "a disabled maker's invitation is not open: it opens nothing")
        temp.clock.advance(OneTimeLink.lifetime + 1)
        #expect(try await service.openInvitations(space: nil).isEmpty, "expired ones leave the list")
        #expect(try await service.oneTimeLink(anywhere) == nil)
    }
}

/// Regression (issue #59, 13): the board credited a task by the login at the start of its label, so a new
/// `bob` got a deleted bob's tasks (his label became "bob (former member)") and a person named `admin` got
/// the admin token's ("admin token").
struct BoardCreditTests {
    @Test(arguments: StoreBackend.available) func theBoardCreditsAPersonByIdNeverByALabel(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let oldBob = try await service.addPerson(login: "bob", displayName: "bob", password: "a long enough password", cost: 4)
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.setMember(space: "family", login: "bob", role: .editor, replacing: false)
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))
        let asOldBob = service.acting(as: .person(PersonAccess(id: try oldBob.savedID(), login: "bob", isAdmin: false)))
        try await asAnna.createFeed(Feed(slug: "chores"), inSpace: "family")
        func task(_ title: String) -> Countdown {
            Countdown(uid: "\(title.lowercased())@credit.test", title: title, target: .utc(LocalDateTime(year: 2027, month: 1, day: 1)), kind: .task)
        }
        let bins = try await asAnna.add(task("Bins"), toFeed: "chores")
        let dishes = try await asAnna.add(task("Dishes"), toFeed: "chores")
        _ = try await asOldBob.setDone(id: try bins.savedID(), true)
        let adminToken = service.acting(as: .adminToken)
        _ = try await adminToken.setDone(id: try dishes.savedID(), true)

        try await service.deletePerson(login: "bob", handTo: nil)
        let newBob = try await service.addPerson(login: "bob", password: "a long enough password", cost: 4)
        let admin = try await service.addPerson(login: "admin", password: "a long enough password", cost: 4)
        try await service.setMember(space: "family", login: "bob", role: .editor, replacing: false)
        try await service.setMember(space: "family", login: "admin", role: .editor, replacing: false)
        #expect(newBob.id != oldBob.id && admin.id != nil)

        let board = try await asAnna.board(space: "family", period: .week)
        #expect(board.map { "\($0.login):\($0.completed)" }.sorted() == ["admin:0", "anna:0", "bob:0"],
                "neither the deleted bob's task nor the admin token's is anyone's")
        let changes = try await temp.store.read { try await $0.changeRows(ChangeQuery(feedIds: [try await $0.requireFeed("chores", lock: false).savedID()],
                                                                                     limit: 10, newestFirst: false)) }
        #expect(changes.map(\.actorPerson) == [anna.id, anna.id, oldBob.id, nil], "the change log keeps who, by id")
    }
}

/// Regression (issue #59, 13): `GET /api/countdowns/1` of another person's private feed answered
/// `no feed 'annapriv'`, where a missing id answers `no countdown with id N`: the feed's existence and name leaked.
struct CountdownOfAnUnseenFeedTests {
    @Test(arguments: StoreBackend.available) func aCountdownInAFeedOneCannotSeeIsAnsweredAsMissing(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: temp.directory) }
        let service = temp.service
        let anna = try await service.addPerson(login: "anna", password: "annas long password", cost: 4)
        let ben = try await service.addPerson(login: "ben", password: "bens long password", cost: 4)
        let asAnna = service.acting(as: .person(PersonAccess(id: try anna.savedID(), login: "anna", isAdmin: false)))
        let asBen = service.acting(as: .person(PersonAccess(id: try ben.savedID(), login: "ben", isAdmin: false)))
        try await asAnna.createFeed(Feed(slug: "annapriv", isPublic: false))
        try await asAnna.add(Countdown(uid: "x@t", title: "Secret", target: .date(CivilDate(year: 2027, month: 1, day: 1))), toFeed: "annapriv")
        let id = try #require(try await service.countdowns(inFeed: "annapriv").first?.id)
        await #expect(throws: StoreError.countdownNotFound(id)) { try await asBen.countdown(id: id) }
        await #expect(throws: StoreError.countdownNotFound(id + 1000)) { try await asBen.countdown(id: id + 1000) }
        #expect(try await asAnna.countdown(id: id).feed == "annapriv")
    }
}
