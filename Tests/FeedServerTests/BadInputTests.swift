@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Malformed and oversized requests get the right status and a JSON message,
/// and the store is unchanged afterwards.
struct BadInputTests {
    static func snapshot(_ client: any TestClientProtocol, _ fixture: ServerFixture) async throws -> String {
        try await client.text("/api/feeds/family/export", headers: fixture.admin).1
    }

    @Test func badImportsAreRefusedAndChangeNothing() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        var configuration = fixture.configuration
        configuration.maxBodyBytes = 64 << 10
        _ = configuration
        try await fixture.withServer { client in
            let before = try await Self.snapshot(client, fixture)
            var headers = fixture.admin
            headers[.contentType] = "text/calendar"

            let junk = try await client.execute(uri: "/api/feeds/family/import", method: .post, headers: headers, body: ByteBuffer(string: "hello, world"))
            #expect(junk.status == .unprocessableContent)
            #expect(String(buffer: junk.body).contains("not an iCalendar file"))

            let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:new@x\r\nDTSTART:2026x101\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let strict = try await client.execute(uri: "/api/feeds/family/import?strict=true", method: .post, headers: headers, body: ByteBuffer(string: broken))
            #expect(strict.status == .unprocessableContent)
            let message = String(buffer: strict.body)
            #expect(message.contains("line 5") && message.contains("DTSTART"), "names the line and property: \(message)")

            let huge = ByteBuffer(repeating: UInt8(ascii: "A"), count: 9 << 20)
            let oversized = try await client.execute(uri: "/api/feeds/family/import", method: .post, headers: headers, body: huge)
            #expect(oversized.status == .contentTooLarge)

            var json = fixture.admin
            json[.contentType] = "application/json"
            let malformed = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post, headers: json, body: ByteBuffer(string: "{\"title\": "))
            #expect(malformed.status == .badRequest && String(buffer: malformed.body).contains("malformed JSON"))
            let invalid = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post, headers: json,
                                                   body: ByteBuffer(string: #"{"title":"X","date":"2027-13-45"}"#))
            #expect(invalid.status == .unprocessableContent && String(buffer: invalid.body).contains("date"))
            let badRepeat = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post, headers: json,
                                                     body: ByteBuffer(string: #"{"title":"X","date":"2027-01-01","rrule":"FREQ=SOMETIMES"}"#))
            #expect(badRepeat.status == .unprocessableContent && String(buffer: badRepeat.body).contains("rrule"))
            let badWeekday = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post, headers: json,
                                                      body: ByteBuffer(string: #"{"title":"X","date":"2027-01-01","rrule":"FREQ=WEEKLY;BYDAY=XX"}"#))
            #expect(badWeekday.status == .unprocessableContent && String(buffer: badWeekday.body).contains("BYDAY=XX: XX is not a weekday"),
                    "the part is named (issue #40): \(String(buffer: badWeekday.body))")
            let missing = try await client.execute(uri: "/api/feeds/nope/import", method: .post, headers: headers, body: ByteBuffer(string: ServerFixture.family))
            #expect(missing.status == .notFound)

            #expect(try await Self.snapshot(client, fixture) == before, "the store is unchanged")
        }
    }

    @Test func queryParametersAreChecked() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            #expect(try await client.text("/feeds/family.json?tz=Mars/Base").0.status == .badRequest)
            #expect(try await client.text("/feeds/family.json?unit=fortnights").0.status == .badRequest)
            #expect(try await client.text("/feeds/family.json?limit=-1").0.status == .badRequest)
            #expect(try await client.text("/feeds/family/999.svg").0.status == .notFound)
            #expect(try await client.text("/feeds/..%2F..%2Fetc/passwd").0.status == .notFound)
        }
    }

    @Test func adminCRUDRoundTrip() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            var json = fixture.admin
            json[.contentType] = "application/json"
            let created = try await client.execute(uri: "/api/feeds", method: .post, headers: json,
                                                   body: ByteBuffer(string: ##"{"slug":"trips","name":"Trips","timeZone":"Asia/Tokyo","color":"#123456"}"##))
            #expect(created.status == .created)
            let added = try await client.execute(uri: "/api/feeds/trips/countdowns", method: .post, headers: json,
                                                 body: ByteBuffer(string: ##"{"title":"Kyoto","date":"2027-04-01","time":"09:00","colors":["#FF3B30","#FF9500"],"alarms":["-P1D"]}"##))
            #expect(added.status == .created)
            let countdown = try JSONSerialization.jsonObject(with: Data(buffer: added.body)) as! [String: Any]
            let id = try #require(countdown["id"] as? Int)
            #expect(countdown["start"] as? String == "2027-04-01T00:00:00Z", "09:00 in Tokyo")
            let patched = try await client.execute(uri: "/api/countdowns/\(id)", method: .patch, headers: json, body: ByteBuffer(string: #"{"title":"Kyoto 🌸"}"#))
            #expect(patched.status == .ok && String(buffer: patched.body).contains("Kyoto 🌸"))
            let (_, ics) = try await client.text("/feeds/trips.ics")
            #expect(ics.contains("SUMMARY:Kyoto 🌸") && ics.contains("SEQUENCE:1") && ics.contains("X-TMINUS-GRADIENT:#FF3B30,#FF9500"))
            #expect(!ics.contains("BEGIN:VALARM"), "alarms are opt-in per feed")
            let badMode = try await client.execute(uri: "/api/feeds/trips", method: .patch, headers: json,
                                                   body: ByteBuffer(string: #"{"slug":"trips","countdown":{"mode":"daily","days":0}}"#))
            #expect(badMode.status == .unprocessableContent && String(buffer: badMode.body).contains("1 to 366"), "the same rule as feeds/*.yaml")
            let duplicate = try await client.execute(uri: "/api/feeds", method: .post, headers: json, body: ByteBuffer(string: #"{"slug":"trips"}"#))
            #expect(duplicate.status == .conflict)
            let removed = try await client.execute(uri: "/api/feeds/trips", method: .delete, headers: fixture.admin)
            #expect(removed.status == .noContent)
            #expect(try await client.text("/feeds/trips.ics").0.status == .notFound)
        }
    }
}
