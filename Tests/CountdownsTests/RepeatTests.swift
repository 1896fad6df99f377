import Testing
import ICalendar
@testable import Countdowns

struct RepeatTests {
    static let presets: [(Repeat, String, String)] = [
        (.daily, "20260101", "FREQ=DAILY"),
        (.weekly, "20260101", "FREQ=WEEKLY"),
        (.every(interval: 2, unit: .week, clamp: false), "20260101", "FREQ=WEEKLY;INTERVAL=2"),
        (.monthly, "20260115", "FREQ=MONTHLY"),
        (.yearly, "19900704", "FREQ=YEARLY"),
        (.every(interval: 1, unit: .year, clamp: true), "19960229", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"),
        (.every(interval: 1, unit: .month, clamp: true), "20260131", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
        (.every(interval: 3, unit: .month, clamp: true), "20260130", "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1;INTERVAL=3"),
        (.nthWeekday(ordinal: -1, weekday: .friday, interval: 1), "20260130", "FREQ=MONTHLY;BYDAY=-1FR"),
        (.nthWeekday(ordinal: 2, weekday: .tuesday, interval: 1), "20260113", "FREQ=MONTHLY;BYDAY=2TU"),
        (.lastDayOfMonth(interval: 1), "20260131", "FREQ=MONTHLY;BYMONTHDAY=-1"),
    ]

    @Test func presetsMapToPlainRRulesAndBack() throws {
        for (preset, start, rule) in Self.presets {
            let date = try #require(CivilDate(parsing: start))
            #expect(preset.rrule(startingOn: date) == rule)
            #expect(Repeat(rrule: rule, startingOn: date) == preset, "\(rule)")
            #expect((try? RecurrenceRule(parsing: rule)) != nil, "libical must accept \(rule)")
        }
    }

    @Test func clampOnAnOrdinaryDayIsJustTheRule() {
        #expect(Repeat.every(interval: 1, unit: .month, clamp: true).rrule(startingOn: CivilDate(year: 2026, month: 1, day: 15)) == "FREQ=MONTHLY")
    }

    @Test func otherRulesAreKeptAsTheyAre() {
        let start = CivilDate(year: 2026, month: 1, day: 5)
        for rule in ["FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=DAILY;COUNT=10", "FREQ=YEARLY;UNTIL=20300101", "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"] {
            #expect(Repeat(rrule: rule, startingOn: start) == .rule(rule))
        }
    }
}
