import Countdowns
import CountdownStore
import Foundation

/// A countdown as a calendar app sees it over CalDAV: an object with a name
/// in its feed's calendar and an ETag, both from the stored row, so that a
/// listing parses and compiles nothing.
public struct CalendarObject: Sendable {
    /// The name it answers at: the one a client PUT it to, or its UID with `.ics`.
    public var name: String
    public var etag: String
    public var row: CountdownRecord

    public init(row: CountdownRecord, name: String?) {
        self.row = row
        self.name = name ?? Self.defaultName(uid: row.uid)
        self.etag = Self.etag(of: row)
    }

    public var uid: String { row.uid }
    /// A countdown a URL source keeps: a client's change would be undone by the next refresh.
    public var fromSource: Bool { row.sourceId != nil }
    public var isTask: Bool { row.kind == .task }

    public func countdown() throws -> Countdown { try row.countdown(source: nil) }

    /// The name tminus gives a countdown no client named.
    public static func defaultName(uid: String) -> String { uid + ".ics" }

    /// Changes whenever what the object's bytes are written from changes: its
    /// stored content, sequence and last change, hashed the same in every process.
    static func etag(of row: CountdownRecord) -> String {
        "\"\(StableHash.hex("\(row.content)\u{1}\(row.sequence)\u{1}\(row.lastModified.timeIntervalSince1970)"))\""
    }
}

/// A feed's calendar as a listing reads it: the feed, its objects and the
/// newest change its log holds (the sync token).
public struct CalendarListing: Sendable {
    public var feed: StoredFeed
    public var objects: [CalendarObject]
    public var newestChange: Int64
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
