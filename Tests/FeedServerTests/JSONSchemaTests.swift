@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The documented, versioned shape of /feeds/{slug}.json (docs/api.md, "The JSON feed").
struct JSONSchemaTests {
    /// Schema version 1, mirrored strictly: decoding fails on a wrong type or a missing key.
    struct FeedV1: Decodable {
        var version: Int
        var feed: String
        var name: String
        var timeZone: String
        var generatedAt: String
        var countdowns: [CountdownV1]
        var tasks: Tasks
        var total: Int
        var next: String?
    }

    struct Tasks: Decodable { var overdue, dueToday, dueThisWeek: Int }

    struct CountdownV1: Decodable {
        struct Breakdown: Decodable { var years, months, days, hours, minutes: Int }
        struct Colors: Decodable { var gradient: [String]; var text: String? }
        var id: Int64?
        var uid, title, rawTitle, kind, status, state, direction, date: String
        var start: String?
        var allDay: Bool
        var days, amount: Int
        /// Added in version 1 by working days (fields are only added).
        var workdays: Int
        var unit, text: String
        var breakdown: Breakdown
        var occurrenceNumber: Int?
        var repeats: String
        var categories: [String]
        var colors: Colors
        var image, notes, location, url: String?
        var priority: Int?
        var progress: Double?
    }

    static let countdownKeys: Set<String> = ["id", "uid", "title", "rawTitle", "kind", "status", "state", "direction", "date", "start",
                                             "allDay", "days", "amount", "unit", "text", "breakdown", "occurrenceNumber", "repeats",
                                             "categories", "colors", "image", "notes", "location", "url", "priority", "progress", "workdays"]

    @Test func feedJSONFollowsTheSchema() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timezone: Europe/Berlin")
        try await fixture.withServer { client in
            let (response, body) = try await client.text("/feeds/family.json?tz=America/New_York&unit=days&sort=title")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.eTag] != nil)
            let root = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(Set(root.keys) == ["version", "feed", "name", "timeZone", "generatedAt", "countdowns", "tasks", "total"], "next only while more follow")
            #expect(Set(try #require(root["tasks"] as? [String: Any]).keys) == ["overdue", "dueToday", "dueThisWeek"])
            for countdown in try #require(root["countdowns"] as? [[String: Any]]) {
                #expect(Set(countdown.keys).isSubset(of: Self.countdownKeys), "undocumented keys: \(Set(countdown.keys).subtracting(Self.countdownKeys))")
            }
            let feed = try JSONDecoder().decode(FeedV1.self, from: Data(body.utf8))
            #expect(feed.version == 1 && feed.feed == "family" && feed.timeZone == "America/New_York")
            #expect(feed.countdowns.map(\.title) == ["🎄 Christmas", "Standup", "Trip"], "sort=title ignores the emoji")
            for countdown in feed.countdowns {
                #expect(countdown.unit == "days")
                #expect(["upcoming", "today", "running", "past"].contains(countdown.state))
                #expect(countdown.allDay == (countdown.start?.count == 10))
                #expect(countdown.progress.map { (0...1).contains($0) } ?? true)
            }
            let limited = try JSONSerialization.jsonObject(with: Data(try await client.text("/feeds/family.json?limit=1").1.utf8)) as! [String: Any]
            #expect((limited["countdowns"] as! [Any]).count == 1 && limited["total"] as? Int == 3 && limited["next"] is String)
            let (_, html) = try await client.text("/feeds/family")
            #expect(html.contains("webcal://") && html.contains("calendar.google.com") && html.contains("class=\"number len-"))
        }
    }
}
