/// What a use case needs its principal to be allowed.
public enum Permission: Sendable, Equatable, CustomStringConvertible {
    /// Read a feed in full (its countdowns, sources and tokens).
    case readFeed(String)
    /// See when a feed's events are, as busy blocks without titles, places or notes.
    case readBusyTimes(String)
    /// Change a feed: its settings, countdowns, imports and tokens.
    case editFeed(String)
    /// Change a countdown known by its id (and the feed it is in).
    case editCountdown(Int64)
    /// Add a URL source, a webhook, a purge hook or rules to a feed (they reach the network).
    case manageSources(String)
    /// Make a feed: a person's own (`nil`), or in a space.
    case createFeed(space: String?)
    /// Delete a feed.
    case deleteFeed(String)
    /// Make or delete any feed, as the operator does (feed files, imports that create feeds).
    case manageFeeds
    /// Read a space in full: its members, activity (the titles changed) and board.
    case readSpace(String)
    /// See a space's name and members, and which of its feeds one sees: a busy-only member may.
    case seeSpace(String)
    /// Change a space's members and settings.
    case manageSpace(String)
    /// The server's own settings and its people: passwords, sessions, keys, notices' bookkeeping.
    case administer

    public var description: String {
        switch self {
        case .readFeed(let slug): "read feed '\(slug)'"
        case .readBusyTimes(let slug): "see when the events of feed '\(slug)' are"
        case .editFeed(let slug): "change feed '\(slug)'"
        case .editCountdown(let id): "change countdown \(id)"
        case .manageSources(let slug): "add sources, hooks or rules to feed '\(slug)'"
        case .createFeed(let space?): "make a feed in space '\(space)'"
        case .createFeed(nil): "make a feed"
        case .deleteFeed(let slug): "delete feed '\(slug)'"
        case .manageFeeds: "make or delete any feed"
        case .readSpace(let slug): "see space '\(slug)'"
        case .seeSpace(let slug): "see who is in space '\(slug)'"
        case .manageSpace(let slug): "change the members of space '\(slug)'"
        case .administer: "change the server's settings or its people"
        }
    }

    /// The action the table of permissions knows it by, and whether it is about a feed or a space.
    var action: Action {
        switch self {
        case .readFeed: .read
        case .readSpace: .read
        case .readBusyTimes, .seeSpace: .readBusy
        case .editFeed, .editCountdown, .createFeed: .edit
        case .manageSources: .reachNetwork
        case .deleteFeed: .delete
        case .manageSpace: .manageMembers
        case .manageFeeds, .administer: .manageMembers
        }
    }
}
