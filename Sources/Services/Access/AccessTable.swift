import CountdownStore

/// Where a person stands toward one feed or space.
public enum Standing: Sendable, Hashable, CaseIterable {
    /// Administers the server: everything.
    case administrator
    /// The person whose own feed it is.
    case personalOwner
    /// A member of the feed's (or the) space, by role.
    case spaceOwner, editor, viewer
    /// A member who sees busy times only (`SpaceRole.busy`).
    case busyOnly
    /// None of these: the feed is not there for them (404, not 403).
    case outsider

    /// A member's standing in their space.
    public init(_ role: SpaceRole) {
        self = switch role {
        case .owner: .spaceOwner
        case .editor: .editor
        case .viewer: .viewer
        case .busy: .busyOnly
        }
    }
}

/// What a use case does, as the table of permissions names it.
public enum Action: Sendable, Hashable, CaseIterable {
    /// Read a feed in full (its countdowns, sources and tokens), or a space and its members.
    case read
    /// See that a feed or space is there and when its events are, without what they are
    /// (busy blocks over CalDAV and in the app); every standing that reads may.
    case readBusy
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
        .personalOwner: [.read, .readBusy, .edit, .delete],
        .spaceOwner: Set(Action.allCases),
        .editor: [.read, .readBusy, .edit],
        .viewer: [.read, .readBusy],
        .busyOnly: [.readBusy],
        .outsider: [],
    ]

    public static func allows(_ standing: Standing, _ action: Action) -> Bool {
        allowed[standing]?.contains(action) ?? false
    }
}
