import CountdownStore

/// Where a person stands toward one feed or space.
public enum Standing: Sendable, Hashable, CaseIterable {
    /// Administers the server: everything.
    case administrator
    /// The person whose own feed it is.
    case personalOwner
    /// A member of the feed's (or the) space, by role.
    case spaceOwner, editor, viewer
    /// None of these: the feed is not there for them (404, not 403).
    case outsider

    /// A member's standing in their space.
    public init(_ role: SpaceRole) {
        self = switch role {
        case .owner: .spaceOwner
        case .editor: .editor
        case .viewer: .viewer
        }
    }
}

/// What a use case does, as the table of permissions names it.
public enum Action: Sendable, Hashable, CaseIterable {
    /// Read a feed in full (its countdowns, sources and tokens), or a space and its members.
    case read
    /// Change a feed's settings and countdowns, import into it, make and revoke its tokens; make a feed in a space.
    case edit
    /// What reaches the network and costs CPU: URL sources, webhooks, purge hooks, rules.
    case reachNetwork
    /// A space's members and settings.
    case manageMembers
    /// Delete a feed.
    case delete
}

/// The one table of permissions: what each standing may do. `Authorization`
/// reads it for every use case a person runs; the permission matrix test is
/// generated from it.
public enum AccessTable {
    public static let allowed: [Standing: Set<Action>] = [
        .administrator: Set(Action.allCases),
        .personalOwner: [.read, .edit, .delete],
        .spaceOwner: Set(Action.allCases),
        .editor: [.read, .edit],
        .viewer: [.read],
        .outsider: [],
    ]

    public static func allows(_ standing: Standing, _ action: Action) -> Bool {
        allowed[standing]?.contains(action) ?? false
    }
}
