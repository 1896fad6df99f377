/// A store that tells when another process changed a feed, instead of being
/// asked: PostgreSQL's NOTIFY, which every replica hears. A store without it
/// (SQLite, memory) returns nil from `CountdownStore.changeNotices`, and the
/// server polls the feeds' revisions instead.
public protocol FeedChangeNotices: Sendable {
    /// Listens until the task is cancelled. `connected` runs each time
    /// listening (re)starts: what was sent while cut off is lost, so the caller
    /// then compares every feed's revision once. `changed` runs for each notice.
    func listenForFeedChanges(retry: Duration, connected: @escaping @Sendable () async -> Void,
                              changed: @escaping @Sendable (FeedChange) async -> Void) async
}
