/// What a committed use case changed, told to whoever keeps a view of the
/// store: the server's catalog reads the feeds' new revisions, its
/// subscriptions reload, a source whose rules changed is fetched again. A
/// port: the server implements it (`ServerEvents`); the command line and the
/// feed loader, whose callers refresh by themselves, listen to nothing.
public enum StoreEvent: Sendable, Equatable {
    /// A transaction committed: feeds, countdowns, tokens or settings may have changed.
    case committed
    /// The sources a feed keeps fetching changed (one was added or removed).
    case subscriptionsChanged(feed: String)
    /// A subscription's rules changed: its source is to be fetched again, in full.
    case rulesChanged(feed: String, location: String)
}

public protocol StoreEvents: Sendable {
    /// Awaited before the use case returns, so that its caller's next read sees the change.
    func published(_ event: StoreEvent) async
}

/// Listens to nothing (the command line, the loader, tests of the store).
public struct NoStoreEvents: StoreEvents {
    public init() {}
    public func published(_ event: StoreEvent) async {}
}
