@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Privacy per link (issue 13, part 6), through a real server: every output a
/// link serves (exported calendar, countdown calendar, JSON, page, cards) is
/// searched for the fixture's secrets, which all contain the word "secret".
@Suite struct LinkPrivacyTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:review@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20261201T093000\r
        DTEND;TZID=Europe/Berlin:20261201T100000\r
        SUMMARY:Design review\r
        DESCRIPTION:secret agenda\r
        LOCATION:secret room\r
        URL:https://example.com/secret\r
        ATTENDEE;CN=Secret Person:mailto:secret@example.com\r
        X-ZOOM-LINK:https://zoom.example/secret\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:doctor@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261210\r
        SUMMARY:secret clinic appointment\r
        CLASS:CONFIDENTIAL\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// Every output of one link, as text.
    static func outputs(_ client: any TestClientProtocol, base: String) async throws -> [String: String] {
        var outputs: [String: String] = [:]
        for suffix in [".ics", ".json", "", "/countdown.ics"] {
            let (response, body) = try await client.text(base + suffix)
            try #require(response.status == .ok, "\(base + suffix) answered \(response.status)")
            outputs[base + suffix] = body
        }
        let json = try JSONSerialization.jsonObject(with: Data(outputs[base + ".json"]!.utf8)) as! [String: Any]
        for row in json["countdowns"] as! [[String: Any]] {
            let id = row["id"] as! Int
            outputs["\(base)/\(id).svg"] = try await client.text("\(base)/\(id).svg").1
        }
        return outputs
    }

    static func token(_ client: any TestClientProtocol, _ fixture: ServerFixture, visibility: String) async throws -> String {
        let created = try await client.execute(uri: "/api/feeds/team/tokens", method: .post, headers: fixture.admin,
                                               body: ByteBuffer(string: #"{"label":"\#(visibility)","visibility":"\#(visibility)"}"#))
        try #require(created.status == .created)
        let json = try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as! [String: Any]
        #expect((json["token"] as? [String: Any])?["visibility"] as? String == visibility)
        return try #require(json["secret"] as? String)
    }

    @Test func eachLinkServesOnlyWhatItsVisibilityAllows() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("team", calendar: Self.calendar, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer { client in
            let titles = try await Self.token(client, fixture, visibility: "titles")
            let busy = try await Self.token(client, fixture, visibility: "busy")
            let full = try await Self.token(client, fixture, visibility: "full")

            for (path, body) in try await Self.outputs(client, base: "/feeds/team") {
                #expect(!body.contains("clinic") && !body.contains("doctor"), "\(path): a public link hides the CONFIDENTIAL event")
            }
            let publicJSON = try await client.text("/feeds/team.json").1
            #expect(publicJSON.contains("Design review") && publicJSON.contains("Busy"))

            for (path, body) in try await Self.outputs(client, base: "/t/\(titles)/feeds/team") {
                #expect(!body.lowercased().contains("secret") && !body.contains("X-ZOOM"), "\(path) leaks through a titles link")
                #expect(!body.contains("doctor"), "\(path)")
            }
            #expect(try await client.text("/t/\(titles)/feeds/team.ics").1.contains("SUMMARY:Design review"))

            for (path, body) in try await Self.outputs(client, base: "/t/\(busy)/feeds/team") {
                #expect(!body.lowercased().contains("secret") && !body.contains("Design review") && !body.contains("@example.com"),
                        "\(path) leaks through a busy link")
            }
            #expect(try await client.text("/t/\(busy)/feeds/team.ics").1.contains("SUMMARY:Busy"))

            let everything = try await client.text("/t/\(full)/feeds/team.ics").1
            #expect(everything.contains("secret agenda") && everything.contains("secret clinic appointment") && everything.contains("X-ZOOM-LINK"),
                    "a full link shows everything")
        }
    }

    @Test func anUnknownVisibilityIsRefusedByName() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("team", calendar: Self.calendar)
        try await fixture.withServer { client in
            let refused = try await client.execute(uri: "/api/feeds/team/tokens", method: .post, headers: fixture.admin,
                                                   body: ByteBuffer(string: #"{"visibility":"everyone"}"#))
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("visibility must be one of full, titles, busy"))
            #expect(try await client.text("/api/feeds/team/tokens", headers: fixture.admin).1 == "[]", "no token was made")
        }
    }

    /// A token made after the feed was compiled gets its view at once: the
    /// catalog compiles views with the tokens that need them.
    @Test func aNewBusyTokenIsServedRedactedOnItsFirstRequest() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("team", calendar: Self.calendar, yaml: "public: false")
        try await fixture.withServer { client in
            #expect(try await client.text("/feeds/team.ics").0.status == .notFound)
            let busy = try await Self.token(client, fixture, visibility: "busy")
            let body = try await client.text("/t/\(busy)/feeds/team.ics").1
            #expect(body.contains("SUMMARY:Busy") && !body.contains("Design review"))
        }
    }
}
