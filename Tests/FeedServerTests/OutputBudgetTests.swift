import Catalog
import Foundation
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Issue 13, part 7: each client's budget, visible to the owner.
struct OutputBudgetTests {
    /// The part of `/api/health` these tests read.
    struct HealthOutputs: Decodable { var outputs: [OutputBudget] }

    @Test func healthReportsEachFeedsSizesAndEventCounts() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer { client in
            // Health measures the feeds in memory, and compiles none: family was not read yet.
            let before = try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin)
            #expect(try JSONDecoder().decode(HealthOutputs.self, from: Data(buffer: before.body)).outputs.isEmpty)
            let response = try await client.execute(uri: "/api/health?feed=family", method: .get, headers: fixture.admin)
            let health = try JSONDecoder().decode(HealthOutputs.self, from: Data(buffer: response.body))
            let family = try #require(health.outputs.first { $0.feed == "family" })
            #expect(family.exported.events == 3 && family.exported.bytes > 500)
            #expect(family.countdownCalendar.events > 10 && family.warnings.isEmpty)
        }
    }

    @Test func aCalendarOverGooglesLimitIsFlaggedOnTheFeedPage() async throws {
        let fixture = try ServerFixture()
        let note = String(repeating: "A long note that makes the calendar big. ", count: 12)
        var big = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        for index in 0..<2_500 {
            big += "BEGIN:VEVENT\r\nUID:big-\(index)@t\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Event \(index)\r\nDTSTART;VALUE=DATE:20270101\r\nDESCRIPTION:\(note)\r\nEND:VEVENT\r\n"
        }
        big += "END:VCALENDAR\r\n"
        try fixture.feed("big", calendar: big, yaml: "timeZone: UTC")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            try await browser.signIn(WebAppSignIn.password)
            let page = try await browser.get("/app/feeds/big")
            #expect(page.text.contains("Too big for some clients: the calendar is") && page.text.contains("Google Calendar stops reading"))
            let response = try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin)
            let health = try JSONDecoder().decode(HealthOutputs.self, from: Data(buffer: response.body))
            let budget = try #require(health.outputs.first { $0.feed == "big" })
            #expect(budget.exported.events == 2_500 && budget.exported.bytes > OutputBudget.googleLimitBytes && budget.warnings.count == 1)
        }
    }
}
