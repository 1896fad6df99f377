import Foundation

/// A calendar-query's filter (RFC 4791 §9.7), as far as tminus answers it:
/// which component (VEVENT, VTODO, or any) and an optional time range, which
/// a repeating event matches when one of its occurrences overlaps it.
public struct CalendarFilter: Sendable, Equatable {
    /// nil: any component.
    public var component: String?
    public var start: Date?
    public var end: Date?

    public init(component: String? = nil, start: Date? = nil, end: Date? = nil) {
        self.component = component
        self.start = start
        self.end = end
    }

    public var hasTimeRange: Bool { start != nil || end != nil }

    /// Reads `<c:filter>`; refuses what it would not answer truthfully
    /// (property filters, text matches), naming it.
    static func parse(_ filter: XMLTree?) throws(XMLTree.Refused) -> CalendarFilter {
        guard let filter else { return CalendarFilter() }
        guard let calendar = filter.child(.c("comp-filter")), calendar.attributes["name"]?.uppercased() == "VCALENDAR" else {
            throw XMLTree.Refused("a calendar-query filter starts with a comp-filter named VCALENDAR")
        }
        var result = CalendarFilter()
        guard let inner = calendar.child(.c("comp-filter")) else { return result }
        let name = inner.attributes["name"]?.uppercased() ?? ""
        guard name == "VEVENT" || name == "VTODO" else { throw XMLTree.Refused("tminus keeps events and tasks: a comp-filter named \(name) matches nothing it has") }
        result.component = name
        for child in inner.children {
            switch child.name {
            case .c("time-range"):
                result.start = try child.attributes["start"].map(Self.utc)
                result.end = try child.attributes["end"].map(Self.utc)
            default:
                throw XMLTree.Refused("tminus does not filter by \(child.name.local) (only by component and time-range)")
            }
        }
        return result
    }

    /// `20060104T000000Z`, as RFC 4791 requires time ranges to be written.
    static func utc(_ text: String) throws(XMLTree.Refused) -> Date {
        let digits = Array(text.utf8)
        guard digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z") else {
            throw XMLTree.Refused("a time-range is in UTC, as 20270101T000000Z: '\(text.prefix(40))' is not")
        }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
              let minute = number(11..<13), let second = number(13..<15),
              let date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: year, month: month,
                                        day: day, hour: hour, minute: minute, second: second).date,
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            throw XMLTree.Refused("'\(text.prefix(40))' is not a time")
        }
        return date
    }
}
