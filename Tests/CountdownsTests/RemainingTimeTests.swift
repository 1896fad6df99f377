import Foundation
import Testing
import ICalendar
@testable import Countdowns

struct RemainingTimeTests {
    @Test func christmasIs33DaysAwayOnNovember22() {
        let result = Make.calculator("20261122T090000", "Europe/Budapest").remaining(for: Make.allDay("20261225", repeat: .yearly))
        #expect(result.state == .upcoming)
        #expect(result.text == "33 days")
        #expect(result.days == 33 && result.unit == .days)
    }

    @Test func singularAndPlural() {
        let calculator = Make.calculator("20261224T120000", "Europe/London")
        #expect(calculator.remaining(for: Make.allDay("20261225")).text == "1 day")
        #expect(calculator.remaining(for: Make.allDay("20261226")).text == "2 days")
        #expect(calculator.remaining(for: Make.allDay("20261231"), unit: .weeks).text == "1 week")
    }

    @Test func allDayTargetIsTodayAllDayLong() {
        for hour in ["T000000", "T120000", "T235900"] {
            let result = Make.calculator("20261225" + hour, "Pacific/Auckland").remaining(for: Make.allDay("20261225"))
            #expect(result.state == .today && result.text == "Today", "at \(hour)")
        }
    }

    /// Calendar days are counted in the viewer's zone: at 23:30 on 24 Dec in
    /// Honolulu it is already 25 Dec in UTC, but Christmas is still "1 day" away.
    @Test func daysAreCountedInTheViewersZoneBehindUTC() {
        let result = Make.calculator("20261224T233000", "Pacific/Honolulu").remaining(for: Make.allDay("20261225"))
        #expect(result.text == "1 day")
    }

    /// …and ahead of UTC: at 00:30 on 25 Dec in Auckland it is 24 Dec in UTC, but it is Christmas.
    @Test func daysAreCountedInTheViewersZoneAheadOfUTC() {
        let result = Make.calculator("20261225T003000", "Pacific/Auckland").remaining(for: Make.allDay("20261225"))
        #expect(result.text == "Today")
    }

    @Test func timedEventStates() {
        var meeting = Make.zoned("20261122T140000", "Europe/Berlin", title: "Meeting")
        meeting.end = .zoned(LocalDateTime(parsing: "20261122T150000")!, tzid: "Europe/Berlin")
        #expect(Make.calculator("20261122T100000", "Europe/Berlin").remaining(for: meeting).state == .today)
        #expect(Make.calculator("20261122T143000", "Europe/Berlin").remaining(for: meeting).state == .running)
        #expect(Make.calculator("20261122T143000", "Europe/Berlin").remaining(for: meeting).text == "Now")
        #expect(Make.calculator("20261121T100000", "Europe/Berlin").remaining(for: meeting).state == .upcoming)
        let after = Make.calculator("20261124T100000", "Europe/Berlin").remaining(for: meeting)
        #expect(after.state == .past && after.text == "2 days ago")
    }

    /// The same instant is "today" for a viewer in Tokyo and "1 day" for one in New York.
    @Test func timedEventDayDependsOnTheViewer() {
        let launch = Make.zoned("20261201T010000", "Asia/Tokyo")   // 2026-11-30 16:00 UTC
        let now = Make.instant("20261130T120000Z")
        #expect(RemainingTimeCalculator(now: now, zone: Zone.named("Asia/Tokyo")!).remaining(for: launch).text == "1 day")
        #expect(RemainingTimeCalculator(now: now, zone: Zone.named("America/New_York")!).remaining(for: launch).text == "Today")
    }

    /// Across a DST change the count stays in calendar days: from 28 March (CET)
    /// to 30 March (CEST) is 2 days, although only 47 hours pass.
    @Test func acrossDSTCalendarDaysNotHours() {
        let result = Make.calculator("20270327T120000", "Europe/Berlin").remaining(for: Make.zoned("20270329T110000", "Europe/Berlin"))
        #expect(result.days == 2 && result.text == "2 days")
        let detailed = Make.calculator("20270327T120000", "Europe/Berlin").remaining(for: Make.zoned("20270329T120000", "Europe/Berlin"), unit: .detailed)
        #expect(detailed.text == "2d")
    }

