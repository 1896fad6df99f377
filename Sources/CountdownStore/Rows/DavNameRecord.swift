/// A `davName` row (schema v20): the name a calendar app gave a countdown's
/// object when it PUT it (`/dav/…/feed/NAME`), where that is not the name
/// tminus makes from the UID. Kept by feed and UID, not by countdown, so that
/// a deleted countdown's name still answers a sync (its tombstone).
public struct DavNameRecord: Codable, Sendable, Equatable {
    public var feedId: Int64
    public var uid: String
    public var name: String

    public init(feedId: Int64, uid: String, name: String) {
        self.feedId = feedId
        self.uid = uid
        self.name = name
    }
}

/// Which object names a read means: one name's, or those of some UIDs.
public enum DavNameKey: Sendable, Hashable {
    case name(String)
    case uids([String])
}
