@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// `GET /api/agenda`: the days ahead of the feeds a token may read, the
/// same read as the app's timeline, with its principal deciding the feeds.
struct AgendaAPITests {
    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], "\(String(buffer: response.body))")
    }

    /// The entries of each day, as "HH:MM kind title" (all-day: "kind title").
    static func entries(_ agenda: [String: Any]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for day in agenda["days"] as? [[String: Any]] ?? [] {
            found[day["date"] as? String ?? ""] = (day["entries"] as? [[String: Any]] ?? []).map { entry in
                [entry["time"] as? String, entry["kind"] as? String, entry["title"] as? String].compactMap { $0 }.joined(separator: " ")
            }
        }
        return found
    }

    @Test func theAdminTokenSeesEveryFeedsDaysAheadInTheViewersZone() async throws {
        let fixture = try ServerFixture()   // Sunday 2026-11-22, 09:00 UTC
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            let response = try await client.execute(uri: "/api/agenda?days=4", method: .get, headers: fixture.admin)
            #expect(response.status == .ok)
            let agenda = try Self.json(response)
            #expect(agenda["zone"] as? String == "Europe/Berlin", "the zone the feeds use")
            #expect(agenda["from"] as? String == "2026-11-22")
            let days = Self.entries(agenda)
            #expect(days.keys.allSatisfy { ("2026-11-22"..."2026-11-25").contains($0) } && !days.filter { $0.key != "2026-11-22" }.values.contains { $0.isEmpty },
                    "today, and the days of the window that have entries: \(days)")
            #expect(days["2026-11-23"] == ["09:20 alarm Standup", "09:30 event Standup"], "\(days)")
            #expect(days["2026-11-25"]?.contains("09:30 event Standup") != true, "Wednesday's is an EXDATE")
            let tokyo = Self.entries(try Self.json(try await client.execute(uri: "/api/agenda?days=2&tz=Asia/Tokyo", method: .get, headers: fixture.admin)))
            #expect(tokyo["2026-11-23"]?.contains("17:30 event Standup") == true, "the viewer's zone: \(tokyo)")
        }
    }

    @Test func aPersonSeesOnlyTheFeedsTheyMayRead() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin\npublic: false")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await FocusAPITests.anna(parts, readOnly: false)
            let made = try await client.execute(uri: "/api/feeds", method: .post, headers: anna,
                                                body: ByteBuffer(string: #"{"slug":"anna","name":"Anna","timeZone":"Europe/Berlin"}"#))
            #expect(made.status == .created, "\(String(buffer: made.body))")
            let added = try await client.execute(uri: "/api/feeds/anna/countdowns", method: .post, headers: anna,
                                                 body: ByteBuffer(string: #"{"title":"Dentist","date":"2026-11-24","time":"08:15"}"#))
            #expect(added.status == .created, "\(String(buffer: added.body))")
            let hers = Self.entries(try Self.json(try await client.execute(uri: "/api/agenda?days=3", method: .get, headers: anna)))
            #expect(hers.values.flatMap { $0 } == ["08:15 event Dentist"], "the operator's private feed is not hers: \(hers)")
            let refused = try await client.execute(uri: "/api/agenda?feed=family", method: .get, headers: anna)
            #expect(refused.status == .notFound, "a feed she may not read is answered as one that does not exist")
            let everything = Self.entries(try Self.json(try await client.execute(uri: "/api/agenda?days=3", method: .get, headers: fixture.admin)))
            #expect(everything["2026-11-24"]?.contains("08:15 event Dentist") == true && everything["2026-11-23"]?.contains("09:30 event Standup") == true)
            let one = Self.entries(try Self.json(try await client.execute(uri: "/api/agenda?days=3&feed=anna", method: .get, headers: fixture.admin)))
            #expect(one.values.flatMap { $0 } == ["08:15 event Dentist"], "?feed= keeps one feed")
        }
    }

    @Test(arguments: ["days=0", "days=93", "days=seven", "tz=Mars/Olympus", "feed=..%2Fetc"])
    func aBadQueryIsA400NamingIt(query: String) async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            let response = try await client.execute(uri: "/api/agenda?\(query)", method: .get, headers: fixture.admin)
            #expect(response.status == .badRequest)
            #expect(String(buffer: response.body).contains(String(query.prefix { $0 != "=" })), "\(String(buffer: response.body))")
        }
    }
}
