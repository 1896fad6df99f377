import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Services
import Testing

/// Issue #63, 2: the export and the served feed said `SUMMARY:Anna turns {n}`;
/// only `countdown.ics` filled it in. A rule's one SUMMARY leaves the number
/// out (any number would be wrong for the other years) and keeps the title in
/// X-TMINUS-TITLE; an overridden instance, one occurrence, says its number.
struct NumberPlaceholderTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//numbers//EN\r
        BEGIN:VEVENT\r
        UID:anna@numbers\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:19960229\r
        RRULE:FREQ=YEARLY\r
        SUMMARY:Anna turns {n}\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-P1D\r
        DESCRIPTION:Anna turns {n}\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:anna@numbers\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;VALUE=DATE:20270228\r
        DTSTART;VALUE=DATE:20270227\r
        SUMMARY:Party: Anna turns {n}\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:rent@numbers\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270101\r
        RRULE:FREQ=MONTHLY\r
        SUMMARY:Rent ({nth} month)\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:once@numbers\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270501\r
        SUMMARY:Day {n} of the trip\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func noServedOrExportedCalendarSaysTheBracesAndAReimportKeepsThem() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: Self.calendar, yaml: "alarms: true")
        try await fixture.withServer { client in
            for path in ["/feeds/family.ics", "/feeds/family/countdown.ics", "/feeds/family.json", "/feeds/family"] {
                let (head, body) = try await client.text(path)
                #expect(head.status == .ok, "\(path)")
                // The title as written is kept where a program reads it back: X-TMINUS-TITLE, the JSON's rawTitle.
                let shown = body.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("X-TMINUS-TITLE") }.joined(separator: "\n")
                    .replacing(/"rawTitle":"[^"]*"/, with: "")
                #expect(!shown.contains("{n}") && !shown.contains("{nth}"), "\(path) shows a placeholder: \(shown.split(whereSeparator: \.isNewline).filter { $0.contains("{n") }.prefix(5))")
            }
            let (_, exported) = try await client.text("/feeds/family.ics")
            #expect(exported.contains("SUMMARY:Anna turns\r\n") && exported.contains("X-TMINUS-TITLE:Anna turns {n}\r\n"), "\(exported.prefix(1500))")
            #expect(exported.contains("SUMMARY:Party: Anna turns 31\r\n"), "the overridden 2027 instance is the 31st birthday")
            #expect(exported.contains("SUMMARY:Rent (month)\r\n") && exported.contains("SUMMARY:Day of the trip\r\n"))
            #expect(!exported.contains("DESCRIPTION:Anna turns {n}"), "nor the alarm")
            let (_, json) = try await client.text("/feeds/family.json")
            #expect(json.contains("Anna turns 3"), "the JSON fills the number in: \(json.prefix(600))")

            // tminus's export read back: the titles as they were written.
            let calendar = try ICalendarParser.parse(data: Array(exported.utf8)).calendar
            let titles = Set(CountdownReader.countdowns(in: calendar, source: nil).countdowns.map(\.title))
            #expect(titles.isSuperset(of: ["Anna turns {n}", "Rent ({nth} month)", "Day {n} of the trip"]), "\(titles)")
            // A calendar app that renamed the event: its SUMMARY is the title now.
            let renamed = exported.replacingOccurrences(of: "SUMMARY:Anna turns\r\n", with: "SUMMARY:Anna Smith turns\r\n")
            let reread = try ICalendarParser.parse(data: Array(renamed.utf8)).calendar
            #expect(CountdownReader.countdowns(in: reread, source: nil).countdowns.contains { $0.title == "Anna Smith turns" })
        }
    }

    @Test(arguments: [
        ("Anna turns {n}", "Anna turns"), ("Our {nth} anniversary", "Our anniversary"), ("Rent ({nth} month)", "Rent (month)"),
        ("Rent ({n})", "Rent"), ("{n}", "#"), ("No number", "No number"), ("Braces {kept}", "Braces {kept}"),
    ])
    func aTitleWithoutItsNumber(title: String, expected: String) {
        #expect(Countdown.withoutNumber(title) == expected)
        #expect(Countdown.render(title, occurrenceNumber: nil) == expected)
    }
}