    @Test func leapDayBirthdayFollowsTheRFCOrClamps() {
        let calculator = Make.calculator("20270101T120000", "Europe/Budapest")
        let rfc = calculator.remaining(for: Make.allDay("19960229", repeat: .yearly, title: "Leo turns {n}"))
        #expect(rfc.date == CivilDate(year: 2028, month: 2, day: 29))
        #expect(rfc.title == "Leo turns 32")
        let clamped = calculator.remaining(for: Make.allDay("19960229", repeat: .every(interval: 1, unit: .year, clamp: true), title: "Anna turns {n}"))
        #expect(clamped.date == CivilDate(year: 2027, month: 2, day: 28))
        #expect(clamped.title == "Anna turns 31" && clamped.occurrenceNumber == 31)
        #expect(clamped.text == "58 days")
    }

    @Test func monthEndsSkipOrClamp() {
        let calculator = Make.calculator("20270201T120000", "UTC")
        let skip = calculator.remaining(for: Make.allDay("20260131", repeat: .monthly))
        #expect(skip.date == CivilDate(year: 2027, month: 3, day: 31))
        let clamp = calculator.remaining(for: Make.allDay("20260131", repeat: .every(interval: 1, unit: .month, clamp: true)))
        #expect(clamp.date == CivilDate(year: 2027, month: 2, day: 28))
        let last = calculator.remaining(for: Make.allDay("20260131", repeat: .lastDayOfMonth(interval: 1)))
        #expect(last.date == CivilDate(year: 2027, month: 2, day: 28))
    }

    @Test func newYearCrossesTheYearBoundary() {
        let result = Make.calculator("20261231T235900", "Europe/London").remaining(for: Make.allDay("20270101", repeat: .yearly))
        #expect(result.text == "1 day")
        let atMidnight = Make.calculator("20270101T000000", "Europe/London").remaining(for: Make.allDay("20270101", repeat: .yearly))
        #expect(atMidnight.text == "Today")
        let afterwards = Make.calculator("20270102T000000", "Europe/London").remaining(for: Make.allDay("20270101", repeat: .yearly))
        #expect(afterwards.date == CivilDate(year: 2028, month: 1, day: 1) && afterwards.days == 364)
        #expect(afterwards.text == "11 months", "364 days is past the 99-day limit of the dynamic unit")
    }

    @Test func dynamicUnitSwitchesAt99DaysAnd12Months() {
        let calculator = Make.calculator("20260101T120000", "UTC")
        #expect(calculator.remaining(for: Make.allDay("20260410")).text == "99 days")
        #expect(calculator.remaining(for: Make.allDay("20260411")).text == "3 months")
        #expect(calculator.remaining(for: Make.allDay("20270101")).text == "12 months")
        #expect(calculator.remaining(for: Make.allDay("20270201")).text == "1 year")
        #expect(calculator.remaining(for: Make.allDay("20290615")).text == "3 years")
    }

    @Test func detailedBreakdown() {
        var target = Make.zoned("20280302T160500", "UTC")
        target.displayUnit = .detailed
        let result = Make.calculator("20260101T120000", "UTC").remaining(for: target)
        #expect(result.breakdown == Breakdown(years: 2, months: 2, days: 1, hours: 4, minutes: 5))
        #expect(result.text == "2y 2mo 1d 4h")
    }

    @Test func countingUpSinceTheStart() {
        var sober = Make.allDay("20260815", title: "Sober")
        sober.direction = .up
        let result = Make.calculator("20261122T080000", "Europe/Dublin").remaining(for: sober)
        #expect(result.isCountingUp && result.text == "99 days")
        sober.target = Make.date("20260814")
        #expect(Make.calculator("20261122T080000", "Europe/Dublin").remaining(for: sober).text == "3 months")
        var yearly = Make.allDay("20200301", repeat: .yearly, title: "Since spring")
        yearly.direction = .up
        #expect(Make.calculator("20261122T080000", "UTC").remaining(for: yearly).date == CivilDate(year: 2026, month: 3, day: 1))
    }

    @Test func completedTasksAndCancelledEventsAreMarked() {
        var task = Countdown(uid: "t", title: "Tax return", target: Make.date("20270531"), kind: .task)
        task.status = .completed
        let result = Make.calculator("20261122T080000", "UTC").remaining(for: task)
        #expect(result.state == .past && result.text == "Completed")
        var event = Make.allDay("20270101")
        event.status = .cancelled
        #expect(Make.calculator("20261122T080000", "UTC").remaining(for: event).text == "Cancelled")
    }

    @Test func floatingTimesAreReadInTheViewersZone() {
        let party = Countdown(uid: "p", title: "Party", target: .floating(LocalDateTime(parsing: "20261231T200000")!))
        let tokyo = Make.calculator("20261231T190000", "Asia/Tokyo").remaining(for: party)
        #expect(tokyo.state == .today && tokyo.occurrence?.startInstant == Make.instant("20261231T110000Z"))
    }
}
