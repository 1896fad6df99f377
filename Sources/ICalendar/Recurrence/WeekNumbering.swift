/// RFC 5545 week numbers (BYWEEKNO) for a given week start: week 1 is the first
/// week with at least four days in the year, so a date can belong to the
/// neighbouring year's week.
struct WeekNumbering {
    /// 0 = Sunday … 6 = Saturday.
    let weekStart: Int

    func startOfWeek(_ date: CivilDate) -> CivilDate {
        date.adding(days: -((date.weekday - weekStart + 7) % 7))
    }

    /// The week-year the date's week belongs to, its number, and how many weeks that year has.
    func weekOfYear(_ date: CivilDate) -> (year: Int, number: Int, weeksInYear: Int) {
        let weekBegin = startOfWeek(date)
        let year = weekBegin.adding(days: 3).year
        let firstWeek = startOfWeek(CivilDate(year: year, month: 1, day: 4))
        let nextFirstWeek = startOfWeek(CivilDate(year: year + 1, month: 1, day: 4))
        let number = (weekBegin.daysSinceEpoch - firstWeek.daysSinceEpoch) / 7 + 1
        return (year, number, (nextFirstWeek.daysSinceEpoch - firstWeek.daysSinceEpoch) / 7)
    }
}
