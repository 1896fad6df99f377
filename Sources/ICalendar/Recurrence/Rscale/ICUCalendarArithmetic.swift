import Foundation

/// A calendar system from ICU, through Foundation's `Calendar` in UTC. ICU
/// numbers leap months as RFC 7529 does (the Chinese leap month after month 4
/// is month 4 with `isLeapMonth`), so months pass through unchanged.
struct ICUCalendarArithmetic: CalendarArithmetic {
    let calendar: Calendar

    init(_ identifier: Calendar.Identifier) {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self.calendar = calendar
    }

    private func instant(_ date: CivilDate) -> Date { Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400) }

    private func civilDate(_ instant: Date) -> CivilDate {
        CivilDate(daysSinceEpoch: Int((instant.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    func month(of date: CivilDate) -> (month: RscaleMonth, day: Int) {
        let parts = calendar.dateComponents([.month, .day, .isLeapMonth], from: instant(date))
        return (RscaleMonth(parts.month ?? 1, leap: parts.isLeapMonth ?? false), parts.day ?? 1)
    }

    func yearStart(containing date: CivilDate) -> CivilDate {
        var parts = calendar.dateComponents([.era, .year], from: instant(date))
        parts.month = 1
        parts.day = 1
        return calendar.date(from: parts).map(civilDate) ?? date
    }

    func monthStart(containing date: CivilDate) -> CivilDate {
        date.adding(days: 1 - month(of: date).day)
    }

    func firstDay(of month: RscaleMonth, inYearStarting yearStart: CivilDate) -> CivilDate? {
        var parts = calendar.dateComponents([.era, .year], from: instant(yearStart))
        parts.month = month.number
        parts.day = 1
        parts.isLeapMonth = month.isLeap
        guard let first = calendar.date(from: parts) else { return nil }
        // ICU is lenient: a month the year lacks rolls into another one.
        let back = calendar.dateComponents([.era, .year, .month, .isLeapMonth], from: first)
        guard back.era == parts.era, back.year == parts.year, back.month == month.number,
              (back.isLeapMonth ?? false) == month.isLeap else { return nil }
        return civilDate(first)
    }

    func daysInMonth(startingOn first: CivilDate) -> Int {
        calendar.range(of: .day, in: .month, for: instant(first))?.count ?? 30
    }

    func adding(years: Int, toYearStart yearStart: CivilDate) -> CivilDate? {
        calendar.date(byAdding: .year, value: years, to: instant(yearStart)).map(civilDate)
    }

    func adding(months: Int, toMonthStart monthStart: CivilDate) -> CivilDate? {
        calendar.date(byAdding: .month, value: months, to: instant(monthStart)).map(civilDate)
    }

    func yearsBetween(_ from: CivilDate, _ to: CivilDate) -> Int {
        calendar.dateComponents([.year], from: instant(yearStart(containing: from)), to: instant(yearStart(containing: to))).year ?? 0
    }
}
