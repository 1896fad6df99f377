import CountdownStore

/// Where a person stands toward what a permission is about: the feed's owner
/// and the person's memberships, read through `AccessCache`.
extension CountdownService {
    func standing(of person: PersonAccess, toward permission: Permission) async throws -> Standing? {
        switch permission {
        case .readFeed(let slug), .readBusyTimes(let slug), .editFeed(let slug), .manageSources(let slug), .deleteFeed(let slug):
            return try await standing(of: person, owner: feedOwner(slug: slug))
        case .editCountdown(let id):
            let owner = try await store.read { reader -> AccessCache.FeedOwner? in
                guard let row = try await reader.countdownRows(.id(id, lock: false)).first else { return nil }
                return try await reader.feedRow(id: row.feedId).map(AccessCache.FeedOwner.init)
            }
            return try await standing(of: person, owner: owner)
        case .readSpace(let slug), .seeSpace(let slug), .manageSpace(let slug), .createFeed(let slug?):
            guard let space = try await spaceId(slug: slug) else { return .outsider }
            return try await memberships(of: person.id)[space].map(Standing.init) ?? .outsider
        case .createFeed(nil), .manageFeeds, .administer:
            return nil
        }
    }

    /// A person's standing toward a feed with this owner (nil: no such feed).
    private func standing(of person: PersonAccess, owner: AccessCache.FeedOwner?) async throws -> Standing {
        guard let owner else { return .outsider }
        if owner.personId == person.id { return .personalOwner }
        guard let spaceId = owner.spaceId else { return .outsider }
        return try await memberships(of: person.id)[spaceId].map(Standing.init) ?? .outsider
    }

    /// Of `feeds`, those the principal may read: what a list shows them.
    public func readable(_ feeds: [StoredFeed]) async throws -> [StoredFeed] {
        try await filter(feeds, allowing: Permission.readFeed)
    }

    /// Of `feeds`, those the principal may see at least the busy times of: a
    /// calendar app's home lists them (`isBusyOnly` says which are only that).
    public func busyReadable(_ feeds: [StoredFeed]) async throws -> [StoredFeed] {
        try await filter(feeds, allowing: Permission.readBusyTimes)
    }

    /// Of `feeds`, those the principal may change: where a countdown may move to.
    public func editable(_ feeds: [StoredFeed]) async throws -> [StoredFeed] {
        try await filter(feeds, allowing: Permission.editFeed)
    }

    /// One look at the person's memberships, whatever the number of feeds.
    private func filter(_ feeds: [StoredFeed], allowing permission: (String) -> Permission) async throws -> [StoredFeed] {
        guard case .person(let person) = principal, !person.isAdmin else {
            return feeds.filter { Authorization.allows(principal, permission($0.feed.slug)) }
        }
        let roles = try await memberships(of: person.id)
        return feeds.filter { stored in
            let standing: Standing = if stored.personId == person.id { .personalOwner }
                else if let space = stored.spaceId, let role = roles[space] { Standing(role) } else { .outsider }
            return Authorization.allows(principal, permission(stored.feed.slug), standing: standing)
        }
    }
}

/// The store's answers the permission check needs, each kept in `access` until a change.
extension CountdownService {
    /// The person with this id, disabled or not (nil: deleted).
    func person(id: Int64) async throws -> PersonRecord? {
        try await access.value(\.people, id) { try await store.read { try await $0.personRows(.id(id)).first } }
    }

    /// The API token with this hash, live or not (nil: none).
    func personToken(hash: String) async throws -> PersonTokenRecord? {
        try await access.value(\.tokens, hash) { try await store.read { try await $0.personTokenRows(.hash(hash)).first } }
    }

    /// A person's role in each space they belong to, by the space's id.
    func memberships(of personId: Int64) async throws -> [Int64: SpaceRole] {
        try await access.value(\.memberships, personId) {
            try await store.read { reader in
                try await reader.memberRows(spaceId: nil, personId: personId).reduce(into: [Int64: SpaceRole]()) { $0[$1.spaceId] = $1.role }
            }
        }
    }

    func feedOwner(slug: String) async throws -> AccessCache.FeedOwner? {
        try await access.value(\.feeds, slug) { try await store.read { try await $0.feedRow(slug: slug) }.map(AccessCache.FeedOwner.init) }
    }

    func spaceId(slug: String) async throws -> Int64? {
        try await access.value(\.spaces, slug) { try await store.read { try await $0.spaceRows(.slug(slug)).first?.id } }
    }
}

extension AccessCache.FeedOwner {
    init(_ feed: FeedRecord) {
        self.init(personId: feed.personId, spaceId: feed.spaceId)
    }
}
