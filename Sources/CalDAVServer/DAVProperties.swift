import CalDAV
import Catalog
import Countdowns
import CountdownStore
import Foundation
import Services

/// The properties of each kind of resource, as a PROPFIND or REPORT asked
/// for them: those it has (200) and those it has not (404). Each is made
/// only when asked for (a calendar's time zone is written on demand).
struct DAVProperties {
    let body: PropfindBody

    /// The properties asked for by name (none for `allprop` and `propname`).
    var names: [DAVName] {
        if case .properties(let names) = body { names } else { [] }
    }

    /// Whether objects' `calendar-data` is asked for (by name, or by `allprop`,
    /// which RFC 4791 §9.6 leaves out, but some clients expect): then the text
    /// of objects kept as written is read with the listing.
    var wantsData: Bool {
        switch body {
        case .allProperties: true
        case .propertyNames: false
        case .properties(let names): names.contains(.c("calendar-data"))
        }
    }

    /// A resource's properties, in the order `available` lists them.
    func response(href: String, _ available: [(DAVName, () -> PropertyValue?)]) -> MultiStatus.Response {
        switch body {
        case .allProperties:
            return MultiStatus.Response(href: href, found: available.compactMap { name, value in value().map { (name, $0) } })
        case .propertyNames:
            return MultiStatus.Response(href: href, found: available.map { ($0.0, PropertyValue.elements([])) })
        case .properties(let names):
            var found: [(name: DAVName, value: PropertyValue)] = [], missing: [DAVName] = []
            for name in names {
                if let make = available.first(where: { $0.0 == name })?.1, let value = make() { found.append((name, value)) } else { missing.append(name) }
            }
            return MultiStatus.Response(href: href, found: found, missing: missing)
        }
    }

    static func root(person: PersonAccess) -> [(DAVName, () -> PropertyValue?)] {
        [
            (.d("resourcetype"), { .elements([.d("collection")]) }),
            (.d("displayname"), { .text("tminus") }),
            (.d("current-user-principal"), { .href(DAVPath.principal(login: person.login).href) }),
            (.d("principal-URL"), { .href(DAVPath.principal(login: person.login).href) }),
            (.c("calendar-home-set"), { .href(DAVPath.home(login: person.login).href) }),
        ]
    }

    static func principal(person: PersonAccess, name: String) -> [(DAVName, () -> PropertyValue?)] {
        [
            (.d("resourcetype"), { .elements([.d("principal")]) }),
            (.d("displayname"), { .text(name) }),
            (.d("current-user-principal"), { .href(DAVPath.principal(login: person.login).href) }),
            (.d("principal-URL"), { .href(DAVPath.principal(login: person.login).href) }),
            (.c("calendar-home-set"), { .href(DAVPath.home(login: person.login).href) }),
            (.c("calendar-user-address-set"), { .hrefs([DAVPath.principal(login: person.login).href]) }),
            (.d("supported-report-set"), { .reports([]) }),
        ]
    }

    static func home(person: PersonAccess) -> [(DAVName, () -> PropertyValue?)] {
        [
            (.d("resourcetype"), { .elements([.d("collection")]) }),
            (.d("displayname"), { .text(person.login) }),
            (.d("current-user-principal"), { .href(DAVPath.principal(login: person.login).href) }),
            (.d("owner"), { .href(DAVPath.principal(login: person.login).href) }),
            // Anyone may make a calendar of their own here (MKCALENDAR), unless the app password only reads.
            (.d("current-user-privilege-set"), { .privileges(person.readOnly ? [.d("read")] : [.d("read"), .d("bind")]) }),
        ]
    }

    static let reports: [DAVName] = [.c("calendar-query"), .c("calendar-multiget"), .d("sync-collection")]

    /// A feed as a calendar: its names and colour, its change stamps (ctag,
    /// sync token) from the revision and the log, and what the person may do.
    /// No calendar-order: each app keeps its own arrangement, and tminus keeps none.
    static func calendar(_ feed: StoredFeed, token: SyncToken, access: CalendarAccess, person: PersonAccess) -> [(DAVName, () -> PropertyValue?)] {
        [
            (.d("resourcetype"), { .elements([.d("collection"), .c("calendar")]) }),
            (.d("displayname"), { .text(feed.feed.name) }),
            (.cs("getctag"), { .text("\"\(feed.revision)-\(token.stamp)\"") }),
            (.d("sync-token"), { .text(token.text) }),
            (.c("supported-calendar-component-set"), { .components(["VEVENT", "VTODO"]) }),
            (.c("min-date-time"), { .text(CalendarBounds.earliestText) }),
            (.c("max-date-time"), { .text(CalendarBounds.latestText) }),
            (.c("calendar-description"), { feed.feed.description.map { .text($0) } }),
            (.ical("calendar-color"), { feed.feed.color.map { .text($0) } }),
            (.c("calendar-timezone"), { .text(CalendarExport.timeZoneCalendar(of: feed.feed)) }),
            (.d("current-user-privilege-set"), { .privileges(access.privileges) }),
            (.d("owner"), { .href(DAVPath.principal(login: person.login).href) }),
            (.d("supported-report-set"), { .reports(reports) }),
            (.c("supported-calendar-data"), { .elements([]) }),
        ]
    }

    /// A countdown as an object: its ETag and type from the stored row; its
    /// data (REPORTs only) written when asked for.
    static func object(_ object: CalendarObject, data: @escaping () -> String?) -> [(DAVName, () -> PropertyValue?)] {
        [
            (.d("resourcetype"), { .elements([]) }),
            (.d("getetag"), { .text(object.etag) }),
            (.d("getcontenttype"), { .text("text/calendar; charset=utf-8; component=\(object.isTask ? "vtodo" : "vevent")") }),
            (.d("getlastmodified"), { .text(HTTPDate.format(object.lastModified)) }),
            (.c("calendar-data"), { data().map { .text($0) } }),
        ]
    }
}
