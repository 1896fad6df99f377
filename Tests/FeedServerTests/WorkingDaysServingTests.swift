@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Testing

/// Working days through a real server (issue 13, part 2): a feed names
/// another feed as its holidays, and its JSON says `workdays` next to `days`,
/// its `?unit=workdays` text and its countdown calendar count them. The
/// expected numbers come from a plain loop over the days, not from tminus.
@Suite struct WorkingDaysServingTests {
    static let holidays = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:christmas@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261224\r
        DTEND;VALUE=DATE:20261227\r
        SUMMARY:Christmas (three days, the last a Saturday)\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:new-year@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270101\r
        RRULE:FREQ=YEARLY\r
        SUMMARY:New Year\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static let work = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:deadline@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20270115\r
        SUMMARY:Deadline\r
        X-TMINUS-UNIT:workdays\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// Days after `from` through `to` that are not Saturday, Sunday or in `off`.
    static func loop(from: CivilDate, to: CivilDate, off: Set<CivilDate>, weekend: Set<Int> = [0, 6]) -> Int {
        var (day, count) = (from, 0)
        while day < to {
            day = day.adding(days: 1)
            if !weekend.contains(day.weekday) && !off.contains(day) { count += 1 }
        }
        return count
    }

    static let today = CivilDate(year: 2026, month: 11, day: 22)   // the fixture's clock
    static let deadline = CivilDate(year: 2027, month: 1, day: 15)
    static let christmas: Set<CivilDate> = [CivilDate(year: 2026, month: 12, day: 24), CivilDate(year: 2026, month: 12, day: 25),
                                            CivilDate(year: 2026, month: 12, day: 26), CivilDate(year: 2027, month: 1, day: 1)]

    static func deadlineRow(_ client: any TestClientProtocol, _ query: String = "") async throws -> [String: Any] {
        let body = try await client.text("/feeds/work.json" + query).1
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as! [String: Any]
        return try #require((json["countdowns"] as! [[String: Any]]).first)
    }

    @Test func aFeedCountsWorkingDaysWithAnotherFeedsHolidays() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("hol", calendar: Self.holidays)
        try fixture.feed("work", calendar: Self.work, yaml: "holidays: hol")
        try await fixture.withServer { client in
            let expected = Self.loop(from: Self.today, to: Self.deadline, off: Self.christmas)
            let row = try await Self.deadlineRow(client)
            #expect(row["days"] as? Int == 54)
            #expect(row["workdays"] as? Int == expected)
            #expect(row["text"] as? String == "\(expected) working days", "the countdown's own unit is workdays")
            #expect(try await Self.deadlineRow(client, "?unit=days")["text"] as? String == "54 days")
            let calendar = try await client.text("/feeds/work/countdown.ics").1
            let fromNewYearsEve = Self.loop(from: CivilDate(year: 2026, month: 12, day: 31), to: Self.deadline, off: Self.christmas)
            #expect(calendar.contains("SUMMARY:Deadline — \(fromNewYearsEve) working days\r\nDTSTART;VALUE=DATE:20261231"),
                    "each day of the countdown calendar counts from that day")
        }
    }

    /// `holidays: https://…` in a feed file: tminus makes a private feed
    /// `{slug}-holidays` with that address as its source and counts with it.
    @Test func aHolidayCalendarByAddressBecomesAFeedOfItsOwn() async throws {
        let router = Router()
        router.get("holidays.ics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/calendar"], body: .init(byteBuffer: ByteBuffer(string: Self.holidays)))
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { source in
            let port = try #require(source.port)
            let fixture = try ServerFixture()
            try fixture.feed("work", calendar: Self.work, yaml: "holidays: http://127.0.0.1:\(port)/holidays.ics")
            try await fixture.withServer { client in
                let refreshed = try await client.execute(uri: "/api/feeds/work-holidays/refresh", method: .post, headers: fixture.admin)
                #expect(refreshed.status == .ok, "\(String(buffer: refreshed.body))")
                #expect(try await client.text("/feeds/work-holidays.ics").0.status == .notFound, "the made feed is private")
                let row = try await Self.deadlineRow(client)
                #expect(row["workdays"] as? Int == Self.loop(from: Self.today, to: Self.deadline, off: Self.christmas))
            }
        }
    }

    @Test func aChangeToTheHolidaysFeedReachesTheFeedsThatUseIt() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("hol", calendar: Self.holidays)
        try fixture.feed("work", calendar: Self.work, yaml: "holidays: hol\nweekend: [fri, sat]")
        try await fixture.withServer { client in
            let before = try await Self.deadlineRow(client)["workdays"] as? Int
            #expect(before == Self.loop(from: Self.today, to: Self.deadline, off: Self.christmas, weekend: [5, 6]))
            let added = try await client.execute(uri: "/api/feeds/hol/countdowns", method: .post, headers: fixture.admin,
                                                 body: ByteBuffer(string: #"{"title":"Company day","date":"2027-01-04"}"#))
            #expect(added.status == .created)
            let after = try await Self.deadlineRow(client)["workdays"] as? Int
            #expect(after == Self.loop(from: Self.today, to: Self.deadline, off: Self.christmas.union([CivilDate(year: 2027, month: 1, day: 4)]),
                                       weekend: [5, 6]))
            #expect(after == before.map { $0 - 1 }, "Monday 4 January is a working day with a Friday–Saturday weekend, and now a holiday")
        }
    }

    @Test func feedSettingsRefuseAWeekendOfNoDayAndAHolidaysFeedOfItself() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("work", calendar: Self.work)
        try await fixture.withServer { client in
            for (body, message) in [(#"{"slug":"work","weekend":["caturday"]}"#, "'caturday' is not a day of the week"),
                                    (#"{"slug":"work","holidays":"work"}"#, "must be the slug of another feed")] {
                let response = try await client.execute(uri: "/api/feeds/work", method: .patch, headers: fixture.admin, body: ByteBuffer(string: body))
                #expect(response.status == .badRequest || response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains(message))
            }
            let saved = try await client.execute(uri: "/api/feeds/work", method: .patch, headers: fixture.admin,
                                                 body: ByteBuffer(string: #"{"slug":"work","weekend":["fri","sat"],"holidays":"hol"}"#))
            #expect(saved.status == .ok)
            let settings = String(buffer: saved.body)
            #expect(settings.contains(#""weekend":["fri","sat"]"#) && settings.contains(#""holidays":"hol""#))
        }
    }
}
