import Foundation
import ICalendar

/// Which days are working days for one feed: not a weekend day, not a holiday.
/// Counting is arithmetic (whole weeks, then at most six days) plus a binary
/// search in the sorted holidays, so a render of 10,000 countdowns stays cheap.
public struct WorkingDays: Sendable, Hashable {
    public let weekend: Weekend
    /// Holidays that fall on working days (a holiday on a Sunday changes no
    /// count), as days since the epoch, sorted and distinct.
    let holidays: [Int]

    public init(weekend: Weekend = .standard, holidays: some Sequence<CivilDate> = [CivilDate]()) {
        self.weekend = weekend
        self.holidays = Array(Set(holidays.filter { !weekend.contains(weekday: $0.weekday) }.map(\.daysSinceEpoch))).sorted()
    }

    /// Saturday and Sunday off, no holidays.
    public static let standard = WorkingDays()

    public func isWorkingDay(_ date: CivilDate) -> Bool {
        !weekend.contains(weekday: date.weekday) && !holidays.contains(date.daysSinceEpoch)
    }

    /// The working days after `start` through `end` (like `days`, which counts
    /// from tomorrow through the target day): Monday to Friday of one week is 4.
    /// Negative when `end` lies before `start`.
    public func count(from start: CivilDate, to end: CivilDate) -> Int {
        let (first, last) = (start.daysSinceEpoch, end.daysSinceEpoch)
        if last < first { return -count(from: end, to: start) }
        let span = last - first
        var count = span / 7 * weekend.workingDaysPerWeek
        var day = first + span / 7 * 7
        while day < last {
            day += 1
            if !weekend.contains(weekday: CivilDate(daysSinceEpoch: day).weekday) { count += 1 }
        }
        return count - (Self.firstIndex(after: last, in: holidays) - Self.firstIndex(after: first, in: holidays))
    }

    /// The index of the first element greater than `value` (binary search).
    private static func firstIndex(after value: Int, in sorted: [Int]) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension WorkingDays {
    /// How far around today holidays are read: a year back, ten ahead. A
    /// target beyond that counts weekends only.
    public static let holidayWindow = (before: 366, after: 3_660)

    /// The working days of `feed`: its weekend, and as holidays every day an
    /// active event of `holidays` (the series of the feed its `holidays:`
    /// names) covers within `holidayWindow` of `today`, in that feed's `zone`.
    public init(weekend: Weekend, holidays: [CountdownSeries], today: CivilDate, zone: Zone) {
        let window = DateInterval(start: zone.instant(of: LocalDateTime(date: today.adding(days: -Self.holidayWindow.before))),
                                  end: zone.instant(of: LocalDateTime(date: today.adding(days: Self.holidayWindow.after))))
        var days: [CivilDate] = []
        for series in holidays where series.countdown.status == .active {
            for occurrence in series.occurrences(in: window, zone: zone, includingCancelled: false, limit: 5_000) {
                guard occurrence.isAllDay else { days.append(zone.local(of: occurrence.startInstant).date); continue }
                let first = occurrence.start.civilDate
                // DTEND is exclusive; a multi-day holiday (a school break) covers each of its days.
                let end = occurrence.end.map(\.civilDate).flatMap { $0 > first ? $0 : nil } ?? first.adding(days: 1)
                for offset in 0..<min(end.daysSinceEpoch - first.daysSinceEpoch, 366) { days.append(first.adding(days: offset)) }
            }
        }
        self.init(weekend: weekend, holidays: days)
    }
}
