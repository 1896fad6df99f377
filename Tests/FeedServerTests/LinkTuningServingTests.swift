@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Each link, tuned by its subscriber (issue #39): the filters a calendar
/// client cannot apply travel in the link, are checked before they become
/// cache keys, and shape the `.ics` and the countdown calendar.
@Suite struct LinkTuningServingTests {
    /// The fixture's clock is 2026-11-22 09:00 UTC.
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:maths@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261210\r
        SUMMARY:Maths exam\r
        CATEGORIES:Exam\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:holiday@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270301\r
        SUMMARY:Spring holiday\r
        CATEGORIES:Holiday\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:old@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261101\r
        SUMMARY:History exam\r
        CATEGORIES:Exam\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static func summaries(_ text: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }.sorted()
    }

    /// Issue #63, 7: the README's `?to=+90d` still held June's birthdays in
    /// November: a series' first date (1996) lies before any end. `to=` alone
    /// now starts today, and is the same link as `from=0d&to=…`.
    @Test func toAloneNarrowsRepeatsFromToday() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("birthdays", calendar: """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//tminus tests//to alone//EN\r
            BEGIN:VEVENT\r
            UID:june@example.com\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:19960612\r
            RRULE:FREQ=YEARLY\r
            SUMMARY:June birthday\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:january@example.com\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:19960112\r
            RRULE:FREQ=YEARLY\r
            SUMMARY:January birthday\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try await fixture.withServer { client in
            let (response, alone) = try await client.text("/feeds/birthdays.ics?to=%2B90d")
            #expect(Self.summaries(alone) == ["January birthday"], "on the fixture's 22 November 2026: \(Self.summaries(alone))")
            let (spelled, both) = try await client.text("/feeds/birthdays.ics?from=0d&to=%2B90d")
            #expect(both == alone && spelled.headers[.eTag] == response.headers[.eTag], "one link, one key")
        }
    }

    @Test func aCategoryLinkHoldsThatCategoryWithItsOwnETag() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: Self.calendar)
        try await fixture.withServer { client in
            let (plainResponse, plain) = try await client.text("/feeds/school.ics")
            #expect(Self.summaries(plain) == ["History exam", "Maths exam", "Spring holiday"])
            let (examResponse, exam) = try await client.text("/feeds/school.ics?category=Exam")
            #expect(examResponse.status == .ok && Self.summaries(exam) == ["History exam", "Maths exam"])
            let examTag = try #require(examResponse.headers[.eTag])
            #expect(examTag != plainResponse.headers[.eTag])
            // Normalised: case, repeats and unknown parameters do not make another key or other bytes.
            let (sameResponse, same) = try await client.text("/feeds/school.ics?category=exam&category=EXAM&utm_source=newsletter")
            #expect(same == exam && sameResponse.headers[.eTag] == examTag)
            // Conditional requests work on a tuned link as on the plain one.
            let again = try await client.execute(uri: "/feeds/school.ics?category=Exam", method: .get, headers: [.ifNoneMatch: examTag], body: nil)
            #expect(again.status == .notModified)
            #expect(Self.summaries(try await client.text("/feeds/school.ics?exclude-category=exam").1) == ["Spring holiday"])
            #expect(Self.summaries(try await client.text("/feeds/school.ics?from=-7d&to=%2B90d").1) == ["Maths exam"])
            #expect(Self.summaries(try await client.text("/feeds/school.ics?past=30").1) == ["History exam", "Maths exam", "Spring holiday"])
            #expect(Self.summaries(try await client.text("/feeds/school.ics?past=7").1) == ["Maths exam", "Spring holiday"])
            // A category no countdown has: answered, empty.
            let (noneResponse, none) = try await client.text("/feeds/school.ics?category=nothing-like-it")
            #expect(noneResponse.status == .ok && Self.summaries(none).isEmpty && none.hasPrefix("BEGIN:VCALENDAR"))
        }
    }

    @Test func aCategoryNoCountdownHasIsNotKept() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: Self.calendar)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            _ = try await client.text("/feeds/school.ics?category=Exam")
            let kept = parts.cache.statistics.entries
            for index in 0..<50 { _ = try await client.text("/feeds/school.ics?category=made-up-\(index)") }
            for index in 0..<50 { _ = try await client.text("/feeds/school/countdown.ics?category=made-up-\(index)") }
            #expect(parts.cache.statistics.entries == kept)
        }
    }

    @Test(arguments: [("to=banana", "to"), ("from=%2B10d&to=-10d", "from"), ("past=-1", "past"), ("tz=Mars/Olympus", "tz"),
                      ("rollover=25:00", "rollover"), ("alarm=tomorrow", "alarm"), ("alarms=some", "alarms"),
                      ("alarms=none&alarm=-P1D", "alarm"), ("from=-7d&from=-8d", "from")])
    func aBadValueIsA400NamingItsParameter(query: String, parameter: String) async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: Self.calendar)
        try await fixture.withServer { client in
            for path in ["/feeds/school.ics", "/feeds/school/countdown.ics"] {
                let (response, body) = try await client.text("\(path)?\(query)")
                #expect(response.status == .badRequest, "\(path)?\(query)")
                #expect(body.contains("\(parameter):"), "\(body)")
            }
        }
    }

    /// At 09:00 UTC on 22 November it is already the 22nd in Kiritimati (UTC+14), still the 21st in Pago Pago (UTC−11).
    @Test func theCountdownCalendarCountsDaysInTheLinksZone() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: Self.calendar)
        try await fixture.withServer { client in
            func firstDay(_ query: String) async throws -> String? {
                try await client.text("/feeds/school/countdown.ics?\(query)").1.components(separatedBy: "\r\n")
                    .filter { $0.hasPrefix("DTSTART;VALUE=DATE:") }.sorted().first
            }
            #expect(try await firstDay("tz=Pacific/Kiritimati") == "DTSTART;VALUE=DATE:20261122")
            #expect(try await firstDay("tz=Pacific/Pago_Pago") == "DTSTART;VALUE=DATE:20261121")
            // Rolled over at 08:00 (the night after): it is still the 21st in Pago Pago until then, and the 22nd in London after 09:00.
            #expect(try await firstDay("tz=Europe/London&rollover=10:00") == "DTSTART;VALUE=DATE:20261121")
            // At 18:00 the evening before: from 09:00 UTC, 20:00 in Sydney, the count is already tomorrow's.
            #expect(try await firstDay("tz=Australia/Sydney&rollover=18:00") == "DTSTART;VALUE=DATE:20261123")
            // A category filter keeps only its countdowns' days; `to` only targets within it.
            let exams = try await client.text("/feeds/school/countdown.ics?category=holiday").1
            #expect(!exams.contains("Maths exam") && exams.contains("Spring holiday"))
            let soon = try await client.text("/feeds/school/countdown.ics?to=%2B30d").1
            #expect(soon.contains("Maths exam") && !soon.contains("Spring holiday"))
        }
    }

    @Test func alarmsCanBeDroppedOrAdded() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: Self.calendar, yaml: "alarms: true")
        try await fixture.withServer { client in
            let added = try await client.text("/feeds/school.ics?alarm=-P1D").1
            #expect(added.components(separatedBy: "TRIGGER:-P1D").count - 1 == 3)
            let none = try await client.text("/feeds/school.ics?alarms=none").1
            #expect(!none.contains("BEGIN:VALARM"))
        }
    }
}

/// Refresh hints (issue #39): a feed that sets no `refresh:` is asked for as
/// often as it changes; one that sets it keeps it.
@Suite struct RefreshHintServingTests {
    @Test func aFeedWithoutRefreshIsAskedForAsOftenAsItChanges() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("school", calendar: LinkTuningServingTests.calendar)
        try fixture.feed("timetable", calendar: LinkTuningServingTests.calendar, yaml: "refresh: PT2H")
        try await fixture.withServer { client in
            let derived = try await client.text("/feeds/school.ics").1
            #expect(derived.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:P1D\r\n") && derived.contains("\r\nX-PUBLISHED-TTL:P1D\r\n"), "imported once: rarely changes")
            let set = try await client.text("/feeds/timetable.ics").1
            #expect(set.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT2H\r\n"))
        }
    }
}
