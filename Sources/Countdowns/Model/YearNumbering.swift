import ICalendar

/// How a yearly repeat numbers its occurrences ("Anna turns 30", the 5th
/// anniversary): every `interval` years, counted in `calendar`'s own years
/// (nil: Gregorian). Read from the repeat once, so a loop over a series'
/// days does not parse its rule again for each day.
public struct YearNumbering: Sendable, Hashable {
    public var interval: Int
    public var calendar: RscaleCalendar?

    /// The number of the occurrence on `date` of a series that started on
    /// `start`; nil before the start. A Chinese-calendar birthday counts
    /// Chinese years, which do not always match Gregorian ones.
    public func number(on date: CivilDate, from start: CivilDate) -> Int? {
        let years = calendar.map { $0.yearsBetween(start, date) } ?? date.year - start.year
        return years >= 0 ? years / max(interval, 1) : nil
    }
}
