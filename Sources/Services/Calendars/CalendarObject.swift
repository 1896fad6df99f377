import Countdowns
import CountdownStore
import Foundation

/// A countdown as a calendar app sees it over CalDAV: an object with a name
/// in its feed's calendar and an ETag, both from stored rows, so that a
/// listing parses and compiles nothing. Its bytes are what the app wrote
/// while the countdown is still what was derived from them (`DavObjectRecord`),
/// else what tminus writes for the countdown; a task without a date has no
/// countdown and is only the text it was written as.
public struct CalendarObject: Sendable {
    /// The name it answers at: the one a client PUT it to, or its UID with `.ics`.
    public var name: String
    public var etag: String
    public var uid: String
    /// Its countdown; nil for a task without a date.
    public var row: CountdownRecord?
    /// The text as a calendar app wrote it, while it is the object (nil: written from
    /// the countdown; or not read, when the listing was asked without bodies).
    public var kept: DavObjectRecord?
    /// The signed-in person's own alarms and TRANSP on this object of a space's
    /// calendar (`PersonalPart`), merged into what they read; nil: none kept.
    public private(set) var personal: PersonalObjectRecord?
    /// Served as busy time only (`Redaction.busy`), to a member who sees no more.
    public private(set) var isBusyOnly = false
    /// The ETag of the object everyone sees; `etag` is the signed-in person's.
    public private(set) var sharedETag = ""

    public init(row: CountdownRecord, name: String?, kept: DavObjectRecord? = nil) {
        uid = row.uid
        self.row = row
        self.name = name ?? Self.defaultName(uid: row.uid)
        let rowTag = Self.etag(of: row)
        // Text kept beside an older version of the countdown (changed since in the web app) is not the object any more.
        self.kept = kept.flatMap { $0.basis == rowTag ? $0 : nil }
        etag = self.kept?.etag ?? rowTag
        sharedETag = etag
    }

    /// A task without a date: the kept text is all there is of it.
    public init(undated: DavObjectRecord, name: String?) {
        uid = undated.uid
        row = nil
        kept = undated
        self.name = name ?? Self.defaultName(uid: undated.uid)
        etag = undated.etag
        sharedETag = etag
    }

    /// The object as a busy-only member reads it: its times as "Busy", under a
    /// name and UID made from a hash of its UID (UIDs and the names clients
    /// give often say what an event is), and none of the text it was written as.
    public func busyOnly() -> CalendarObject {
        var busy = self
        busy.uid = Redaction.redactedUID(uid)
        busy.name = Self.defaultName(uid: busy.uid)
        busy.kept = nil
        busy.personal = nil
        busy.isBusyOnly = true
        busy.etag = "\"\(StableHash.hex("busy\u{1}\(row.map(Self.etag(of:)) ?? etag)"))\""
        busy.sharedETag = busy.etag
        return busy
    }

    /// The object as the person whose part `personal` is reads it.
    public func with(personal: PersonalObjectRecord?) -> CalendarObject {
        guard !isBusyOnly else { return self }
        var own = self
        own.personal = personal
        own.etag = Self.etag(shared: sharedETag, personal: personal)
        return own
    }

    /// The person's part, when it changes anything (a part kept empty follows what everyone sees).
    public var personalPart: PersonalPart? {
        guard let body = personal?.body, !body.isEmpty else { return nil }
        return PersonalPart(text: body)
    }

    /// A person's ETag: the shared one, changed by their own part.
    static func etag(shared: String, personal: PersonalObjectRecord?) -> String {
        guard let body = personal?.body, !body.isEmpty else { return shared }
        return "\"\(StableHash.hex("\(shared)\u{1}\(body)"))\""
    }

    /// A countdown a URL source keeps: a client's change would be undone by the next refresh.
    public var fromSource: Bool { row?.sourceId != nil }
    public var isTask: Bool { row.map { $0.kind == .task } ?? true }
    public var isUndated: Bool { row == nil }
    public var title: String { isBusyOnly ? Redaction.busyTitle : row?.title ?? kept?.title ?? "" }
    public var lastModified: Date { row?.lastModified ?? kept?.savedAt ?? Date(timeIntervalSince1970: 0) }
    /// The bytes as the app wrote them, when they are the object and were read.
    public var written: String? { kept?.body }

    /// The countdown (throws for a task without a date, which has none).
    public func countdown() throws -> Countdown {
        guard let row else { throw StoreError.invalid("\(uid) is a task without a date: it has no countdown") }
        let countdown = try row.countdown(source: nil)
        return isBusyOnly ? Redaction.busy.apply(to: countdown) : countdown
    }

    /// The name tminus gives a countdown no client named.
    public static func defaultName(uid: String) -> String { uid + ".ics" }

    /// Changes whenever what the object's bytes are written from changes: its
    /// stored content, sequence and last change, hashed the same in every process.
    static func etag(of row: CountdownRecord) -> String {
        "\"\(StableHash.hex("\(row.content)\u{1}\(row.sequence)\u{1}\(row.lastModified.timeIntervalSince1970)"))\""
    }

    /// The ETag of text kept as written: of its bytes and of the countdown it was kept with.
    static func etag(ofKept body: String, basis: String?) -> String {
        "\"\(StableHash.hex("\(basis ?? "undated")\u{1}\(body)"))\""
    }
}

/// Which state of a calendar a listing is of: its feed's row (ids are never
/// reused, so a calendar deleted and made again at the same address is
/// another), its revision and its last change.
public struct CalendarVersion: Sendable, Hashable {
    public var feedId: Int64
    public var revision: Int64
    public var updatedAt: Date
    /// Read as busy time only (`CalendarObject.busyOnly`): another listing than the whole calendar's.
    public var isBusyOnly = false

    public init(_ row: FeedRecord) {
        feedId = row.id ?? 0
        revision = row.revision
        updatedAt = row.updatedAt
    }

    public init(_ feed: StoredFeed) {
        feedId = feed.id
        revision = feed.revision
        updatedAt = feed.updatedAt
    }
}

/// A feed's calendar as a listing reads it: the feed, its objects and the
/// newest change its log holds (the sync token).
public struct CalendarListing: Sendable {
    public var feed: StoredFeed
    public var objects: [CalendarObject]
    public var newestChange: Int64
    /// Every object is busy time only.
    public var isBusyOnly = false
    /// The newest of the reading person's own parts merged in (0: none), for their sync token.
    public var newestPersonal: Int64 = 0
}

/// Why a calendar app's write was refused, changing nothing; the server
/// answers each with its status and WebDAV precondition.
public enum CalendarObjectRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// `If-Match` or `If-None-Match: *` did not hold (412).
    case preconditionFailed(String)
    /// Another object of the calendar has this UID (409, `no-uid-conflict`).
    case uidConflict(uid: String, name: String)
    /// The countdown comes from a URL source (403, `need-privileges`).
    case fromSource(String)
    /// Not one event or task (400 or 415, `valid-calendar-object-resource`).
    case notOneObject(String)
    /// A journal or another component tminus does not keep (403, `supported-calendar-component`).
    case unsupportedComponent(String)

    public var description: String {
        switch self {
        case .preconditionFailed(let why): why
        case .uidConflict(let uid, let name): "another object of this calendar (\(name)) has the UID \(uid)"
        case .fromSource(let title): "'\(title)' comes from a calendar this feed subscribes to: change it there (a change here would be undone by the next refresh)"
        case .notOneObject(let why): why
        case .unsupportedComponent(let name): "tminus keeps events (VEVENT) and tasks (VTODO), not \(name)"
        }
    }
}
