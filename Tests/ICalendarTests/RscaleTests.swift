import Foundation
import Testing
@testable import ICalendar

/// RFC 7529 rules in other calendars (RSCALE) and what SKIP does with dates a
/// year lacks. Expected dates come from tables (Hong Kong Observatory's lunar
/// calendar, hebcal) and were checked with PyPI's lunardate and convertdate;
/// `RscaleAgreementTests` compares a hundred years with those packages.
struct RscaleTests {
    static func dates(_ lines: String, from: String = "20200101T000000Z", to: String = "20310101T000000Z") throws -> [String] {
        try RecurringSeriesFixture.expand(lines, from: from, to: to)
    }

    /// libical 3.0.16 gave 2027-02-07 and 2030-02-02.
    @Test func chineseNewYearIsNotLibicalsOneDayOff() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20260217\nRRULE:RSCALE=CHINESE;FREQ=YEARLY")
        #expect(found == ["2026-02-17", "2027-02-06", "2028-01-26", "2029-02-13", "2030-02-03"])
    }

    /// ICU (in Foundation) gives Hebrew year 5806 385 days, putting Rosh Hashanah
    /// 5807 on 2 October 2046; by the calendar's rules (and hebcal) it is 1 October.
    @Test func roshHashanah5807IsNotICUsDayLate() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20241003\nRRULE:RSCALE=HEBREW;FREQ=YEARLY", from: "20450101T000000Z", to: "20480101T000000Z")
        #expect(found == ["2045-09-12", "2046-10-01", "2047-09-21"])
    }

    /// Born on the 10th of the leap fourth month of 2020 (1 June); 2021 to 2023 have no leap fourth month.
    @Test(arguments: [
        ("OMIT", ["2020-06-01"]),
        ("BACKWARD", ["2020-06-01", "2021-05-21", "2022-05-10", "2023-05-28"]),
        ("FORWARD", ["2020-06-01", "2021-06-19", "2022-06-08", "2023-06-27"]),
    ])
    func aMissingChineseLeapMonthFollowsSkip(skip: String, expected: [String]) throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20200601\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;SKIP=\(skip)", to: "20240101T000000Z")
        #expect(found == expected)
    }

    /// 30 Heshvan 5785 (1 December 2024); 5786 has a 29-day Heshvan.
    @Test(arguments: [
        ("OMIT", ["2024-12-01", "2026-11-10", "2027-11-30"]),
        ("BACKWARD", ["2024-12-01", "2025-11-20", "2026-11-10", "2027-11-30"]),
        ("FORWARD", ["2024-12-01", "2025-11-21", "2026-11-10", "2027-11-30"]),
    ])
    func aMissingThirtiethFollowsSkip(skip: String, expected: [String]) throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20241201\nRRULE:RSCALE=HEBREW;FREQ=YEARLY;SKIP=\(skip)", to: "20280101T000000Z")
        #expect(found == expected)
    }

    /// RFC 7529 section 4.2's example: 8 Adar I in leap years, 8 Adar otherwise.
    @Test func adarOneBirthdayMovesToAdarInCommonYears() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20240217\nRRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8;SKIP=FORWARD",
                                   to: "20280101T000000Z")
        #expect(found == ["2024-02-17", "2025-03-08", "2026-02-25", "2027-02-15"])
    }

    /// Born in Adar of a common year: in a leap year the date is in Adar II, RFC 7529's month 6.
    @Test func adarDateFallsInAdarTwoOfLeapYears() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20250314\nRRULE:RSCALE=HEBREW;FREQ=YEARLY", to: "20280101T000000Z")
        #expect(found == ["2025-03-14", "2026-03-03", "2027-03-23"])
    }

    @Test func countIncludesDtstartAndUntilEndsTheSeries() throws {
        #expect(try Self.dates("DTSTART;VALUE=DATE:20260217\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;COUNT=3") == ["2026-02-17", "2027-02-06", "2028-01-26"])
        #expect(try Self.dates("DTSTART;VALUE=DATE:20260217\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;UNTIL=20290213")
            == ["2026-02-17", "2027-02-06", "2028-01-26", "2029-02-13"])
        #expect(try Self.dates("DTSTART;VALUE=DATE:20260217\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;INTERVAL=2") == ["2026-02-17", "2028-01-26", "2030-02-03"])
    }

    /// A timed series keeps DTSTART's wall time in its zone on each lunar date.
    @Test func timedSeriesKeepTheirTimeOfDay() throws {
        let found = try Self.dates("DTSTART;TZID=Asia/Shanghai:20260217T190000\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;COUNT=2")
        #expect(found == ["2026-02-17T11:00:00Z", "2027-02-06T11:00:00Z"])
    }

    /// Monthly on the first: a Hebrew leap year has thirteen new moons, Adar I among them.
    @Test func monthlyRulesStepThroughLeapMonths() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20231016\nRRULE:RSCALE=HEBREW;FREQ=MONTHLY;COUNT=13")
        #expect(found.count == 13 && found[4] == "2024-02-10" && found[5] == "2024-03-11" && found[11] == "2024-09-04")
        let adars = try Self.dates("DTSTART;VALUE=DATE:20231016\nRRULE:RSCALE=HEBREW;FREQ=MONTHLY;BYMONTH=5L,6;COUNT=3")
        #expect(adars == ["2023-10-16", "2024-02-10", "2024-03-11"], "DTSTART, then Adar I and Adar II")
    }

    /// The last day of each Islamic month (BYMONTHDAY=-1), in a window far from DTSTART.
    @Test func negativeMonthDaysAndLateWindows() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20000101\nRRULE:RSCALE=ISLAMIC-CIVIL;FREQ=MONTHLY;BYMONTHDAY=-1",
                                   from: "20260101T000000Z", to: "20260401T000000Z")
        #expect(found == ["2026-01-19", "2026-02-17", "2026-03-19"])
    }

    /// RSCALE=GREGORIAN with SKIP=BACKWARD is the RFC 7529 way to keep 29 February birthdays.
    @Test func gregorianSkipBackwardKeepsLeapDayBirthdays() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20200229\nRRULE:RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD", to: "20240301T000000Z")
        #expect(found == ["2020-02-29", "2021-02-28", "2022-02-28", "2023-02-28", "2024-02-29"])
    }

    @Test(arguments: [
        ("RSCALE=MARTIAN;FREQ=YEARLY", "RSCALE=MARTIAN is not a calendar tminus can expand"),
        ("FREQ=YEARLY;SKIP=BACKWARD", "SKIP needs an RSCALE"),
        ("RSCALE=CHINESE;FREQ=YEARLY;SKIP=SIDEWAYS", "SKIP=SIDEWAYS must be OMIT, BACKWARD or FORWARD"),
        ("RSCALE=HEBREW;FREQ=YEARLY;BYDAY=1SA", "RSCALE=HEBREW with BYDAY is not supported"),
        ("RSCALE=HEBREW;FREQ=WEEKLY;BYMONTH=7", "RSCALE=HEBREW with FREQ=WEEKLY and BYMONTH is not supported"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=5X", "BYMONTH=5X is not a month"),
        ("FREQ=YEARLY;BYMONTH=5L", "BYMONTH=5L is a leap month"),
    ])
    func rulesTminusCannotExpandAreRefusedByName(rule: String, message: String) {
        #expect(throws: RecurrenceRule.Invalid.self) { try RecurrenceRule(parsing: rule) }
        do { _ = try RecurrenceRule(parsing: rule) } catch { #expect(error.message.contains(message), "\(error.message)") }
    }

    /// Rules whose meaning does not depend on the calendar stay with libical.
    @Test func calendarIndependentRulesStillExpand() throws {
        let found = try Self.dates("DTSTART;VALUE=DATE:20260105\nRRULE:RSCALE=HEBREW;FREQ=WEEKLY;COUNT=3")
        #expect(found == ["2026-01-05", "2026-01-12", "2026-01-19"])
        #expect(try RecurrenceRule(parsing: "RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30").text.contains("BYMONTHDAY=30"),
                "a Gregorian feasibility check must not refuse 30 Heshvan")
    }

    @Test func supportedCalendarsAreRealCalendarsNotGregorianInDisguise() throws {
        let gregorian = RscaleCalendar(named: "GREGORIAN")!
        let day = CivilDate(year: 2026, month: 2, day: 17)
        for name in RscaleCalendar.supportedNames where !["GREGORIAN", "BUDDHIST", "JAPANESE", "ROC"].contains(name) {
            let calendar = try #require(RscaleCalendar(named: name))
            #expect(calendar.month(of: day) != gregorian.month(of: day), "\(name) reads 17 February as Gregorian")
        }
    }
}
