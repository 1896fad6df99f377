import Countdowns
import Foundation
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
        }
        try await service.deletePerson(login: "carl", handTo: nil)
        #expect(try await temp.store.feed(slug: "carls") == nil, "deleted with them")
        #expect(try await service.people().map(\.login) == ["anna"])
    }
}
