/// One RDATE value: a date, a date-time or a period (RFC 5545 §3.8.5.2).
public enum RecurrenceDate: Sendable, Hashable {
    case dateTime(DateTimeValue)
    case period(Period)

    public var start: DateTimeValue {
        switch self {
        case .dateTime(let value): value
        case .period(let period): period.start
        }
    }

    /// This value as an RDATE (or another property of the same shape).
    public func property(_ name: String = "RDATE") -> Property {
        switch self {
        case .dateTime(let start): return start.property(name)
        case .period(let period):
            var property = period.start.property(name)
            property.parameters.append(Parameter("VALUE", "PERIOD"))
            property.value = period.valueText
            return property
        }
    }

    /// Reads every value of one RDATE property; nil when any value is malformed.
    /// `lenient` also reads periods with DATE bounds (see `Period`).
    public static func values(of property: Property, lenient: Bool = false) -> [RecurrenceDate]? {
        let tzid = property.parameter("TZID")
        let type = property.parameter("VALUE")?.uppercased()
        var result: [RecurrenceDate] = []
        for text in property.value.split(separator: ",") {
            if type == "PERIOD" || text.contains("/") {
                guard let period = Period(text: text, tzid: tzid, lenient: lenient) else { return nil }
                result.append(.period(period))
            } else {
                guard let value = DateTimeValue(text: text, tzid: tzid, valueType: type) else { return nil }
                result.append(.dateTime(value))
            }
        }
        return result
    }
}

extension DateTimeValue {
    /// Reads every value of one EXDATE (or date-list) property; nil when any value is malformed.
    public static func values(of property: Property) -> [DateTimeValue]? {
        let tzid = property.parameter("TZID")
        let type = property.parameter("VALUE")
        var result: [DateTimeValue] = []
        for text in property.value.split(separator: ",") {
            guard let value = DateTimeValue(text: text, tzid: tzid, valueType: type) else { return nil }
            result.append(value)
        }
        return result
    }
}
