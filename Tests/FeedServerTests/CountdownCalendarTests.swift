@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Testing

/// The day-by-day titles of /countdown.ics, in the feed's zone, across DST changes.
struct CountdownCalendarTests {
    static func calendar(target: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:launch@test\r\nDTSTAMP:20260101T000000Z\r\n"
            + "SUMMARY:🚀 Launch\r\nDTSTART;VALUE=DATE:\(target)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Summary by DTSTART date, from the countdown calendar.
    static func titles(_ text: String) throws -> [String: String] {
        let calendar = try ICalendarParser.parse(text, options: .strict).calendar
        var out: [String: String] = [:]
        for event in calendar.events { out[event.dtstart!.civilDate.iso] = event.summary }
        return out
    }

    /// Behind UTC, across the US spring change (14 March 2027). At 07:30 UTC on
    /// 10 March it is still 9 March in Los Angeles: the calendar starts there.
    @Test func behindUTCAcrossDST() async throws {
        let fixture = try ServerFixture(now: Fixtures.instant("2027-03-10T07:30:00Z"))
        try fixture.feed("launch", calendar: Self.calendar(target: "20270320"), yaml: "timezone: America/Los_Angeles\ncountdown:\n  mode: daily\n  days: 14")
        try await fixture.withServer { client in
            let (response, body) = try await client.text("/feeds/launch/countdown.ics")
            #expect(response.status == .ok && response.headers[.contentType] == "text/calendar; charset=utf-8")
            let titles = try Self.titles(body)
            #expect(titles["2027-03-09"] == "🚀 Launch — 11 days")
            #expect(titles["2027-03-13"] == "🚀 Launch — 7 days")
            #expect(titles["2027-03-14"] == "🚀 Launch — 6 days", "the DST day is an ordinary calendar day")
            #expect(titles["2027-03-15"] == "🚀 Launch — 5 days")
            #expect(titles["2027-03-19"] == "🚀 Launch — 1 day")
            #expect(titles["2027-03-20"] == "🚀 Launch — Today")
            #expect(titles["2027-03-21"] == nil && titles["2027-03-08"] == nil)
            #expect(titles.count == 12)
            // An hour later it is 10 March in Los Angeles too: the calendar moves on by a day.
            fixture.setClock(Fixtures.instant("2027-03-10T08:30:00Z"))
            let (_, next) = try await client.text("/feeds/launch/countdown.ics")
            let moved = try Self.titles(next)
            #expect(moved["2027-03-09"] == nil && moved["2027-03-10"] == "🚀 Launch — 10 days")
            #expect(moved["2027-03-14"] == titles["2027-03-14"], "each day's title is fixed, whenever it is fetched")
        }
    }

    /// Ahead of UTC, across New Zealand's autumn change (4 April 2027). At 11:30 UTC
    /// on 31 March it is already 1 April in Auckland.
    @Test func aheadOfUTCAcrossDST() async throws {
        let fixture = try ServerFixture(now: Fixtures.instant("2027-03-31T11:30:00Z"))
        try fixture.feed("launch", calendar: Self.calendar(target: "20270406"), yaml: "timezone: Pacific/Auckland")
        try await fixture.withServer { client in
            let (_, body) = try await client.text("/feeds/launch/countdown.ics")
            let titles = try Self.titles(body)
            #expect(titles["2027-03-31"] == nil)
            #expect(titles["2027-04-01"] == "🚀 Launch — 5 days")
            #expect(titles["2027-04-04"] == "🚀 Launch — 2 days")
            #expect(titles["2027-04-05"] == "🚀 Launch — 1 day")
            #expect(titles["2027-04-06"] == "🚀 Launch — Today")
            let uids = try ICalendarParser.parse(body).calendar.events.compactMap(\.uid)
            #expect(Set(uids).count == uids.count, "one UID per day")
        }
    }

    @Test func milestonesOnly() async throws {
        let fixture = try ServerFixture(now: Fixtures.instant("2026-11-22T12:00:00Z"))
        try fixture.feed("launch", calendar: Self.calendar(target: "20261225"), yaml: "timezone: Europe/London\ncountdown:\n  mode: milestones\n  milestones: [30, 7, 1, 0]")
        try await fixture.withServer { client in
            let (_, body) = try await client.text("/feeds/launch/countdown.ics")
            let titles = try Self.titles(body)
            #expect(titles == ["2026-11-25": "🚀 Launch — 30 days", "2026-12-18": "🚀 Launch — 7 days", "2026-12-24": "🚀 Launch — 1 day", "2026-12-25": "🚀 Launch — Today"])
        }
    }
}

enum Fixtures {
    static func instant(_ iso: String) -> Date {
        ISO8601DateFormatter().date(from: iso)!
    }
}
