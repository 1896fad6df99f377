/// An XML element's name in its namespace: how WebDAV names properties,
/// reports and errors (`DAV:` `getetag`, CalDAV's `calendar-data`, Apple's
/// `calendar-color`), compared by namespace and local name, never by prefix.
public struct DAVName: Hashable, Sendable, CustomStringConvertible {
    public var namespace: String
    public var local: String

    public init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    public var description: String { "{\(namespace)}\(local)" }

    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// calendarserver.org: `getctag`, which clients compare before a sync.
    public static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple's iCal namespace: `calendar-color`, `calendar-order`.
    public static let apple = "http://apple.com/ns/ical/"

    public static func d(_ local: String) -> DAVName { DAVName(dav, local) }
    public static func c(_ local: String) -> DAVName { DAVName(caldav, local) }
    public static func cs(_ local: String) -> DAVName { DAVName(calendarServer, local) }
    public static func ical(_ local: String) -> DAVName { DAVName(apple, local) }

    /// The prefix tminus writes for this name's namespace.
    var prefix: String? {
        switch namespace {
        case Self.dav: "d"
        case Self.caldav: "c"
        case Self.calendarServer: "cs"
        case Self.apple: "ical"
        default: nil
        }
    }
}
