extension RecurrenceDate {
    /// This RDATE read in the shape of its series' DTSTART, as calendar clients
    /// and recurring-ical-events read it, once, when the series is prepared:
    /// - a DATE-TIME on an all-day series names the day it is written on;
    /// - a DATE on a timed series is midnight of that day in DTSTART's zone;
    /// - a floating time on a zoned series is in DTSTART's zone.
    /// A period's end is shaped the same way.
    func shaped(like start: DateTimeValue) -> RecurrenceDate {
        switch self {
        case .dateTime(let value): return .dateTime(Self.shape(value, like: start))
        case .period(var period):
            period.start = Self.shape(period.start, like: start)
            if case .end(let end) = period.span { period.span = .end(Self.shape(end, like: start)) }
            return .period(period)
        }
    }

    private static func shape(_ value: DateTimeValue, like start: DateTimeValue) -> DateTimeValue {
        if start.isAllDay { return value.isAllDay ? value : .date(value.civilDate) }
        if value.isAllDay { return start.with(local: value.local) }
        if case .floating(let local) = value, start.tzid != nil { return start.with(local: local) }
        return value
    }
}
