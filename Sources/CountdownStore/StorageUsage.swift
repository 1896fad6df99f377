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
        if let space = feed.spaceId { self = .space(space) } else if let person = feed.personId { self = .person(person) } else { return nil }
    }
}
