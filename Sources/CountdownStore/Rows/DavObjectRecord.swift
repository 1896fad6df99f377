import Foundation

/// A `davObject` row (schema v24): the text a calendar app PUT, kept as it
/// came (issue #62: a client compares what it wrote with what it reads, down
/// to SEQUENCE, DTSTAMP and X-properties). The countdown is derived from it;
/// the text is the object while `basis` is still the countdown row's ETag
/// (a change made elsewhere, in the web app or by the CLI, makes a new one,
/// and the object is written from the countdown again).
///
/// A task without DTSTART or DUE has nothing to count down to and no countdown
/// row: its `basis` is nil, and this row is all there is of it until a
/// client gives it a date.
public struct DavObjectRecord: Codable, Sendable, Equatable {
    public var feedId: Int64
    public var uid: String
    /// The ETag of the countdown row the text was kept with; nil for a task without a date.
    public var basis: String?
    /// The object's own ETag: a hash of its bytes (and of the basis), the same in every process.
    public var etag: String
    /// What the listing asked for: nil when read without the text (`DavObjectQuery.bodies` false).
    public var body: String?
    /// A task without a date's title (its SUMMARY), for the feed's page and the change log.
    public var title: String
    /// When the text was kept (a task without a date's last change).
    public var savedAt: Date

    public init(feedId: Int64, uid: String, basis: String?, etag: String, body: String?, title: String, savedAt: Date) {
        self.feedId = feedId
        self.uid = uid
        self.basis = basis
        self.etag = etag
        self.body = body
        self.title = title
        self.savedAt = savedAt
    }

    /// A task without a date: nothing but this row holds it.
    public var isUndated: Bool { basis == nil }
}

/// Which kept objects a read means: a feed's, all or those of some UIDs,
/// with their text or only what a listing needs (ETags), and whether only the
/// tasks without a date.
public struct DavObjectQuery: Sendable, Hashable {
    public var feedId: Int64
    public var uids: [String]?
    public var bodies: Bool
    public var undatedOnly: Bool

    public init(feedId: Int64, uids: [String]? = nil, bodies: Bool, undatedOnly: Bool = false) {
        self.feedId = feedId
        self.uids = uids
        self.bodies = bodies
        self.undatedOnly = undatedOnly
    }
}

extension DavObjectRecord {
    /// The table's columns but the text, for a listing that needs only ETags (a database reads them without the bodies).
    public static let listed: StoreTable = {
        let table = StoreTable.named("davObject")
        return StoreTable(name: table.name, columns: table.columns.filter { $0.name != "body" }, key: table.key)
    }()
}
