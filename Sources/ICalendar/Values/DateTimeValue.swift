/// The four shapes a DTSTART, DTEND, DUE, RECURRENCE-ID, EXDATE or RDATE value can take
/// (RFC 5545 §3.3.4–3.3.5).
public enum DateTimeValue: Sendable, Hashable, CustomStringConvertible {
    /// An all-day date (`VALUE=DATE`).
    case date(CivilDate)
    /// A wall time read in the viewer's zone.
    case floating(LocalDateTime)
    /// A UTC time (`…Z`).
    case utc(LocalDateTime)
    /// A wall time in a named zone (`TZID=…`).
    case zoned(LocalDateTime, tzid: String)

    public var isAllDay: Bool { if case .date = self { true } else { false } }

    public var tzid: String? { if case .zoned(_, let tzid) = self { tzid } else { nil } }

    /// The wall time, with midnight for a date.
    public var local: LocalDateTime {
        switch self {
        case .date(let date): LocalDateTime(date: date)
        case .floating(let local), .utc(let local), .zoned(let local, _): local
        }
    }

    public var civilDate: CivilDate { local.date }

    /// Same kind and zone, another wall time: how an occurrence of a series is shaped.
    public func with(local: LocalDateTime) -> DateTimeValue {
        switch self {
        case .date: .date(local.date)
        case .floating: .floating(local)
        case .utc: .utc(local)
        case .zoned(_, let tzid): .zoned(local, tzid: tzid)
        }
    }

    /// The value text as it appears after the colon.
    public var valueText: String {
        switch self {
        case .date(let date): date.basic
        case .floating(let local), .zoned(let local, _): local.basic
        case .utc(let local): local.basic + "Z"
        }
    }

    public var description: String {
        switch self {
        case .date(let date): date.iso
        case .floating(let local): local.iso
        case .utc(let local): local.iso + "Z"
        case .zoned(let local, let tzid): local.iso + "[\(tzid)]"
        }
    }

    /// Parses one value text; `tzid` comes from the property's TZID parameter.
    /// A TZID on a UTC or date value is ignored, as RFC 5545 says it must be.
    public init?(text: some StringProtocol, tzid: String?, valueType: String?) {
        let text = ASCII.trimmed(text)
        if valueType.map({ ASCII.equals($0, upper: "DATE") }) ?? false || text.utf8.count == 8 {
            guard let date = CivilDate(parsing: text) else { return nil }
            self = .date(date)
        } else if let last = text.utf8.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            guard let local = LocalDateTime(parsing: text.dropLast()) else { return nil }
            self = .utc(local)
        } else {
            guard let local = LocalDateTime(parsing: text) else { return nil }
            if let tzid, !tzid.isEmpty { self = .zoned(local, tzid: tzid) } else { self = .floating(local) }
        }
    }

    /// Whether `text` is written as RFC 5545 says: `YYYYMMDD`, or
    /// `YYYYMMDDTHHMMSS` with an optional `Z`. The parser also reads the
    /// ISO 8601 extended form (`2027-01-20`), which the validator reports.
    public static func isBasicForm(_ text: some StringProtocol) -> Bool {
        let bytes = Array(ASCII.trimmed(text).utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { ASCII.isDigit(bytes[$0]) } }
        switch bytes.count {
        case 8: return digits(0..<8)
        case 15, 16:
            guard digits(0..<8), bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"), digits(9..<15) else { return false }
            return bytes.count == 15 || bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z")
        default: return false
        }
    }

    /// Reads a single-valued date property (DTSTART, DUE, RECURRENCE-ID …).
    public init?(property: Property) {
        self.init(text: property.value, tzid: property.parameter("TZID"), valueType: property.parameter("VALUE"))
    }

    /// Builds a property carrying this value, with TZID / VALUE parameters set.
    public func property(_ name: String, keeping other: [Parameter] = []) -> Property {
        var parameters = other.filter { $0.name != "TZID" && $0.name != "VALUE" }
        if case .date = self { parameters.insert(Parameter("VALUE", "DATE"), at: 0) }
        if let tzid { parameters.insert(Parameter("TZID", tzid), at: 0) }
        return Property(name: name, parameters: parameters, value: valueText)
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view = view.dropFirst() }
        while let last = view.last, set.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
