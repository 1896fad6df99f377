/// What a use case needs its principal to be allowed.
public enum Permission: Sendable, Equatable, CustomStringConvertible {
    /// Read a feed in full (its countdowns, sources and tokens).
    case readFeed(String)
    /// Change a feed: its settings, countdowns, imports, sources and tokens.
    case editFeed(String)
    /// Change a countdown known by its id (and the feed it is in).
    case editCountdown(Int64)
    /// Make a feed, or delete one.
    case manageFeeds
    /// The server's own settings: the owner's password, sessions, keys, notices' bookkeeping.
    case administer

    public var description: String {
        switch self {
        case .readFeed(let slug): "read feed '\(slug)'"
        case .editFeed(let slug): "change feed '\(slug)'"
        case .editCountdown(let id): "change countdown \(id)"
        case .manageFeeds: "make or delete feeds"
        case .administer: "change the server's settings"
        }
    }
}
