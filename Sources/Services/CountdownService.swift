import CountdownStore
import Foundation

/// Every use case that changes what is stored, written once: the admin API,
/// the web app, the command line and the feed loader decode their input, call
/// one method here, and encode the result. Each method is one store
/// transaction over a few primitives (`StoreTransaction`), so a failure at any
/// step leaves the store as it was, whichever store it is (SQLite, PostgreSQL).
///
/// The methods that take a `StoreTransaction` are the same use cases as steps
/// of a larger one (the web app saves an image, a countdown and a move in one
/// transaction); the others run their own transaction.
///
/// Each use case runs as a `Principal` (`acting(as:)`; the server itself by
/// default) and first asks `Authorization` for what it needs. After its
/// transaction commits it publishes what changed (`StoreEvents`), so that no
/// caller refreshes anything by hand.
public struct CountdownService: Sendable {
    /// Only use cases reach the store: a front end reads and writes through
    /// them, with the principal's permission; the read model (`Catalog`) and
    /// background work are given the store where they are built.
    let store: any CountdownStore
    /// Who the use cases run as.
    public private(set) var principal: Principal = .system
    /// Told after each commit.
    public let events: any StoreEvents

    /// What the permission check reads, kept until the next commit (shared by copies, `acting(as:)`).
    public let access: AccessCache

    /// How large an input may be (calendars, images) and how far repeats are spelled out.
    public let limits: StoreLimits

    /// What time it is, for what reads compare with it (a session's expiry);
    /// writes take the instant their transaction began (`StoreTransaction.now`).
    public let clock: @Sendable () -> Date

    /// The line of bcrypt checks this service's sign-ins wait in (shared by copies).
    package let passwords = PasswordHashing()

    public init(store: any CountdownStore, limits: StoreLimits = StoreLimits(), events: any StoreEvents = NoStoreEvents(),
                clock: @escaping @Sendable () -> Date = { Date() }, access: AccessCache = AccessCache()) {
        self.store = store
        self.access = access
        self.limits = limits
        self.events = events
        self.clock = clock
    }

    /// The same use cases, run as `principal`.
    public func acting(as principal: Principal) -> CountdownService {
        var service = self
        service.principal = principal
        return service
    }

    /// Refuses, changing nothing, unless the principal may do `permission`.
    /// For a person, their standing toward the feed or space it is about is
    /// read first; one they may not even read is not there for them
    /// (`feedNotFound`, `spaceNotFound`: 404, not 403).
    public func authorize(_ permission: Permission) async throws {
        guard case .person(let person) = principal, !person.isAdmin else { return try Authorization.check(principal, permission) }
        let standing = try await standing(of: person, toward: permission)
        // What a person may not even see the busy times of is not there for them (404, not 403).
        if let standing, !AccessTable.allows(standing, .readBusy) {
            switch permission {
            case .readSpace(let slug), .seeSpace(let slug), .manageSpace(let slug), .createFeed(let slug?): throw StoreError.spaceNotFound(slug)
            case .editCountdown(let id): throw StoreError.countdownNotFound(id)
            case .readFeed(let slug), .readBusyTimes(let slug), .editFeed(let slug), .manageSources(let slug), .deleteFeed(let slug):
                throw StoreError.feedNotFound(slug)
            default: break
            }
        }
        try Authorization.check(principal, permission, standing: standing)
    }

    /// One use case's transaction; once it committed, what the permission
    /// check kept is forgotten and `StoreEvent.committed` is published.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let result = try await store.transaction(body)
        access.forget()
        await events.published(.committed)
        return result
    }
}
