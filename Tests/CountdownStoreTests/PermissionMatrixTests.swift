import Countdowns
import Foundation
import Testing
@testable import CountdownStore
@testable import Services

/// Issue #37's permission matrix, generated from the one table
/// (`AccessTable`): every permission × every standing a person can have
/// (built from real rows: a personal feed, a space's feed, memberships), plus
/// read-only tokens, feed tokens of each visibility and the operator's token,
/// on every store. What the table allows passes `authorize`; what it denies
/// is refused (403) when the person may read the feed or space, and not there
/// (404) when they may not.
struct PermissionMatrixTests {
    struct World {
        var service: CountdownService
        var people: [Standing: PersonAccess]
    }

    static func world(_ backend: StoreBackend) async throws -> World {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.service
        var people: [Standing: PersonAccess] = [:]
        let logins: [(Standing, String)] = [(.administrator, "ada"), (.personalOwner, "pia"), (.spaceOwner, "sam"), (.editor, "eve"),
                                            (.viewer, "val"), (.busyOnly, "bo"), (.outsider, "otto")]
        for (standing, login) in logins {
            let person = try await service.addPerson(login: login, password: "a long enough password", isAdmin: standing == .administrator, cost: 4)
            people[standing] = PersonAccess(id: try person.savedID(), login: login, isAdmin: standing == .administrator)
        }
        try await service.createSpace(slug: "home", name: "Home", owner: "sam")
        try await service.setMember(space: "home", login: "eve", role: .editor, replacing: false)
        try await service.setMember(space: "home", login: "val", role: .viewer, replacing: false)
        try await service.setMember(space: "home", login: "bo", role: .busy, replacing: false)
        try await service.createFeed(Feed(slug: "shared", isPublic: false), inSpace: "home")
        try await service.acting(as: .person(people[.personalOwner]!)).createFeed(Feed(slug: "mine", isPublic: false))
        return World(service: service, people: people)
    }

    /// Every permission a person's use case asks for, about the feed or space their standing is toward.
    static func permissions(feed: String) -> [Permission] {
        [.readFeed(feed), .readBusyTimes(feed), .editFeed(feed), .manageSources(feed), .deleteFeed(feed), .readSpace("home"), .seeSpace("home"), .manageSpace("home"),
         .createFeed(space: "home"), .createFeed(space: nil), .manageFeeds, .administer]
    }

    /// Whether `authorize` let it through, refused it (403), or hid it (404).
    enum Outcome: Equatable { case allowed, refused, hidden }

    static func outcome(_ service: CountdownService, _ permission: Permission) async -> Outcome {
        do {
            try await service.authorize(permission)
            return .allowed
        } catch is Authorization.Refused {
            return .refused
        } catch {
            return .hidden
        }
    }

    @Test(arguments: StoreBackend.available) func everyPermissionOfEveryStandingIsWhatTheTableSays(_ backend: StoreBackend) async throws {
        let world = try await Self.world(backend)
        var checked = 0
        for standing in Standing.allCases {
            let person = try #require(world.people[standing])
            // The personal owner is asked about their own feed, everyone else about the space's.
            let feed = standing == .personalOwner ? "mine" : "shared"
            for readOnly in [false, true] {
                var access = person
                access.readOnly = readOnly
                let service = world.service.acting(as: .person(access))
                for permission in Self.permissions(feed: feed) {
                    let spaceStanding: Standing = standing == .personalOwner ? .outsider : standing
                    let about: Standing = switch permission {
                    case .readSpace, .seeSpace, .manageSpace, .createFeed(space: "home"): spaceStanding
                    default: standing
                    }
                    let allowed = Authorization.allows(.person(access), permission, standing: about)
                    let hidden = !allowed && !AccessTable.allows(about, .readBusy) && !access.isAdmin
                        && ![Permission.createFeed(space: nil), .manageFeeds, .administer].contains(permission)
                    let expected: Outcome = allowed ? .allowed : hidden ? .hidden : .refused
                    #expect(await Self.outcome(service, permission) == expected, "\(standing)\(readOnly ? " (read-only)" : ""): \(permission)")
                    checked += 1
                }
            }
        }
        // The others: the operator's token and the server may do everything; a feed token only reads its feed, in full.
        for permission in Self.permissions(feed: "shared") {
            #expect(await Self.outcome(world.service.acting(as: .adminToken), permission) == .allowed)
            for visibility in Visibility.allCases {
                let token = world.service.acting(as: .feedToken(feed: "shared", visibility: visibility))
                let expected: Outcome = permission == .readFeed("shared") && visibility == .full || permission == .readBusyTimes("shared") ? .allowed : .refused
                #expect(await Self.outcome(token, permission) == expected, "a \(visibility) token: \(permission)")
                checked += 1
            }
        }
        #expect(checked == 7 * 2 * 12 + 12 * Visibility.allCases.count)
        // Spot checks that the table says what the issue says.
        #expect(AccessTable.allows(.editor, .edit) && !AccessTable.allows(.editor, .reachNetwork) && !AccessTable.allows(.viewer, .edit))
        #expect(AccessTable.allows(.spaceOwner, .manageMembers) && !AccessTable.allows(.personalOwner, .reachNetwork))
        // A busy-only member sees the space and when its events are, and nothing of what they are.
        #expect(AccessTable.allowed[.busyOnly] == [.readBusy] && Standing.allCases.allSatisfy { !AccessTable.allows($0, .read) || AccessTable.allows($0, .readBusy) })
    }
}
