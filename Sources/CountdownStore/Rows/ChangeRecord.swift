import Foundation

/// A `countdownChange` row (schema v19): one change to one countdown of one
/// feed, kept in the order it was made (by id). A space's activity lists
/// them newest first; a calendar client syncing the feed asks for those
/// after the last it saw (CalDAV's sync-collection), deletions included,
/// which is why a deleted countdown's uid and title stay here.
public struct ChangeRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var feedId: Int64
    /// The countdown's id when the change was made (it may be gone since).
    public var countdownId: Int64
    public var uid: String
    public var kind: ChangeKind
    public var title: String
    /// Who made it, as a countdown's history names them (`Principal.actorLabel`).
    public var actor: String
    public var at: Date
    /// The person who made it, when a person did (schema v23): a label may name someone deleted since.
    public var actorPerson: Int64?

    public init(id: Int64? = nil, feedId: Int64, countdownId: Int64, uid: String, kind: ChangeKind, title: String, actor: String, at: Date,
                actorPerson: Int64? = nil) {
        self.id = id
        self.feedId = feedId
        self.countdownId = countdownId
        self.uid = uid
        self.kind = kind
        self.title = title
        self.actor = actor
        self.at = at
        self.actorPerson = actorPerson
    }
}

/// What happened to the countdown, in the feed the change is filed under.
public enum ChangeKind: String, Codable, Sendable, CaseIterable {
    case added, changed, deleted
    /// Arrived from another feed (filed under the feed it arrived in).
    case movedHere
    /// Left for another feed (filed under the feed it left: gone from there).
    case movedAway

    /// The countdown is no longer in the feed the change is filed under.
    public var removes: Bool { self == .deleted || self == .movedAway }
}

/// Which changes to read: a few feeds' (a space's, one calendar's), or
/// every feed's (`nil`: the log's pruning), after the last one seen (nil:
/// from the first kept), at most `limit`, oldest or newest first.
public struct ChangeQuery: Sendable, Equatable {
    public var feedIds: [Int64]?
    public var after: Int64?
    public var limit: Int
    public var newestFirst: Bool

    public init(feedIds: [Int64]?, after: Int64? = nil, limit: Int, newestFirst: Bool) {
        self.feedIds = feedIds
        self.after = after
        self.limit = limit
        self.newestFirst = newestFirst
    }
}
