import Countdowns
import CountdownStore
import Foundation
import Synchronization
import Testing
@testable import Services

/// The permission check answers from `AccessCache` between changes: a change
/// made through the service holds for the very next request; one made by
/// another process holds once the cache is forgotten (the server does that
/// each second); a read that raced a change is not kept.
struct AccessCacheTests {
    @Test(arguments: StoreBackend.available) func aChangeMadeHereHoldsForTheNextRequest(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        _ = try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        _ = try await service.addPerson(login: "ben", password: "bens long password", cost: 4)
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.createFeed(Feed(slug: "birthdays", isPublic: false), inSpace: "family")
        try await service.setMember(space: "family", login: "ben", role: .editor, replacing: false)
        let (secret, _) = try await service.createPersonToken(login: "ben", label: "phone", readOnly: false)

        func ben() async throws -> CountdownService {
            let access = try #require(try await service.person(forToken: secret), "the token signs Ben in")
            return service.acting(as: .person(access))
        }
        for _ in 0..<3 { try await ben().authorize(.editFeed("birthdays")) }

        try await service.setMember(space: "family", login: "ben", role: .viewer, replacing: true)
        try await ben().authorize(.readFeed("birthdays"))
        await #expect(throws: Authorization.Refused.self, "a viewer now, at once") { try await ben().authorize(.editFeed("birthdays")) }

        try await service.removeMember(space: "family", login: "ben")
        await #expect(throws: StoreError.feedNotFound("birthdays"), "removed: the feed is not there for him") {
            try await ben().authorize(.readFeed("birthdays"))
        }

        try await service.setDisabled(login: "ben", true)
        #expect(try await service.person(forToken: secret) == nil, "disabled: his token stops at once")
        try await service.setDisabled(login: "ben", false)
        #expect(try await service.person(forToken: secret) != nil)
        let token = try #require(try await service.personTokens(login: "ben").first)
        try await service.revokePersonToken(login: "ben", id: try #require(token.id))
        #expect(try await service.person(forToken: secret) == nil, "revoked: at once")
    }

    @Test(arguments: StoreBackend.available) func anotherProcessesChangeHoldsOnceForgotten(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let server = temp.service
        _ = try await server.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let ben = try await server.addPerson(login: "ben", password: "bens long password", cost: 4)
        try await server.createSpace(slug: "family", name: "Family", owner: "anna")
        try await server.createFeed(Feed(slug: "birthdays", isPublic: false), inSpace: "family")
        try await server.setMember(space: "family", login: "ben", role: .viewer, replacing: false)
        let asBen = server.acting(as: .person(PersonAccess(id: try ben.savedID(), login: "ben", isAdmin: false)))
        try await asBen.authorize(.readFeed("birthdays"))

        // The command line: the same store, its own service and cache.
        try await CountdownService(store: temp.store).removeMember(space: "family", login: "ben")
        try await asBen.authorize(.readFeed("birthdays"))   // what the server kept, until its next tick
        server.access.forget()
        await #expect(throws: StoreError.feedNotFound("birthdays")) { try await asBen.authorize(.readFeed("birthdays")) }
    }

    @Test func aReadThatRacedAChangeIsNotKept() async throws {
        let cache = AccessCache()
        let reads = Mutex(0)
        let first = try await cache.value(\.spaces, "family") {
            reads.withLock { $0 += 1 }
            cache.forget()   // a commit lands while the read is under way
            return Int64(1)
        }
        #expect(first == 1)
        let second = try await cache.value(\.spaces, "family") { reads.withLock { $0 += 1 }; return Int64(2) }
        #expect(second == 2 && reads.withLock { $0 } == 2, "the raced read was answered, not kept")
        _ = try await cache.value(\.spaces, "family") { reads.withLock { $0 += 1 }; return Int64(3) }
        #expect(reads.withLock { $0 } == 2, "the next one is kept")
    }

    @Test func aTableStartsAgainWhenFull() async throws {
        let cache = AccessCache(capacity: 2)
        for guess in ["a", "b", "c"] { _ = try await cache.value(\.tokens, guess) { nil } }
        let reads = Mutex(0)
        _ = try await cache.value(\.tokens, "a") { reads.withLock { $0 += 1 }; return nil }
        #expect(reads.withLock { $0 } == 1, "forged tokens do not grow it without end")
    }
}
