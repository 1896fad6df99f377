import Countdowns
import CountdownStore
import Foundation

/// Spaces (a household, a class, a team) and their members (issue #37).
extension CountdownService {
    /// Makes a space. A person making it is its first owner; the operator
    /// (or an administrator) may name another (`owner`).
    @discardableResult
    public func createSpace(slug: String, name: String, owner: String? = nil) async throws -> SpaceRecord {
        let me: PersonAccess? = if case .person(let person) = principal { person } else { nil }
        if me?.readOnly == true { try await authorize(.administer) }
        if owner != nil, owner != me?.login { try await authorize(.administer) }
        guard owner != nil || me != nil else {
            throw StoreError.invalid("name the space's first owner: {\"slug\", \"name\", \"owner\": \"anna\"} (or make it with a person's token)")
        }
        guard Feed.isValidSlug(slug) else { throw StoreError.invalid("'\(slug)' is not a valid space slug: use lower-case letters, digits and dashes (at most 64)") }
        let name = Self.line(name)
        guard !name.isEmpty, name.count <= 200 else { throw StoreError.invalid("a space's name must have 1 to 200 characters") }
        return try await transaction { tx in
            guard try await tx.spaceRows(.slug(slug)).isEmpty else { throw StoreError.invalid("a space '\(slug)' already exists") }
            let first: Int64
            if let owner {
                guard let person = try await tx.personRows(.login(owner)).first else { throw StoreError.personNotFound(owner) }
                first = try person.savedID()
            } else if let me {
                first = me.id
            } else {
                throw StoreError.invalid("a space needs an owner")
            }
            let space = try await tx.save(SpaceRecord(slug: slug, name: name, createdAt: tx.now))
            let id = try space.savedID()
            try await tx.setMember(spaceId: id, personId: first, to: MemberRecord(spaceId: id, personId: first, role: .owner, joinedAt: tx.now))
            return space
        }
    }

    /// The spaces the principal belongs to, with their role in each, by slug
    /// (an administrator's and the operator's view: every space, with no role).
    public func spaces() async throws -> [(space: SpaceRecord, role: SpaceRole?)] {
        let me: PersonAccess? = if case .person(let person) = principal { person } else { nil }
        if me == nil || me?.isAdmin == true {
            try await authorize(.administer)
            return try await store.read { reader in
                let mine = try await me.asyncMap { try await reader.memberRows(spaceId: nil, personId: $0.id) } ?? []
                return try await reader.spaceRows(nil).map { space in (space, mine.first { $0.spaceId == space.id }?.role) }
            }
        }
        return try await store.read { reader in
            var spaces: [(space: SpaceRecord, role: SpaceRole?)] = []
            for member in try await reader.memberRows(spaceId: nil, personId: me?.id) {
                if let space = try await reader.spaceRows(.id(member.spaceId)).first { spaces.append((space, member.role)) }
            }
            return spaces.sorted { $0.space.slug < $1.space.slug }
        }
    }

    /// A space and its members with their roles, by login.
    public func space(slug: String) async throws -> (space: SpaceRecord, members: [(person: PersonRecord, role: SpaceRole)]) {
        try await authorize(.seeSpace(slug))
        return try await store.read { reader in
            let space = try await Self.requireSpace(slug, reader)
            var members: [(person: PersonRecord, role: SpaceRole)] = []
            for member in try await reader.memberRows(spaceId: try space.savedID(), personId: nil) {
                if let person = try await reader.personRows(.id(member.personId)).first { members.append((person, member.role)) }
            }
            return (space, members.sorted { $0.person.login < $1.person.login })
        }
    }

