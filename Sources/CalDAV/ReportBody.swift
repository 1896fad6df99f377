import Foundation

/// The REPORTs tminus answers (RFC 4791 §7.8–7.9, RFC 6578): their
/// properties, and what each selects.
public enum ReportBody: Sendable, Equatable {
    case multiget(properties: [DAVName], hrefs: [String])
    /// `expand`: spell repeats out as their instances within this range (the `expand` element of `calendar-data`).
    case query(properties: [DAVName], filter: CalendarFilter, expand: DateInterval?)
    /// `token` empty: the first sync. `limit`: at most this many results.
    case syncCollection(token: String, properties: [DAVName], limit: Int?)
    /// `free-busy-query` (RFC 4791 §7.10): the busy times of a calendar within a range.
    case freeBusy(DateInterval)
    /// `principal-property-search` (RFC 3744 §9.4): principals whose display name contains `match` (nil: all).
    case principalSearch(match: String?, properties: [DAVName])

    /// The properties the report asks for of each resource.
    public var properties: [DAVName] {
        switch self {
        case .multiget(let properties, _), .query(let properties, _, _), .syncCollection(_, let properties, _), .principalSearch(_, let properties):
            properties
        case .freeBusy:
            []
        }
    }

    public static func parse(_ data: Data) throws(XMLTree.Refused) -> ReportBody {
        let root = try XMLTree.parse(data)
        let properties = try root.child(.d("prop")).map(RequestedNames.properties) ?? [.d("getetag")]
        switch root.name {
        case .c("calendar-multiget"):
            return .multiget(properties: properties, hrefs: try RequestedNames.hrefs(root))
        case .c("calendar-query"):
            var expand: DateInterval?
            if let element = root.child(.d("prop"))?.child(.c("calendar-data"))?.child(.c("expand")) {
                guard let start = try element.attributes["start"].map(CalendarFilter.utc), let end = try element.attributes["end"].map(CalendarFilter.utc),
                      start < end else { throw XMLTree.Refused("an expand element has a start and a later end, in UTC") }
                expand = DateInterval(start: start, end: end)
            }
            return .query(properties: properties, filter: try CalendarFilter.parse(root.child(.c("filter"))), expand: expand)
        case .c("free-busy-query"):
            guard let range = root.child(.c("time-range")), let start = try range.attributes["start"].map(CalendarFilter.utc) else {
                throw XMLTree.Refused("a free-busy-query has a time-range with a start")
            }
            let end = try range.attributes["end"].map(CalendarFilter.utc) ?? start.addingTimeInterval(366 * 86_400)
            guard start < end else { throw XMLTree.Refused("a free-busy-query's range ends after it starts") }
            return .freeBusy(DateInterval(start: start, end: end))
        case .d("principal-property-search"):
            let match = root.children(.d("property-search")).first { $0.child(.d("prop"))?.child(.d("displayname")) != nil }?.child(.d("match"))?.text
            return .principalSearch(match: match, properties: properties)
        case .d("sync-collection"):
            let level = root.child(.d("sync-level"))?.text ?? "1"
            guard level == "1" else { throw XMLTree.Refused("only sync-level 1 is answered (the calendar's own objects)") }
            let limit = root.child(.d("limit"))?.child(.d("nresults")).flatMap { Int($0.text) }
            return .syncCollection(token: root.child(.d("sync-token"))?.text ?? "", properties: properties, limit: limit.map { max(1, $0) })
        default:
            throw XMLTree.Refused("tminus answers calendar-query, calendar-multiget and sync-collection reports, not \(root.name.local)")
        }
    }
}
