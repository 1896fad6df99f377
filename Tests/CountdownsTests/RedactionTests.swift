import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// What each kind of link shows of a feed (issue 13, part 6). Every secret in
/// the fixture holds the word "secret", so "nothing leaks" is one search of
/// the exported bytes.
@Suite struct RedactionTests {
    static let source = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:standup@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20270104T093000\r
        DTEND;TZID=Europe/Berlin:20270104T094500\r
        RRULE:FREQ=WEEKLY;BYDAY=MO\r
        SUMMARY:Standup\r
        DESCRIPTION:secret agenda\r
        LOCATION:secret room\r
        URL:https://example.com/secret\r
        ATTENDEE;CN=Secret Person:mailto:secret@example.com\r
        ORGANIZER:mailto:secret-boss@example.com\r
        CATEGORIES:Work\r
        X-MS-OLK-SECRET:secret x-property\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@example.com\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Berlin:20270111T093000\r
        DTSTART;TZID=Europe/Berlin:20270111T110000\r
        DTEND;TZID=Europe/Berlin:20270111T111500\r
        SUMMARY:Standup (moved)\r
        DESCRIPTION:secret override agenda\r
        ATTENDEE:mailto:secret-guest@example.com\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:doctor@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270301\r
        SUMMARY:secret doctor visit\r
        CLASS:PRIVATE\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:launch@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270320\r
        SUMMARY:Launch\r
        CLASS:PUBLIC\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static func countdowns() throws -> [Countdown] {
        let calendar = try ICalendarParser.parse(source, options: .strict).calendar
        return CountdownReader.countdowns(in: calendar, source: "/home/secret/calendar.ics").countdowns.sorted { $0.uid < $1.uid }
    }

    static func exported(_ redaction: Redaction) throws -> String {
        let feed = Feed(slug: "team", name: "Team", timeZone: "Europe/Berlin", categoryColors: ["Work": "#FF9500"])
        let shown = try countdowns().map(redaction.apply(to:))
        return CalendarWriter().write(CalendarExport.calendar(feed: redaction.apply(to: feed), countdowns: shown))
    }

    @Test func aFullLinkShowsEverythingClassifiedEventsIncluded() throws {
        let exported = try Self.exported(.none)
        for secret in ["secret agenda", "secret room", "secret doctor visit", "secret x-property", "secret-guest"] {
            #expect(exported.contains(secret), "\(secret) is shown in full")
        }
    }

    @Test func aPublicLinkMakesOnlyClassifiedEventsBusy() throws {
        let shown = try Self.countdowns().map(Redaction.classified.apply(to:))
        #expect(shown.map(\.title) == ["Busy", "Launch", "Standup"])
        #expect(shown[2].notes == "secret agenda", "unclassified events are shown in full on a public link")
        #expect(!(try Self.exported(.classified)).contains("doctor"))
    }

    @Test func aTitlesLinkKeepsTitlesTimesAndCategoriesOnly() throws {
        let exported = try Self.exported(.titles)
        #expect(!exported.lowercased().contains("secret"), "no description, location, URL, attendee, X-property or classified title")
        let reparsed = try ICalendarParser.parse(exported, options: .strict).calendar
        let standup = try #require(CountdownReader.countdowns(in: reparsed, source: nil).countdowns.first { $0.title == "Standup" })
        #expect(standup.title == "Standup" && standup.categories == ["Work"] && standup.source == nil)
        #expect(standup.repeatRule == (try Self.countdowns().first { $0.uid == "standup@example.com" }!.repeatRule))
        #expect(standup.overrides.count == 1, "the moved instance stays moved")
        #expect(exported.contains("SUMMARY:Standup (moved)"))
        #expect(exported.contains("DTSTART;TZID=Europe/Berlin:20270111T110000"))
    }

    @Test func aBusyLinkShowsOnlyTimes() throws {
        let exported = try Self.exported(.busy)
        #expect(!exported.lowercased().contains("secret"))
        #expect(!exported.contains("Standup") && !exported.contains("Launch") && !exported.contains("Work"),
                "no titles, and no category names, not even in the feed's header")
        let reparsed = try ICalendarParser.parse(exported, options: .strict).calendar
        let shown = CountdownReader.countdowns(in: reparsed, source: nil).countdowns
        #expect(shown.count == 3 && shown.allSatisfy { $0.title == Redaction.busyTitle })
        #expect(Set(shown.map(\.uid)).count == 3 && !exported.contains("@example.com"), "UIDs stay distinct and stable, but are hashed")
        #expect(exported.contains("SUMMARY:Busy\r\n"))
        #expect(exported.contains("RRULE:FREQ=WEEKLY;BYDAY=MO") && exported.contains("RECURRENCE-ID;TZID=Europe/Berlin:20270111T093000"))
    }

    @Test func anUnknownClassCountsAsPrivate() throws {
        var countdown = Make.allDay("2027-05-01")
        countdown.extraProperties = [Property(name: "CLASS", value: "X-FAMILY-ONLY")]
        #expect(countdown.isClassified)
        countdown.extraProperties = [Property(name: "CLASS", value: "PUBLIC")]
        #expect(!countdown.isClassified)
    }

    @Test func aClassifiedMovedInstanceClassifiesTheWholeSeries() throws {
        var countdown = Make.allDay("2027-05-01", repeat: .every(interval: 1, unit: .week, clamp: false))
        countdown.overrides = [Component(name: "VEVENT", properties: [Property(name: "RECURRENCE-ID", parameters: [Parameter("VALUE", "DATE")], value: "20270508"),
                                                                     Property(name: "CLASS", value: "CONFIDENTIAL")])]
        #expect(Redaction.classified.apply(to: countdown).title == Redaction.busyTitle)
    }

    @Test func aLinkSharesTheFullCompilationOnlyWhenItWouldChangeNothing() throws {
        let countdowns = try Self.countdowns()
        #expect(Redaction.none.leavesUnchanged(countdowns))
        #expect(!Redaction.classified.leavesUnchanged(countdowns))
        #expect(Redaction.classified.leavesUnchanged(countdowns.filter { !$0.isClassified }))
        #expect(!Redaction.titles.leavesUnchanged([]) && !Redaction.busy.leavesUnchanged([]))
        #expect(Redaction(link: nil) == .classified && Redaction(link: .full) == .none)
    }
}
