import ICalendar
import Testing
@testable import Countdowns

/// Working days (issue 13, part 2): "12 working days left" counts the days
/// after today through the target, skipping the weekend and the holidays.
/// Every count is checked against a plain day-by-day loop written here.
@Suite struct WorkingDaysTests {
    static func date(_ text: String) -> CivilDate { CivilDate(parsing: text)! }

    /// The independent count: walk every day, ask the two questions.
    static func loopCount(from start: CivilDate, to end: CivilDate, weekendDays: Set<Int>, holidays: Set<CivilDate>) -> Int {
        guard end >= start else { return -loopCount(from: end, to: start, weekendDays: weekendDays, holidays: holidays) }
        var count = 0
        var day = start
        while day < end {
            day = day.adding(days: 1)
            if !weekendDays.contains(day.weekday) && !holidays.contains(day) { count += 1 }
        }
        return count
    }

    @Test func mondayToFridayOfOneWeekIsFour() {
        #expect(WorkingDays.standard.count(from: Self.date("2026-11-23"), to: Self.date("2026-11-27")) == 4)
        #expect(WorkingDays.standard.count(from: Self.date("2026-11-27"), to: Self.date("2026-11-30")) == 1, "Friday to Monday")
        #expect(WorkingDays.standard.count(from: Self.date("2026-11-27"), to: Self.date("2026-11-27")) == 0)
        #expect(WorkingDays.standard.count(from: Self.date("2026-11-27"), to: Self.date("2026-11-23")) == -4, "behind: negative")
    }

    @Test func aHolidayOnASundayChangesNothing() {
        let christmas = WorkingDays(holidays: [Self.date("2022-12-25"), Self.date("2022-12-26")])   // a Sunday, then a Monday
        #expect(christmas.count(from: Self.date("2022-12-23"), to: Self.date("2022-12-30")) == 4, "Mon 26 is off; Sun 25 was off anyway")
        #expect(!christmas.isWorkingDay(Self.date("2022-12-26")) && christmas.isWorkingDay(Self.date("2022-12-27")))
    }

    /// Across year ends, with holidays on weekdays and weekends, for the usual
    /// weekend, a Friday–Saturday one and a six-day week: every pair of days
    /// in a window around three new years matches the loop.
    @Test(arguments: [[0, 6], [5, 6], [0]]) func matchesADayByDayLoop(_ weekendDays: [Int]) {
        let holidays: Set<CivilDate> = ["2025-12-24", "2025-12-25", "2025-12-26", "2026-01-01", "2026-01-06", "2026-12-25", "2026-12-26",
                                        "2027-01-01", "2027-12-25", "2028-01-01", "2028-01-03"].map(Self.date).reduce(into: []) { $0.insert($1) }
        var weekend: Weekend = []
        for day in weekendDays { weekend.insert(Weekend(weekday: day)) }
        let working = WorkingDays(weekend: weekend, holidays: holidays)
        let ends = (0..<300).map { Self.date("2025-12-01").adding(days: $0 * 3) }
        let starts = (0..<30).map { Self.date("2025-12-01").adding(days: $0 * 11) }
        var mismatches: [String] = []
        for start in starts {
            for end in ends {
                let expected = Self.loopCount(from: start, to: end, weekendDays: Set(weekendDays), holidays: holidays)
                let counted = working.count(from: start, to: end)
                if counted != expected { mismatches.append("\(start) → \(end): \(counted), the loop says \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "weekend \(weekendDays): \(mismatches.prefix(5))")
    }

    @Test func weekendNamesAreReadInAnyCommonSpelling() throws {
        #expect(try Weekend.parse(["Fri", "saturday"]).get() == [Weekend(weekday: 5), .saturday])
        #expect(try Weekend.parse(["SA", "su"]).get() == .standard)
        #expect(Weekend.standard.dayNames == ["sat", "sun"])
        #expect(throws: WeekendError.self) { try Weekend.parse(["caturday"]).get() }
        #expect(throws: WeekendError.self) { try Weekend.parse(Weekend.names).get() }
    }
}
