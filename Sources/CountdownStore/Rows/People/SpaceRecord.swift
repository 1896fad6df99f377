import Foundation

/// A `space` row (schema v13): a household, a class, a team. Its feeds
/// belong to it, and its members' roles say what each may do with them.
public struct SpaceRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    /// Its address name: the rules of a feed slug.
    public var slug: String
    public var name: String
    public var createdAt: Date

    public init(id: Int64? = nil, slug: String, name: String, createdAt: Date) {
        self.id = id
        self.slug = slug
        self.name = name
        self.createdAt = createdAt
    }
}
