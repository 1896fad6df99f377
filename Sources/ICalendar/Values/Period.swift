/// RFC 5545 §3.3.9 PERIOD, as used by RDATE;VALUE=PERIOD: a start plus an
/// explicit end or a duration.
public struct Period: Sendable, Hashable {
    public enum Span: Sendable, Hashable {
        case end(DateTimeValue)
        case duration(ICalDuration)
    }

    public var start: DateTimeValue
    public var span: Span

    public init(start: DateTimeValue, span: Span) {
        self.start = start
        self.span = span
    }

    /// Reads `start/end` or `start/duration`. RFC 5545 allows only DATE-TIME
    /// bounds; `lenient` also takes DATE bounds (`19970101/19970102`), as
    /// recurring-ical-events does, which then follow the series' shape.
    public init?(text: some StringProtocol, tzid: String?, lenient: Bool = false) {
        let type = lenient ? nil : "DATE-TIME"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = DateTimeValue(text: parts[0], tzid: tzid, valueType: type),
              lenient || !start.isAllDay else { return nil }
        if parts[1].uppercased().contains("P") {
            guard let duration = ICalDuration(parsing: parts[1]) else { return nil }
            self.init(start: start, span: .duration(duration))
        } else {
            guard let end = DateTimeValue(text: parts[1], tzid: tzid, valueType: type) else { return nil }
            self.init(start: start, span: .end(end))
        }
    }

    public var valueText: String {
        switch span {
        case .end(let end): start.valueText + "/" + end.valueText
        case .duration(let duration): start.valueText + "/" + duration.description
        }
    }
}
