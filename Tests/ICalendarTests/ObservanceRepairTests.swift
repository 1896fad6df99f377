import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// Regression: a VTIMEZONE whose STANDARD part repeats every second
/// (RRULE:FREQ=SECONDLY;COUNT=99999999, from a mutation run) made one offset
/// lookup run for minutes inside libical. Non-yearly observance rules are dropped.
struct ObservanceRepairTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//observance//EN\r
        BEGIN:VTIMEZONE\r
        TZID:Custom Office Time\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        RRULE:FREQ=SECONDLY;COUNT=99999999\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:19700329T020000\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        BEGIN:VEVENT\r
        UID:office@test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Office\r
        DTSTART;TZID=Custom Office Time:20270110T090000\r
        RRULE:FREQ=MONTHLY;COUNT=24\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason), .timeLimit(.minutes(1))) func vtimezoneSecondlyRuleIsDroppedNotExpanded() throws {
        let calendar = try ICalendarParser.parse(Self.calendar).calendar
        let started = ContinuousClock.now
        let window = DateInterval(start: Zone.utc.instant(of: LocalDateTime(year: 2020, month: 1, day: 1)),
                                  end: Zone.utc.instant(of: LocalDateTime(year: 2030, month: 1, day: 1)))
        let found = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 1_000).occurrences
        #expect(found.count == 24)
        #expect(ContinuousClock.now - started < .seconds(10), "no second-by-second expansion")
    }

    @Test func yearlyObservanceRulesAreKept() {
        #expect(ObservanceRepair.isYearly("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))
        #expect(ObservanceRepair.isYearly("BYMONTH=10;freq=yearly"))
        #expect(!ObservanceRepair.isYearly("FREQ=SECONDLY;COUNT=99999999"))
        #expect(!ObservanceRepair.isYearly("FREQ=MONTHLY"))
    }
}
