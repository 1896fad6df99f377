import Synchronization

/// How far apart the days that a rule's day filters let through can lie, found
/// by walking one 400-year Gregorian cycle (146,097 days, after which dates and
/// weekdays repeat exactly), so the answer holds for every year.
///
/// `RuleFeasibility` asks it whether any day passes a rule's day-level parts
/// together. Answers are remembered per filter set, so an import of many
/// copies of one rule walks the cycle once.
enum DayFilterGap {
    struct Filters: Hashable, Sendable {
        var months: Set<Int>
        var monthDays: Set<Int>
        var yearDays: Set<Int>
        var weekdays: Set<Int>   // 0 = Sunday … 6 = Saturday; numbered ones are refused earlier

        init(rule: RecurrenceRule) {
            months = Set(rule.integers("BYMONTH"))
            monthDays = Set(rule.integers("BYMONTHDAY"))
            yearDays = Set(rule.integers("BYYEARDAY"))
            let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            weekdays = Set(rule.list("BYDAY").compactMap { names.firstIndex(of: String($0.suffix(2))) })
        }

        var isEmpty: Bool { months.isEmpty && monthDays.isEmpty && yearDays.isEmpty && weekdays.isEmpty }
    }

    static let cycleDays = 146_097
    private static let remembered = Mutex<[Filters: Int?]>([:])

    /// The largest distance in days from one matching day to the next (1 when
    /// every day matches), or nil when no day ever matches.
    static func largestGap(_ filters: Filters) -> Int? {
        if filters.isEmpty { return 1 }
        if filters.months.isEmpty, filters.monthDays.isEmpty, filters.yearDays.isEmpty {
            return largestWeekdayGap(filters.weekdays)
        }
        if let known = remembered.withLock({ $0[filters] }) { return known }
        let gap = walk(filters)
        remembered.withLock { table in
            if table.count >= 4_096 { table.removeAll() }   // a bound, not a cache policy: rules repeat
            table[filters] = gap
        }
        return gap
    }

    private static func largestWeekdayGap(_ weekdays: Set<Int>) -> Int? {
        let days = weekdays.filter { (0..<7).contains($0) }.sorted()
        guard let first = days.first, let last = days.last else { return nil }
        var gap = 7 - last + first
        for (earlier, later) in zip(days, days.dropFirst()) { gap = max(gap, later - earlier) }
        return gap
    }

    /// One pass over 2000-01-01 … 2399-12-31, tracking the date by increments.
    private static func walk(_ filters: Filters) -> Int? {
        var year = 2000, month = 1, day = 1, yearDay = 1
        var weekday = 6   // 2000-01-01 was a Saturday
        var firstMatch: Int?, lastMatch = 0, gap = 0
        for index in 0..<cycleDays {
            let monthLength = CivilDate.daysIn(month: month, year: year)
            let yearLength = CivilDate.isLeap(year) ? 366 : 365
            let matches = (filters.months.isEmpty || filters.months.contains(month))
                && (filters.monthDays.isEmpty || filters.monthDays.contains(day) || filters.monthDays.contains(day - monthLength - 1))
                && (filters.yearDays.isEmpty || filters.yearDays.contains(yearDay) || filters.yearDays.contains(yearDay - yearLength - 1))
                && (filters.weekdays.isEmpty || filters.weekdays.contains(weekday))
            if matches {
                if let _ = firstMatch { gap = max(gap, index - lastMatch) } else { firstMatch = index }
                lastMatch = index
            }
            weekday = weekday == 6 ? 0 : weekday + 1
            yearDay += 1
            day += 1
            if day > monthLength {
                day = 1
                month += 1
                if month > 12 { month = 1; year += 1; yearDay = 1 }
            }
        }
        guard let firstMatch else { return nil }
        return max(gap, cycleDays - lastMatch + firstMatch)
    }
}
