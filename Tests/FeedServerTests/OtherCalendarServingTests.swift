@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Repeats in other calendars through a real server (issue 13, part 5): the
/// JSON and the countdown calendar count to the right day, and the exported
/// calendar comes in two forms: the dates alone, which every reader takes (the
/// default since #39), or (`?rscale=rule`) the RSCALE rule with its dates.
@Suite struct OtherCalendarServingTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:cny@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20260217\r
        RRULE:RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD\r
        SUMMARY:Chinese New Year\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func chineseNewYearIsCountedAndExportedBothWays() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("lunar", calendar: Self.calendar, yaml: "timeZone: Asia/Shanghai")
        try await fixture.withServer { client in
            let json = try await client.text("/feeds/lunar.json").1
            #expect(json.contains(#""date":"2027-02-06""#) && json.contains(#""repeats":"yearly chinese""#), "\(json)")
            let countdown = try await client.text("/feeds/lunar/countdown.ics").1
            #expect(countdown.contains("DTSTART;VALUE=DATE:20270205") && !countdown.contains("DTSTART;VALUE=DATE:20270207"))

            let (response, dates) = try await client.text("/feeds/lunar.ics")
            #expect(response.status == .ok && response.headers[.eTag] != nil)
            let unfolded = dates.replacingOccurrences(of: "\r\n ", with: "")
            #expect(!unfolded.contains("\r\nRRULE:") && unfolded.contains("X-TMINUS-RRULE:RSCALE=CHINESE") && unfolded.contains(":20270206,20280126"))
            #expect(try await client.text("/feeds/lunar.ics?rscale=dates").1 == dates)
            let rule = try await client.text("/feeds/lunar.ics?rscale=rule").1.replacingOccurrences(of: "\r\n ", with: "")
            #expect(rule.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD") && rule.contains("X-TMINUS-SPELLED-OUT=TRUE:20270206,20280126"))
            let bad = try await client.text("/feeds/lunar.ics?rscale=lunar").0
            #expect(bad.status == .badRequest)
        }
    }
}
