import ICalendar

/// Calendar arithmetic on wall times (dates and clock times in the viewer's zone),
/// where "a month" is a calendar month and the 31st clamps to shorter months.
public enum CivilArithmetic {
    public static func addMonths(_ date: CivilDate, _ months: Int) -> CivilDate {
        let index = date.year * 12 + (date.month - 1) + months
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        let month = index - year * 12 + 1
        return CivilDate(year: year, month: month, day: min(date.day, CivilDate.daysIn(month: month, year: year)))
    }

    public static func addMonths(_ time: LocalDateTime, _ months: Int) -> LocalDateTime {
        LocalDateTime(date: addMonths(time.date, months), hour: time.hour, minute: time.minute, second: time.second)
    }

    /// Whole calendar months from `earlier` to `later` (0 when later < earlier).
    public static func months(from earlier: LocalDateTime, to later: LocalDateTime) -> Int {
        guard later > earlier else { return 0 }
        var count = (later.date.year - earlier.date.year) * 12 + (later.date.month - earlier.date.month)
        while count > 0, addMonths(earlier, count) > later { count -= 1 }
        return count
    }

    /// Years, months, days, hours and minutes from `earlier` to `later`, each
    /// unit as large as it can be: what "1y 2mo 3d 4h" shows.
    public static func breakdown(from earlier: LocalDateTime, to later: LocalDateTime) -> Breakdown {
        guard later > earlier else { return Breakdown() }
        let totalMonths = months(from: earlier, to: later)
        let anchor = addMonths(earlier, totalMonths)
        let rest = Int(later.wallSeconds - anchor.wallSeconds)
        return Breakdown(years: totalMonths / 12, months: totalMonths % 12, days: rest / 86_400,
                         hours: rest % 86_400 / 3_600, minutes: rest % 3_600 / 60)
    }
}

/// A remaining (or elapsed) span split into calendar units.
public struct Breakdown: Sendable, Hashable, Codable {
    public var years = 0
    public var months = 0
    public var days = 0
    public var hours = 0
    public var minutes = 0

    public init(years: Int = 0, months: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0) {
        self.years = years
        self.months = months
        self.days = days
        self.hours = hours
        self.minutes = minutes
    }
}
