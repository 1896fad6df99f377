import Foundation

/// A calendar-query's filter (RFC 4791 §9.7), as far as tminus answers it:
/// which component (VEVENT, VTODO, or any), an optional time range, which
/// a repeating event matches when one of its occurrences overlaps it, and
/// property filters (defined or not, a text match).
public struct CalendarFilter: Sendable, Equatable {
    /// nil: any component.
    public var component: String?
    public var start: Date?
    public var end: Date?
    /// Every one must hold (RFC 4791 §9.7.1: the filters of a comp-filter are ANDed).
    public var properties: [PropertyFilter] = []
    /// A VALARM comp-filter's time range (RFC 4791 §9.9): an alarm of the object, of one of its
    /// occurrences, triggers within it. nil: no alarm filter.
    public var alarmRange: AlarmRange?
    /// What in the filter tminus does not evaluate, named: the query is answered
    /// 403 with the `supported-filter` precondition (RFC 4791 §7.7), never a guess.
    public var unsupported: String?

    /// When an alarm must trigger: from `start` (inclusive) to `end` (exclusive); either may be open.
    public struct AlarmRange: Sendable, Equatable {
        public var start: Date?
        public var end: Date?
    }

    public init(component: String? = nil, start: Date? = nil, end: Date? = nil, properties: [PropertyFilter] = []) {
        self.component = component
        self.start = start
        self.end = end
        self.properties = properties
    }

    /// A `prop-filter` (RFC 4791 §9.7.2): a property named so is not
    /// defined, or one of them matches the text.
    public struct PropertyFilter: Sendable, Equatable {
        public var name: String
        public var isNotDefined: Bool
        public var textMatch: TextMatch?

        public init(name: String, isNotDefined: Bool = false, textMatch: TextMatch? = nil) {
            self.name = name.uppercased()
            self.isNotDefined = isNotDefined
            self.textMatch = textMatch
        }

        /// Whether a component whose properties named `name` have `values` (unescaped) passes.
        public func matches(_ values: [String]) -> Bool {
            if isNotDefined { return values.isEmpty }
            guard let textMatch else { return !values.isEmpty }
            return textMatch.negate ? !values.contains { textMatch.finds($0) } || values.isEmpty : values.contains { textMatch.finds($0) }
        }
    }

    /// A `text-match` (RFC 4791 §9.7.5): a substring, compared byte for byte
    /// (`i;octet`) or ignoring ASCII case (`i;ascii-casemap`, the default).
    public struct TextMatch: Sendable, Equatable {
        public enum Kind: String, Sendable { case contains, equals, starts = "starts-with", ends = "ends-with" }
        public var text: String
        public var caseless: Bool
        public var negate: Bool
        public var kind: Kind

        public init(text: String, caseless: Bool = true, negate: Bool = false, kind: Kind = .contains) {
            self.text = text
            self.caseless = caseless
            self.negate = negate
            self.kind = kind
        }

        func finds(_ value: String) -> Bool {
            let (value, text) = caseless ? (value.lowercased(), self.text.lowercased()) : (value, self.text)
            return switch kind {
            case .contains: text.isEmpty || value.contains(text)
            case .equals: value == text
            case .starts: value.hasPrefix(text)
            case .ends: value.hasSuffix(text)
            }
        }
    }

    public var hasTimeRange: Bool { start != nil || end != nil }

    /// Notes a part tminus does not evaluate; the first one is the one named.
    mutating func refuse(_ part: String) { unsupported = unsupported ?? part }

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
        guard !name.isEmpty else { throw XMLTree.Refused("a comp-filter names its component") }
        // A journal (or any other component) is a search tminus answers truthfully: nothing here is one.
        result.component = name
        for child in inner.children {
            switch child.name {
            case .c("time-range"):
                result.start = try child.attributes["start"].map(Self.utc)
                result.end = try child.attributes["end"].map(Self.utc)
            case .c("prop-filter"):
                let property = try Self.propertyFilter(child, into: &result)
                result.properties.append(property)
            case .c("comp-filter") where child.attributes["name"]?.uppercased() == "VALARM":
                if let range = child.child(.c("time-range")), child.children.count == 1 {
                    result.alarmRange = AlarmRange(start: try range.attributes["start"].map(Self.utc), end: try range.attributes["end"].map(Self.utc))
                } else {
                    result.refuse("a VALARM comp-filter other than one time-range")
                }
            default:
                result.refuse("\(child.name.local) \(child.attributes["name"] ?? "") (by component, time-range, prop-filter and a VALARM's time-range)")
            }
        }
        return result
    }

    static func propertyFilter(_ element: XMLTree, into result: inout CalendarFilter) throws(XMLTree.Refused) -> PropertyFilter {
        guard let name = element.attributes["name"], !name.isEmpty else { throw XMLTree.Refused("a prop-filter names its property") }
        var filter = PropertyFilter(name: name)
        for child in element.children {
            switch child.name {
            case .c("is-not-defined"): filter.isNotDefined = true
            case .c("text-match"):
                let collation = child.attributes["collation"] ?? "i;ascii-casemap"
                guard ["i;ascii-casemap", "i;octet", "i;unicode-casemap"].contains(collation) else {
                    throw XMLTree.Refused("the collation \(collation.prefix(40)) is not supported (i;ascii-casemap and i;octet are)")
                }
                filter.textMatch = TextMatch(text: child.text, caseless: collation != "i;octet",
                                             negate: child.attributes["negate-condition"] == "yes",
                                             kind: child.attributes["match-type"].flatMap(TextMatch.Kind.init(rawValue:)) ?? .contains)
            case .c("param-filter"):
                result.refuse("a property's parameters (param-filter)")
            default: continue
            }
        }
        return filter
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
