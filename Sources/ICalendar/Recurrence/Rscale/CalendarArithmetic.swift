/// Days, months and years of one calendar system, as `RscaleExpander` steps
/// through them. Dates are Gregorian `CivilDate`s; months are numbered as
/// RFC 7529 numbers them (`RscaleMonth`).
protocol CalendarArithmetic: Sendable {
    /// The month and day `date` falls on.
    func month(of date: CivilDate) -> (month: RscaleMonth, day: Int)
    /// The first day of the year that holds `date`.
    func yearStart(containing date: CivilDate) -> CivilDate
    /// The first day of the month that holds `date`.
    func monthStart(containing date: CivilDate) -> CivilDate
    /// The first day of `month` in the year beginning on `yearStart`; nil when
    /// that year lacks it (a leap month in a common year).
    func firstDay(of month: RscaleMonth, inYearStarting yearStart: CivilDate) -> CivilDate?
    func daysInMonth(startingOn first: CivilDate) -> Int
    /// The start of the year `years` after the one beginning on `yearStart`.
    func adding(years: Int, toYearStart yearStart: CivilDate) -> CivilDate?
    /// The start of the month `months` after the one beginning on `monthStart`.
    func adding(months: Int, toMonthStart monthStart: CivilDate) -> CivilDate?
    /// Year numbers from the year holding `from` to the one holding `to`.
    func yearsBetween(_ from: CivilDate, _ to: CivilDate) -> Int
}
