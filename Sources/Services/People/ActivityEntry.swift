import CountdownStore
import Foundation

/// One line of a space's activity: who added, changed, deleted or moved
/// which countdown, in which feed, when.
public struct ActivityEntry: Sendable, Equatable {
    public var kind: ChangeKind
    /// As the history names them: a login, "admin token", a source's address, "Ben (former member)".
    public var who: String
    public var title: String
    public var feed: String
    public var feedName: String
    public var countdownId: Int64
    public var at: Date
}
