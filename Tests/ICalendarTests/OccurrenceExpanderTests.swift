import Foundation
import Testing
@testable import ICalendar

struct OccurrenceExpanderTests {
    @Test func nextOccurrenceOfAYearlyRuleFrom1900() throws {
        let calendar = try ICalendarParser.parse(Fixtures.calendar("SUMMARY:Grandpa\nDTSTART;VALUE=DATE:19000312\nRRULE:FREQ=YEARLY")).calendar
        let expander = OccurrenceExpander(calendar: calendar)
        let next = try #require(expander.nextOccurrence(of: calendar.events.map(\.component), atOrAfter: Fixtures.instant("20261122T000000Z")))
        #expect(next.start == .date(CivilDate(year: 2027, month: 3, day: 12)))
    }

    @Test func unboundedSecondlyRuleStopsAtTheLimit() throws {
        let calendar = try ICalendarParser.parse(Fixtures.calendar("DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY")).calendar
        let window = DateInterval(start: Fixtures.instant("20260101T000000Z"), end: Fixtures.instant("20300101T000000Z"))
        let result = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 1000)
        #expect(result.occurrences.count == 1000)
        #expect(result.truncated)
    }

    @Test func impossibleRuleEndsQuickly() throws {
        let calendar = try ICalendarParser.parse(Fixtures.calendar("DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30")).calendar
        let window = DateInterval(start: Fixtures.instant("20260101T000000Z"), end: Fixtures.instant("20300101T000000Z"))
        let result = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 1000)
        #expect(result.occurrences.map(\.start) == [.utc(LocalDateTime(year: 2026, month: 1, day: 1))], "only DTSTART")
    }

    @Test func severalRRulesAndRDatesAreUnited() throws {
        let starts = try RecurringSeriesFixture.expand("""
            DTSTART:20260105T090000Z
            RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2
            RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=2
            RDATE:20260107T090000Z,20260105T090000Z
            RDATE;VALUE=DATE:20260120
            """, from: "20260101T000000Z", to: "20260201T000000Z")
        // A DATE in the RDATE of a timed series is midnight in DTSTART's zone (UTC here),
        // as recurring-ical-events reads it.
        #expect(starts == ["2026-01-05T09:00:00Z", "2026-01-07T09:00:00Z", "2026-01-09T09:00:00Z",
                           "2026-01-12T09:00:00Z", "2026-01-16T09:00:00Z", "2026-01-20T00:00:00Z"])
    }

    @Test func tasksCountDownToTheirDueDate() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Tax return\r\nDUE;VALUE=DATE:20270531\r\nPRIORITY:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser.parse(text, options: .strict).calendar
        #expect(calendar.todos.first?.priority == 1)
        let window = DateInterval(start: Fixtures.instant("20270101T000000Z"), end: Fixtures.instant("20280101T000000Z"))
        let found = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 10).occurrences
        #expect(found.map(\.componentName) == ["VTODO"])
        #expect(found.first?.start == .date(CivilDate(year: 2027, month: 5, day: 31)))
    }

    @Test func floatingTimesAreReadInTheViewersZone() throws {
        let tokyo = try #require(Zone.named("Asia/Tokyo"))
        let starts = try RecurringSeriesFixture.expand("DTSTART:20261224T180000", from: "20261201T000000Z", to: "20270101T000000Z", floating: tokyo)
        #expect(starts == ["2026-12-24T09:00:00Z"])
    }

    @Test func clampedLeapDayUsesTheLastDayOfFebruary() throws {
        let starts = try RecurringSeriesFixture.expand("DTSTART;VALUE=DATE:19960229\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
                                                       from: "20260101T000000Z", to: "20290101T000000Z")
        #expect(starts == ["2026-02-28", "2027-02-28", "2028-02-29"])
    }

    /// RFC 5545's hourly example, as corrected by Errata 3883, in its real zone.
    @Test func rfcHourlyExampleWithErrata3883() throws {
        let series = try RecurringSeriesFixture.expand("""
            DTSTART;TZID=America/New_York:19970902T090000
            RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z
            """, from: "19970901T000000Z", to: "19970903T000000Z")
        #expect(series == ["1997-09-02T13:00:00Z", "1997-09-02T16:00:00Z", "1997-09-02T19:00:00Z"])
    }
}

