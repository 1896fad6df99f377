/// The Hebrew calendar by its rules (the molad and the four postponements,
/// after Reingold and Dershowitz, *Calendrical Calculations*), not ICU's:
/// ICU in Foundation gives year 5806 385 days instead of 384, so every date
/// from Heshvan 5806 to Rosh Hashanah 5807 (1 October 2046, which ICU puts on
/// the 2nd) comes out a day late. Of the years 5600 to 6000 that is the only one
/// ICU gets wrong; PyPI's convertdate and hebcal agree with this arithmetic.
///
/// Months are numbered as RFC 7529 does: 1 Tishri … 5 Shevat, 5L Adar I (leap
/// years only), 6 Adar (Adar II in leap years), 7 Nisan … 12 Elul.
struct HebrewCalendarArithmetic: CalendarArithmetic {
    /// Days from the Hebrew epoch to 1 Tishri of `year`, before the postponements
    /// that depend on neighbouring years.
    private static func elapsedDays(_ year: Int) -> Int {
        let months = Int(floorDiv(Int64(235 * year - 234), 19))
        let parts = 12_084 + 13_753 * months
        let day = 29 * months + Int(floorDiv(Int64(parts), 25_920))
        return ((3 * (day + 1)) % 7 + 7) % 7 < 3 ? day + 1 : day
    }

    private static func correction(_ year: Int) -> Int {
        if elapsedDays(year + 1) - elapsedDays(year) == 356 { return 2 }
        if elapsedDays(year) - elapsedDays(year - 1) == 382 { return 1 }
        return 0
    }

    /// 1 Tishri of `year`. The epoch is R.D. -1,373,427; R.D. 719,163 is 1970-01-01.
    static func newYear(_ year: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: -1_373_427 + elapsedDays(year) + correction(year) - 719_163)
    }

    static func isLeap(_ year: Int) -> Bool { ((7 * year + 1) % 19 + 19) % 19 < 7 }

    /// The year's months in order, with their lengths.
    static func months(of year: Int) -> [(month: RscaleMonth, days: Int)] {
        let length = newYear(year + 1).daysSinceEpoch - newYear(year).daysSinceEpoch
        let kind = length % 10   // 3 deficient, 4 regular, 5 complete (353–355, 383–385 days)
        var months: [(RscaleMonth, Int)] = [(RscaleMonth(1), 30), (RscaleMonth(2), kind == 5 ? 30 : 29), (RscaleMonth(3), kind == 3 ? 29 : 30),
                                            (RscaleMonth(4), 29), (RscaleMonth(5), 30)]
        if isLeap(year) { months.append((RscaleMonth(5, leap: true), 30)) }
        months += [(RscaleMonth(6), 29), (RscaleMonth(7), 30), (RscaleMonth(8), 29), (RscaleMonth(9), 30),
                   (RscaleMonth(10), 29), (RscaleMonth(11), 30), (RscaleMonth(12), 29)]
        return months
    }

    /// The Hebrew year holding `date`: the Gregorian year plus 3760 or 3761.
    static func year(of date: CivilDate) -> Int {
        var year = date.year + 3_761
        while newYear(year) > date { year -= 1 }
        while newYear(year + 1) <= date { year += 1 }
        return year
    }

    func month(of date: CivilDate) -> (month: RscaleMonth, day: Int) {
        let year = Self.year(of: date)
        var first = Self.newYear(year)
        for (month, days) in Self.months(of: year) {
            if date.daysSinceEpoch < first.daysSinceEpoch + days { return (month, date.daysSinceEpoch - first.daysSinceEpoch + 1) }
            first = first.adding(days: days)
        }
        return (RscaleMonth(12), 29)   // unreachable: the months fill the year
    }

    func yearStart(containing date: CivilDate) -> CivilDate { Self.newYear(Self.year(of: date)) }

    func monthStart(containing date: CivilDate) -> CivilDate { date.adding(days: 1 - month(of: date).day) }

    func firstDay(of month: RscaleMonth, inYearStarting yearStart: CivilDate) -> CivilDate? {
        var first = yearStart
        for (candidate, days) in Self.months(of: Self.year(of: yearStart)) {
            if candidate == month { return first }
            first = first.adding(days: days)
        }
        return nil
    }

    func daysInMonth(startingOn first: CivilDate) -> Int {
        let year = Self.year(of: first)
        let month = month(of: first).month
        return Self.months(of: year).first { $0.month == month }?.days ?? 29
    }

    func adding(years: Int, toYearStart yearStart: CivilDate) -> CivilDate? {
        Self.newYear(Self.year(of: yearStart) + years)
    }

    func adding(months: Int, toMonthStart monthStart: CivilDate) -> CivilDate? {
        var year = Self.year(of: monthStart)
        var list = Self.months(of: year)
        guard var index = list.firstIndex(where: { $0.month == month(of: monthStart).month }), months >= 0 else { return nil }
        var first = monthStart
        for _ in 0..<months {
            first = first.adding(days: list[index].days)
            index += 1
            if index == list.count { year += 1; list = Self.months(of: year); index = 0 }
        }
        return first
    }

    func yearsBetween(_ from: CivilDate, _ to: CivilDate) -> Int { Self.year(of: to) - Self.year(of: from) }
}
