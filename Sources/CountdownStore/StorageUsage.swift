/// What some feeds hold, as a storage quota counts it (issue #59, 14): their
/// countdowns, the bytes of those countdowns' kept text (a description is most
/// of it), and how many of them show an uploaded image (each at most
/// `StoreLimits.maxImageBytes`).
public struct StorageUsage: Sendable, Equatable, Codable {
    public var countdowns: Int
    public var bytes: Int
    public var images: Int

    public init(countdowns: Int = 0, bytes: Int = 0, images: Int = 0) {
        self.countdowns = countdowns
        self.bytes = bytes
        self.images = images
    }
}

/// Whose feeds a quota counts: a space's (its feeds), or a person's (their feeds in no space).
public enum StorageOwner: Sendable, Hashable {
    case person(Int64)
    case space(Int64)

    /// The owner a feed's countdowns count toward; nil for the operator's feeds, which have no quota.
    public init?(_ feed: FeedRecord) {
        self.init(personId: feed.personId, spaceId: feed.spaceId)
    }

    /// A space's feed is the space's whoever made it; nil when neither is set.
    public init?(personId: Int64?, spaceId: Int64?) {
        if let space = spaceId { self = .space(space) } else if let person = personId { self = .person(person) } else { return nil }
    }

    /// As a feed change's notice says it (`FeedChange`): `space-3`, `person-5`.
    public var text: String {
        switch self {
        case .space(let id): "space-\(id)"
        case .person(let id): "person-\(id)"
        }
    }

    /// Reads `text`; nil for anything else (`operator`).
    public init?(text: Substring) {
        if text.hasPrefix("space-"), let id = Int64(text.dropFirst(6)) { self = .space(id) }
        else if text.hasPrefix("person-"), let id = Int64(text.dropFirst(7)) { self = .person(id) }
        else { return nil }
    }
}
