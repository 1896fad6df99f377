import Foundation

/// A `personalObject` row (schema v25): what one person keeps for themselves
/// of an object of a space's calendar, their alarms (VALARM) and whether it
/// makes them busy (TRANSP), per instance (issue #62: a viewer silences or
/// adds a reminder on the family's events without changing them for anyone
/// else; Apple's calendar sharing and Nextcloud keep the same per-user data).
///
/// `body` is the person's part as iCalendar text (`PersonalPart`); it is
/// merged into the object only for this person's reads. A new `id` is given
/// at every save, so a person's sync token can say which parts changed since.
public struct PersonalObjectRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var personId: Int64
    public var feedId: Int64
    public var uid: String
    public var body: String
    public var savedAt: Date

    public init(id: Int64? = nil, personId: Int64, feedId: Int64, uid: String, body: String, savedAt: Date) {
        self.id = id
        self.personId = personId
        self.feedId = feedId
        self.uid = uid
        self.body = body
        self.savedAt = savedAt
    }
}

/// Whose personal parts a read means: one person's in one feed, all or
/// those of some UIDs, or those saved after an id (a sync's).
public struct PersonalObjectQuery: Sendable, Hashable {
    public var personId: Int64
    public var feedId: Int64
    public var uids: [String]?
    public var after: Int64?

    public init(personId: Int64, feedId: Int64, uids: [String]? = nil, after: Int64? = nil) {
        self.personId = personId
        self.feedId = feedId
        self.uids = uids
        self.after = after
    }
}
