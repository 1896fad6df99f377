import Foundation

/// A `member` row (schema v13): one person's role in one space.
public struct MemberRecord: Codable, Sendable, Equatable {
    public var spaceId: Int64
    public var personId: Int64
    public var role: SpaceRole
    public var joinedAt: Date
    /// The member chose to be left off the space's board (schema v17).
    public var hiddenFromBoard: Bool

    public init(spaceId: Int64, personId: Int64, role: SpaceRole, joinedAt: Date, hiddenFromBoard: Bool = false) {
        self.spaceId = spaceId
        self.personId = personId
        self.role = role
        self.joinedAt = joinedAt
        self.hiddenFromBoard = hiddenFromBoard
    }
}
