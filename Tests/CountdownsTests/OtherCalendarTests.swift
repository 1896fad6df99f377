import Foundation
import Testing
import TestSupport
import ICalendar
@testable import Countdowns

/// Countdowns that repeat in another calendar: the presets, ages counted in that
/// calendar's years, and exports that clients without RSCALE can still read.
struct OtherCalendarTests {
    static let today = CivilDate(year: 2026, month: 11, day: 24)

    static func countdowns() -> [Countdown] {
        var newYear = Make.allDay("20260217", repeat: .calendarYearly(RscaleCalendar(named: "CHINESE")!), title: "Chinese New Year")
        newYear.uid = "cny"
        var grandpa = Make.allDay("19500301", repeat: .calendarYearly(RscaleCalendar(named: "CHINESE")!), title: "Grandpa turns {n}")
        grandpa.uid = "grandpa"
        var purim = Make.allDay("20250314", repeat: .calendarYearly(RscaleCalendar(named: "HEBREW")!), title: "Purim")
        purim.uid = "purim"
        return [newYear, grandpa, purim]
    }

    /// The cheap year of a kept export's window (`year(at:in:)`) is the year
    /// the zone shows, also in the hours when a new year has begun in some
    /// zones and not in others.
    @Test(arguments: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin", "America/Los_Angeles"])
    func theWindowsYearIsTheZonesYearAroundNewYear(_ name: String) throws {
        let zone = try #require(Zone.named(name))
        let newYear = Date(timeIntervalSince1970: 1_830_297_600)   // 2028-01-01T00:00:00Z
        for hours in stride(from: -30, through: 30, by: 1) {
            let now = newYear.addingTimeInterval(Double(hours) * 3_600 + 1_800)
            #expect(OtherCalendarDates.year(at: now, in: zone) == zone.local(of: now).date.year, "\(name), \(hours) h")
        }
        #expect(OtherCalendarDates.year(at: newYear.addingTimeInterval(-180 * 86_400), in: zone) == 2027)
    }

    @Test func presetsReadWriteAndRecogniseTheirRules() throws {
        let chinese = try RepeatPhrase.parse("yearly chinese")
        #expect(chinese.rrule(startingOn: Self.today) == "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        #expect(try RepeatPhrase.parse("Yearly Hebrew").rrule(startingOn: Self.today) == "RSCALE=HEBREW;FREQ=YEARLY;SKIP=FORWARD")
        #expect(try RepeatPhrase.parse("yearly islamic").rrule(startingOn: Self.today) == "RSCALE=ISLAMIC-CIVIL;FREQ=YEARLY;SKIP=BACKWARD")
        #expect(Repeat(rrule: "SKIP=BACKWARD;FREQ=YEARLY;RSCALE=CHINESE", startingOn: Self.today) == chinese, "parts in any order")
        #expect(Repeat(rrule: "RSCALE=CHINESE;FREQ=YEARLY", startingOn: Self.today) == .rule("RSCALE=CHINESE;FREQ=YEARLY"), "another SKIP is no preset")
        #expect(RepeatPhrase.describe(chinese) == "yearly chinese")
        #expect(throws: RepeatPhrase.Invalid.self) { try RepeatPhrase.parse("yearly gregorian") }
        #expect(throws: RepeatPhrase.Invalid.self) { try RepeatPhrase.parse("yearly martian") }
    }

    /// Born 1 March 1950, the 13th of the first month of the Chinese year 1950.
    /// On 18 February 2027 (the same lunar date) he turns 77 in Chinese years.
    @Test func agesCountTheCalendarsOwnYears() throws {
        let grandpa = Self.countdowns()[1]
        let calculator = RemainingTimeCalculator(now: Make.instant("20261124T120000Z"), zone: Zone.named("Asia/Shanghai")!)
        let remaining = calculator.remaining(for: grandpa)
        #expect(remaining.date == CivilDate(year: 2027, month: 2, day: 18))
        #expect(remaining.title == "Grandpa turns 77")
    }

    /// 1 January 2000 was the 25th of the Chinese eleventh month, which falls in
    /// December some years and in January others: the n-th birthday is n Chinese
    /// years on, though not always n Gregorian ones.
    @Test func theNthOccurrenceIsNumberedNEvenWhenGregorianYearsDisagree() throws {
        let rule = Repeat.calendarYearly(RscaleCalendar(named: "CHINESE")!)
        let start = CivilDate(year: 2000, month: 1, day: 1)
        let expander = RuleExpander(rule: try RecurrenceRule(parsing: rule.rrule(startingOn: start)!), start: LocalDateTime(date: start), isDate: true)
        let dates = expander.expand(from: nil, to: LocalDateTime(date: CivilDate(year: 2040, month: 1, day: 1)), limit: 100).occurrences.map(\.date)
        #expect(dates.count >= 39)
        for (n, date) in dates.enumerated() {
            #expect(rule.occurrenceNumber(on: date, from: start) == n, "\(date)")
        }
        #expect(dates.enumerated().contains { $0.element.year - start.year != $0.offset }, "some years the Gregorian count is off")
    }

    @Test(arguments: OtherCalendarDates.Form.allCases)
    func exportsReimportLosslessly(form: OtherCalendarDates.Form) throws {
        let spelling = OtherCalendarDates(form: form, today: Self.today, years: 5)
        let written = CalendarWriter().write(CalendarExport.calendar(feed: Feed(slug: "lunar"), countdowns: Self.countdowns(), otherCalendarDates: spelling))
        #expect(written.contains(form == .dates ? "X-TMINUS-RRULE:RSCALE=CHINESE" : "\r\nRRULE:RSCALE=CHINESE"))
        #expect(written.replacingOccurrences(of: "\r\n ", with: "").contains("RDATE;VALUE=DATE;X-TMINUS-SPELLED-OUT=TRUE:20270206,20280126,20290213,20300203\r\n"))
        let back = CountdownReader.countdowns(in: try ICalendarParser.parse(written).calendar, source: nil).countdowns
        #expect(back.map(\.repeatRule) == Self.countdowns().sorted { $0.uid < $1.uid }.map(\.repeatRule))
        #expect(back.allSatisfy { $0.recurrenceDates.isEmpty && $0.extraProperties.isEmpty }, "spelled-out dates and the kept rule are not extras")
        let again = CalendarWriter().write(CalendarExport.calendar(feed: Feed(slug: "lunar"), countdowns: back, otherCalendarDates: spelling))
        #expect(again == written, "byte-stable")
    }

    /// recurring-ical-events (dateutil) refuses RSCALE; the `dates` form gives it the right days.
    @Test(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
    func theDatesFormReadsRightWithoutRSCALE() async throws {
        let spelling = OtherCalendarDates(form: .dates, today: Self.today, years: 5)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-rscale-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try CalendarWriter().write(CalendarExport.calendar(feed: Feed(slug: "lunar"), countdowns: Self.countdowns(), otherCalendarDates: spelling))
            .write(to: file, atomically: true, encoding: .utf8)
        let answer = try await PythonChecker.run(["expand": [file.path], "from": "2026-01-01T00:00:00Z", "to": "2031-01-01T00:00:00Z", "tz": "UTC"])
        let found = try #require(answer[file.path] as? [[String: Any]])
        let newYears = found.filter { $0["uid"] as? String == "cny" }.compactMap { $0["start"] as? String }.sorted()
        #expect(newYears == ["2026-02-17", "2027-02-06", "2028-01-26", "2029-02-13", "2030-02-03"])
        let purims = found.filter { $0["uid"] as? String == "purim" }.compactMap { $0["start"] as? String }.sorted()
        #expect(purims == ["2026-03-03", "2027-03-23", "2028-03-12", "2029-03-01", "2030-03-19"])
    }
}
