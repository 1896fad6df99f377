import CountdownStore

/// Where a person stands toward what a permission is about, read from the
/// store: the feed's owner and the person's memberships.
extension CountdownService {
    func standing(of person: PersonAccess, toward permission: Permission) async throws -> Standing? {
        switch permission {
        case .readFeed(let slug), .editFeed(let slug), .manageSources(let slug), .deleteFeed(let slug):
            return try await store.read { reader in try await Self.standing(of: person, feed: try await reader.feedRow(slug: slug), reader) }
        case .editCountdown(let id):
            return try await store.read { reader in
                guard let row = try await reader.countdownRow(id: id, lock: false) else { return .outsider }
                return try await Self.standing(of: person, feed: try await reader.feedRow(id: row.feedId), reader)
            }
        case .readSpace(let slug), .manageSpace(let slug), .createFeed(let slug?):
            return try await store.read { reader in
                guard let space = try await reader.spaceRows(.slug(slug)).first, let id = space.id else { return .outsider }
                return try await reader.memberRows(spaceId: id, personId: person.id).first.map { Standing($0.role) } ?? .outsider
            }
        case .createFeed(nil), .manageFeeds, .administer:
            return nil
        }
    }

    /// A person's standing toward a feed row (nil: no such feed).
    static func standing(of person: PersonAccess, feed: FeedRecord?, _ reader: any StoreReader) async throws -> Standing {
        guard let feed else { return .outsider }
        if feed.personId == person.id { return .personalOwner }
        guard let spaceId = feed.spaceId else { return .outsider }
        return try await reader.memberRows(spaceId: spaceId, personId: person.id).first.map { Standing($0.role) } ?? .outsider
    }

    /// Of `feeds`, those the principal may read: what a list shows them.
    public func readable(_ feeds: [StoredFeed]) async throws -> [StoredFeed] {
        try await filter(feeds, allowing: Permission.readFeed)
    }

    /// Of `feeds`, those the principal may change: where a countdown may move to.
    public func editable(_ feeds: [StoredFeed]) async throws -> [StoredFeed] {
        try await filter(feeds, allowing: Permission.editFeed)
    }

    /// One read of the person's memberships, whatever the number of feeds.
    private func filter(_ feeds: [StoredFeed], allowing permission: (String) -> Permission) async throws -> [StoredFeed] {
        guard case .person(let person) = principal, !person.isAdmin else {
            return feeds.filter { Authorization.allows(principal, permission($0.feed.slug)) }
        }
        let roles = try await store.read { reader in
            try await reader.memberRows(spaceId: nil, personId: person.id).reduce(into: [Int64: SpaceRole]()) { $0[$1.spaceId] = $1.role }
        }
        return feeds.filter { stored in
            let standing: Standing = if stored.personId == person.id { .personalOwner }
                else if let space = stored.spaceId, let role = roles[space] { Standing(role) } else { .outsider }
            return Authorization.allows(principal, permission(stored.feed.slug), standing: standing)
        }
    }
}
