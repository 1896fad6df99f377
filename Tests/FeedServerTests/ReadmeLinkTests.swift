import Foundation
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Testing
import TestSupport

/// Issue #63, 7 and 12: the README's tuned link, `…/birthdays.ics?category=family&to=+90d&alarms=none`,
/// still held June's and July's birthdays. Here the link as the README writes it is asked of the example
/// birthdays feed, and what it answers is what the README says: only what happens in the next 90 days.
struct ReadmeLinkTests {
    @Test func theReadmesTunedLinkHoldsTheNext90Days() async throws {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let query = try #require(readme.firstMatch(of: /birthdays\.ics\?([^`\s]+)`/).map { String($0.1) }, "the README shows a tuned link")
        #expect(query.contains("to=+90d"), "\(query)")
        let fixture = try ServerFixture()
        let calendar = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("examples/birthdays.ics"), encoding: .utf8)
        try fixture.feed("birthdays", calendar: calendar)
        try await fixture.withServer { client in
            let (head, body) = try await client.text("/feeds/birthdays.ics?" + query)
            #expect(head.status == .ok)
            let parsed = try ICalendarParser.parse(data: Array(body.utf8)).calendar
            let today = CivilDate(year: 2026, month: 11, day: 22)   // the fixture's clock
            func midnight(_ day: CivilDate) -> Date { Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86_400) }
            let window = DateInterval(start: midnight(today), end: midnight(today.adding(days: 91)))
            let occurrences = OccurrenceExpander(calendar: parsed, floatingZone: .utc).occurrences(in: parsed, in: window, limit: 1000).occurrences
            #expect(!parsed.events.isEmpty && Set(occurrences.map(\.uid)) == Set(parsed.events.compactMap(\.uid)),
                    "every event it holds happens within 90 days: \(parsed.events.compactMap(\.summary)) vs \(occurrences.map { $0.summary ?? $0.uid })")
            #expect(!body.contains("ALARM"), "alarms=none")
        }
    }
}