    /// Adds a person to a space with `role`, or gives a member a new role (`replacing`).
    /// Refused when it would leave the space without an owner.
    public func setMember(space slug: String, login: String, role: SpaceRole, replacing: Bool) async throws {
        try await authorize(.manageSpace(slug))
        try await transaction { tx in
            let (space, person) = try await Self.spaceAndPerson(slug, login, tx)
            let (spaceId, personId) = (try space.savedID(), try person.savedID())
            let current = try await tx.memberRows(spaceId: spaceId, personId: personId).first
            if replacing, current == nil { throw StoreError.personNotFound(login) }
            if !replacing, current != nil { throw StoreError.invalid("\(login) is already a member of '\(slug)'; change their role instead") }
            if current?.role == .owner, role != .owner { try await Self.keepAnOwner(spaceId, besides: personId, slug, tx) }
            try await tx.setMember(spaceId: spaceId, personId: personId,
                                   to: MemberRecord(spaceId: spaceId, personId: personId, role: role, joinedAt: current?.joinedAt ?? tx.now,
                                                    hiddenFromBoard: current?.hiddenFromBoard ?? false))
        }
    }

    /// Removes a member (an owner removes anyone; anyone may leave). Refused for the last owner.
    public func removeMember(space slug: String, login: String) async throws {
        if case .person(let me) = principal, me.login == login, !me.readOnly { try await authorize(.seeSpace(slug)) } else {
            try await authorize(.manageSpace(slug))
        }
        try await transaction { tx in
            let (space, person) = try await Self.spaceAndPerson(slug, login, tx)
            let (spaceId, personId) = (try space.savedID(), try person.savedID())
            guard let current = try await tx.memberRows(spaceId: spaceId, personId: personId).first else { throw StoreError.personNotFound(login) }
            if current.role == .owner { try await Self.keepAnOwner(spaceId, besides: personId, slug, tx) }
            try await tx.setMember(spaceId: spaceId, personId: personId, to: nil)
        }
    }

    /// Makes a feed in a space (`space` given: an editor or owner of it may) or
    /// a person's own (the person asking); the operator's otherwise.
    @discardableResult
    public func createFeed(_ feed: Feed, inSpace space: String?) async throws -> StoredFeed {
        try await authorize(.createFeed(space: space))
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        let owner: Int64? = if case .person(let me) = principal, space == nil { me.id } else { nil }
        return try await transaction { tx in
            guard try await tx.feedRow(slug: feed.slug) == nil else { throw StoreError.feedExists(feed.slug) }
            var row = FeedRecord(feed, now: tx.now)
            row.personId = owner
            if let space { row.spaceId = try await Self.requireSpace(space, tx).savedID() }
            row = try await tx.save(row)
            try await tx.saveCategories(feedId: try row.savedID(), colors: feed.categoryColors, links: [], replacing: false)
            return try await tx.storedFeed(row)
        }
    }

    /// Moves a feed to a space, or (`space` nil) to the person asking: who
    /// may delete a feed may give it away, into a space where they may make
    /// feeds. Its address, tokens and countdowns stay; only who may see and
    /// change it follows its new owner.
    public func moveFeed(_ slug: String, toSpace space: String?) async throws {
        try await authorize(.deleteFeed(slug))
        try await authorize(.createFeed(space: space))
        let person: Int64? = if case .person(let me) = principal { me.id } else { nil }
        try await transaction { tx in
            var row = try await tx.requireFeed(slug, lock: true)
            row.spaceId = try await space.asyncMap { try await Self.requireSpace($0, tx).savedID() }
            row.personId = space == nil ? person : nil
            _ = try await tx.save(row)
            // Its countdowns now count toward the new owner's quota.
            try await tx.checkQuota(feedId: try row.savedID())
        }
    }

    static func requireSpace(_ slug: String, _ reader: any StoreReader) async throws -> SpaceRecord {
        guard let space = try await reader.spaceRows(.slug(slug)).first else { throw StoreError.spaceNotFound(slug) }
        return space
    }

    static func spaceAndPerson(_ slug: String, _ login: String, _ reader: any StoreReader) async throws -> (SpaceRecord, PersonRecord) {
        let space = try await requireSpace(slug, reader)
        guard let person = try await reader.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
        return (space, person)
    }

    /// Refuses to leave a space without an owner.
    static func keepAnOwner(_ spaceId: Int64, besides personId: Int64, _ slug: String, _ reader: any StoreReader) async throws {
        let others = try await reader.memberRows(spaceId: spaceId, personId: nil).filter { $0.role == .owner && $0.personId != personId }
        guard !others.isEmpty else {
            throw StoreError.invalid("'\(slug)' would have no owner left: make another member an owner first")
        }
    }
}