/// Regression (issue #62, 1): the rule was walked from two days before the window and those first
/// starts used up the limit, so a daily series asked for one instance of a window three days after its
/// start matched nothing (CalDAV's time-range query, which asks for one, answered an empty 207), and a
/// weekly series on a weekend was missed by a week's query.
struct LimitCountsOnlyTheWindowTests {
    @Test(arguments: [1, 2, 3])
    func aDailySeriesAnswersAWindowThreeDaysAfterItsStart(limit: Int) throws {
        let calendar = try ICalendarParser.parse(Fixtures.calendar("SUMMARY:Daily\nDTSTART:20261203T080706Z\nDTEND:20261203T090706Z\nRRULE:FREQ=DAILY")).calendar
        let window = DateInterval(start: Fixtures.instant("20261205T000000Z"), end: Fixtures.instant("20261208T000000Z"))
        let found = OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: limit).occurrences
        let expected = ["20261205T080706Z", "20261206T080706Z", "20261207T080706Z"].prefix(limit).map { Fixtures.instant($0) }
        #expect(found.map(\.startInstant) == Array(expected))
    }

    @Test func anAllDayDailySeriesAndAMinutelyOneToo() throws {
        let daily = try ICalendarParser.parse(Fixtures.calendar("SUMMARY:Every day\nDTSTART;VALUE=DATE:20261203\nRRULE:FREQ=DAILY;COUNT=30")).calendar
        let window = DateInterval(start: Fixtures.instant("20261210T000000Z"), end: Fixtures.instant("20261211T000000Z"))
        #expect(OccurrenceExpander(calendar: daily).occurrences(in: daily, in: window, limit: 1).occurrences.map(\.start)
                == [.date(CivilDate(year: 2026, month: 12, day: 10))])
        // Two days of minutes before the window (2,880 starts) must not hide the first one inside it.
        let minutely = try ICalendarParser.parse(Fixtures.calendar("SUMMARY:Tick\nDTSTART:20261203T000000Z\nRRULE:FREQ=MINUTELY")).calendar
        let later = DateInterval(start: Fixtures.instant("20261210T120000Z"), end: Fixtures.instant("20261210T120500Z"))
        #expect(OccurrenceExpander(calendar: minutely).occurrences(in: minutely, in: later, limit: 2).occurrences.map(\.startInstant)
                == [Fixtures.instant("20261210T120000Z"), Fixtures.instant("20261210T120100Z")])
    }
}

/// Regression (issue #61, 1): DAILY rules with BYHOUR, BYMINUTE or BYSECOND were refused as never
/// reaching their times, which for DAILY expand the day (RFC 5545 §3.3.10): a twice-daily medicine
/// reminder listed only DTSTART.
struct TimeOfDayExpandsDailyRulesTests {
    @Test(arguments: ["FREQ=DAILY;COUNT=3;BYHOUR=6,18", "FREQ=DAILY;COUNT=3;BYMINUTE=15,45", "FREQ=DAILY;COUNT=3;BYSECOND=10,20"])
    func aDailyRuleWithTimesOfDayIsExpandedNotRefused(rule text: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        let start = LocalDateTime(year: 1997, month: 9, day: 2, hour: 9)
        #expect(UnreachableRule.problem(with: rule, from: .floating(start)) == nil)
        let found = RuleExpander(rule: rule, start: start, isDate: false, timeBudget: .seconds(3600))
            .expand(from: nil, to: LocalDateTime(year: 1998, month: 1, day: 1), limit: 10).occurrences
        #expect(found.count >= 3, "\(found)")
        #expect(found.contains { $0 > start }, "times after DTSTART: \(found)")
    }

    @Test func limitingPartsStillLimitFinerFrequencies() throws {
        // HOURLY every 24 hours keeps 09:00; BYHOUR=6 limits it: only DTSTART.
        let hourly = try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=24;BYHOUR=6")
        #expect(UnreachableRule.problem(with: hourly, from: .floating(LocalDateTime(year: 1997, month: 9, day: 2, hour: 9))) != nil)
    }
}
